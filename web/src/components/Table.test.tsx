import { fireEvent, render, screen } from '@testing-library/react';
import { Table, type Column } from './Table';

interface Row {
  id: string;
  name: string;
}

const columns: ReadonlyArray<Column<Row>> = [{ key: 'name', header: 'Name', cell: (row) => row.name }];
const rows: Row[] = [
  { id: '1', name: 'First' },
  { id: '2', name: 'Second' },
];

function setPage(scrollHeight: number, scrollY: number) {
  Object.defineProperty(document.documentElement, 'scrollHeight', {
    configurable: true,
    value: scrollHeight,
  });
  Object.defineProperty(window, 'scrollY', { configurable: true, value: scrollY });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: 800 });
}

describe('Table', () => {
  afterEach(() => setPage(0, 0));

  it('shows the rows under their headers', () => {
    render(
      <Table caption="People" columns={columns} rows={rows} rowKey={(row) => row.id} emptyMessage="None." />,
    );
    expect(screen.getByRole('table', { name: 'People' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Second' })).toBeInTheDocument();
  });

  it('shows the empty state when there are no rows', () => {
    render(
      <Table
        caption="People"
        columns={columns}
        rows={[]}
        rowKey={(row) => row.id}
        emptyMessage="Rates is empty."
      />,
    );
    expect(screen.getByText('Rates is empty.')).toBeInTheDocument();
  });

  it("shows 'Loading more' while the next page loads", () => {
    render(
      <Table
        caption="People"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        emptyMessage="None."
        hasMore
        isLoadingMore
        onLoadMore={() => undefined}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading more');
  });

  it('loads the next page when the window reaches the page bottom', () => {
    setPage(3000, 0);
    const onLoadMore = jest.fn();
    render(
      <Table
        caption="People"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        emptyMessage="None."
        hasMore
        onLoadMore={onLoadMore}
      />,
    );
    expect(onLoadMore).not.toHaveBeenCalled();

    setPage(3000, 2200);
    fireEvent.scroll(window);
    expect(onLoadMore).toHaveBeenCalledTimes(1);
  });

  it('stops loading at the end of the list', () => {
    setPage(3000, 2200);
    const onLoadMore = jest.fn();
    render(
      <Table
        caption="People"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        emptyMessage="None."
        hasMore={false}
        onLoadMore={onLoadMore}
      />,
    );
    fireEvent.scroll(window);
    expect(onLoadMore).not.toHaveBeenCalled();
    expect(screen.getByText('Showing all 2 entries.')).toBeInTheDocument();
  });
});
