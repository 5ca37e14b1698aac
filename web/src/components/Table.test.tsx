import { fireEvent, render, screen, within } from '@testing-library/react';
import { Table, type Column } from './Table';

interface Row {
  id: string;
  name: string;
  plan?: string;
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

/** jsdom lays nothing out: give every element the widths a browser would measure. */
function setWidths(scrollWidth: number, clientWidth: number) {
  Object.defineProperty(HTMLElement.prototype, 'scrollWidth', { configurable: true, value: scrollWidth });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, value: clientWidth });
}

const planColumns: ReadonlyArray<Column<Row>> = [
  { key: 'name', header: 'Name', cardTitle: true, cell: (row) => row.name },
  { key: 'plan', header: 'Plan', cell: (row) => row.plan },
  {
    key: 'actions',
    header: <span className="sr-only">Actions</span>,
    cell: (row) => <button type="button">{`Edit ${row.name}`}</button>,
  },
];
const planRows: Row[] = [
  { id: '1', name: 'Ada', plan: 'Growth' },
  { id: '2', name: 'Bola', plan: 'Starter' },
];

describe('Table', () => {
  afterEach(() => {
    setPage(0, 0);
    setWidths(0, 0);
  });

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

  describe('on a phone', () => {
    const renderPlans = (props: Partial<Parameters<typeof Table<Row>>[0]> = {}) =>
      render(
        <Table
          caption="Accounts"
          columns={planColumns}
          rows={planRows}
          rowKey={(row) => row.id}
          emptyMessage="None."
          {...props}
        />,
      );

    it('stacks each row as a card whose lines are labelled with the column headers', () => {
      renderPlans();
      const table = screen.getByRole('table', { name: 'Accounts' });
      // Below 640 px the table, its body and its rows are blocks, the headers are for screen readers only.
      expect(table).toHaveClass('max-sm:block');
      expect(table.querySelector('thead')).toHaveClass('max-sm:sr-only');
      const ada = screen.getAllByRole('row')[1]!;
      expect(ada).toHaveClass('max-sm:flex', 'max-sm:flex-col');

      const [name, plan, actions] = within(ada).getAllByRole('cell') as [
        HTMLElement,
        HTMLElement,
        HTMLElement,
      ];
      // The label repeats the header for the eye only; the cell's name stays its value.
      expect(plan).toHaveAccessibleName('Growth');
      const label = within(plan).getByText('Plan');
      expect(label).toHaveAttribute('aria-hidden', 'true');
      expect(label).toHaveClass('sm:hidden');
      // The title line heads the card with no label.
      expect(name).toHaveTextContent(/^Ada$/);
      expect(name).toHaveClass('max-sm:order-first');
      // An action column keeps its (visually hidden) header as its label, and its button in the card.
      expect(within(actions).getByRole('button', { name: 'Edit Ada' })).toBeInTheDocument();
      expect(within(actions).getByText('Actions')).toHaveClass('sr-only');
    });

    it('lays the loading placeholders out as cards too', () => {
      renderPlans({ rows: undefined, isLoading: true, loadingLabel: 'Loading accounts' });
      expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
      const placeholders = screen.getAllByRole('row').slice(1);
      expect(placeholders).toHaveLength(5);
      expect(placeholders[0]!).toHaveClass('max-sm:flex');
      expect(within(placeholders[0]!).getByText('Plan')).toHaveAttribute('aria-hidden', 'true');
      expect(screen.getByRole('status')).toHaveTextContent('Loading accounts');
    });

    it('keeps loading more, and the end of the list, under the cards', () => {
      const { rerender } = renderPlans({ hasMore: true, isLoadingMore: true, onLoadMore: () => undefined });
      expect(screen.getByRole('status')).toHaveTextContent('Loading more');
      rerender(
        <Table
          caption="Accounts"
          columns={planColumns}
          rows={planRows}
          rowKey={(row) => row.id}
          emptyMessage="None."
          error="The next page did not load."
          onRetry={() => undefined}
          hasMore
          onLoadMore={() => undefined}
        />,
      );
      expect(screen.getByRole('alert')).toHaveTextContent('The next page did not load.');
      expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
      expect(screen.getAllByRole('row')).toHaveLength(3);
    });

    it('stays a table at every width with cardBelow={false}', () => {
      renderPlans({ cardBelow: false });
      const table = screen.getByRole('table', { name: 'Accounts' });
      expect(table).not.toHaveClass('max-sm:block');
      expect(table.querySelector('thead')).not.toHaveClass('max-sm:sr-only');
      const ada = screen.getAllByRole('row')[1]!;
      expect(within(ada).getAllByRole('cell')[1]!).toHaveTextContent(/^Growth$/);
      expect(within(ada).queryByText('Plan')).not.toBeInTheDocument();
    });
  });

  describe('wider than its box', () => {
    it('says it scrolls sideways, and is a named region the keyboard can reach', () => {
      setWidths(900, 600);
      render(
        <Table
          caption="People"
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          emptyMessage="None."
        />,
      );
      const region = screen.getByRole('region', { name: 'People' });
      expect(region).toHaveAttribute('tabindex', '0');
      expect(region).toHaveAccessibleDescription('Scroll sideways for more columns');
      expect(within(region).getByRole('table', { name: 'People' })).toBeInTheDocument();
    });

    it('shows no hint and takes no tab stop when everything fits', () => {
      setWidths(600, 600);
      render(
        <Table
          caption="People"
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          emptyMessage="None."
        />,
      );
      expect(screen.queryByRole('region')).not.toBeInTheDocument();
      expect(screen.queryByText('Scroll sideways for more columns')).not.toBeInTheDocument();
      expect(screen.getByRole('table', { name: 'People' }).parentElement).not.toHaveAttribute('tabindex');
    });
  });
});
