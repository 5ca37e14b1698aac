import { fireEvent, render, screen } from '@testing-library/react';
import { makeRequestLog } from '../../../test/developer';
import { RequestLogView } from './RequestLogView';

const idle = {
  rows: undefined,
  isLoading: false,
  isError: false,
  hasMore: false,
  isLoadingMore: false,
  onLoadMore: () => undefined,
  onRetry: () => undefined,
};

function setPage(scrollHeight: number, scrollY: number) {
  Object.defineProperty(document.documentElement, 'scrollHeight', {
    configurable: true,
    value: scrollHeight,
  });
  Object.defineProperty(window, 'scrollY', { configurable: true, value: scrollY });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: 800 });
}

describe('request data view (SPEC §4)', () => {
  afterEach(() => setPage(0, 0));

  it('shows the generic message on an error', () => {
    render(<RequestLogView {...idle} isError />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Something bad happended, kindly reach out to support.',
    );
  });

  it('shows a spinner while loading', () => {
    render(<RequestLogView {...idle} isLoading />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading requests');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("shows 'Request is empty.' when there is no request", () => {
    render(<RequestLogView {...idle} rows={[]} />);
    expect(screen.getByText('Request is empty.')).toBeInTheDocument();
  });

  it('otherwise lists the requests with their URL, status, latency and client', () => {
    render(<RequestLogView {...idle} rows={makeRequestLog(2)} />);
    const table = screen.getByRole('table', { name: 'Request log' });
    expect(table).toHaveTextContent('/v1/rates?page=2');
    expect(table).toHaveTextContent('4.50 ms');
    expect(table).toHaveTextContent('102.89.0.1');
    expect(table).toHaveTextContent('curl/8.5.0');
    expect(screen.getAllByRole('row')).toHaveLength(3);
  });

  it("shows 'Loading more' while the next page loads", () => {
    render(<RequestLogView {...idle} rows={makeRequestLog(20)} hasMore isLoadingMore />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading more');
  });

  it('keeps what it has when a later page fails', () => {
    render(<RequestLogView {...idle} rows={makeRequestLog(20)} isError hasMore />);
    expect(screen.getAllByRole('row')).toHaveLength(21);
    expect(screen.getByRole('alert')).toHaveTextContent('Something bad happended');
  });

  it('loads the next page at the bottom of the window', () => {
    setPage(3000, 0);
    const onLoadMore = jest.fn();
    render(<RequestLogView {...idle} rows={makeRequestLog(20)} hasMore onLoadMore={onLoadMore} />);
    expect(onLoadMore).not.toHaveBeenCalled();
    setPage(3000, 2200);
    fireEvent.scroll(window);
    expect(onLoadMore).toHaveBeenCalledTimes(1);
  });

  it('stops at the end of the log', () => {
    setPage(3000, 2200);
    const onLoadMore = jest.fn();
    render(<RequestLogView {...idle} rows={makeRequestLog(45)} onLoadMore={onLoadMore} />);
    fireEvent.scroll(window);
    expect(onLoadMore).not.toHaveBeenCalled();
    expect(screen.getByText('Showing all 45 entries.')).toBeInTheDocument();
    expect(screen.queryByText('Loading more')).not.toBeInTheDocument();
  });
});
