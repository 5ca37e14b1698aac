import { formatDateTime } from '@afrofx/shared';
import { render, screen, within } from '@testing-library/react';
import { makeRate, marketRates } from '../../../test/rates';
import { RatesTable } from './RatesTable';

const now = new Date('2025-03-14T12:00:00');
const yesterday = new Date('2025-03-13T18:00:00');

describe('home page rates table', () => {
  it('shows a loading state while the rates are on their way', () => {
    render(<RatesTable base="naira" rates={undefined} isLoading now={now} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading rates');
  });

  it('shows each asset with its flag and code, and BUY and SELL prefixed with the base symbol', () => {
    render(
      <RatesTable base="naira" rates={marketRates('black_market_cash', now)} isLoading={false} now={now} />,
    );

    const table = screen.getByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'BUY' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'SELL' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Last updated' })).toBeInTheDocument();

    const usd = screen.getByRole('row', { name: /USD/ });
    expect(within(usd).getByRole('img', { name: 'United States flag' }).tagName).toBe('IMG');
    expect(within(usd).getByText('₦1,530.50')).toBeInTheDocument();
    expect(within(usd).getByText('₦1,545.25')).toBeInTheDocument();
    // Each row keeps its Last updated stamp (SPEC §2) in the one date format, with the viewer's zone (shared tests
    // pin the format itself in fixed zones).
    const stamps = within(usd).getAllByText(formatDateTime(now));
    expect(stamps.length).toBeGreaterThan(0);
    expect(stamps[0]).toHaveTextContent(/^Mar-14-2025 12:00:00 PM \S+$/);
    expect(stamps[0]).toHaveAttribute('dateTime', now.toISOString());
    expect(screen.getAllByRole('row')).toHaveLength(5);
  });

  it('lists the assets in a fixed order: USD, EURO, GBP, CAD', () => {
    render(
      <RatesTable base="naira" rates={marketRates('bank', now).reverse()} isLoading={false} now={now} />,
    );
    const codes = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getByText(/^(USD|EURO|GBP|CAD)$/).textContent);
    expect(codes).toEqual(['USD', 'EURO', 'GBP', 'CAD']);
  });

  it("says 'Rates have not been updated today.' when the latest rates are older than today", () => {
    render(
      <RatesTable
        base="naira"
        rates={marketRates('black_market_cash', yesterday)}
        isLoading={false}
        now={now}
      />,
    );
    expect(screen.getByText('Rates have not been updated today.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("says 'Rates have not been updated today.' when there are no rates", () => {
    render(<RatesTable base="naira" rates={[]} isLoading={false} now={now} />);
    expect(screen.getByText('Rates have not been updated today.')).toBeInTheDocument();
  });

  it('judges "today" by the selected base only', () => {
    const rates = [
      makeRate({ base: 'rand', asset: 'dollar', buy: 18.2 }, now),
      makeRate({ base: 'naira', asset: 'dollar' }, yesterday),
    ];
    const { rerender } = render(<RatesTable base="naira" rates={rates} isLoading={false} now={now} />);
    expect(screen.getByText('Rates have not been updated today.')).toBeInTheDocument();

    rerender(<RatesTable base="rand" rates={rates} isLoading={false} now={now} />);
    expect(screen.getByText('R18.20')).toBeInTheDocument();
  });

  it('shows the error message with a way to try again', () => {
    const retry = jest.fn();
    render(
      <RatesTable
        base="naira"
        rates={undefined}
        isLoading={false}
        error="Network Error"
        onRetry={retry}
        now={now}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Network Error');
    screen.getByRole('button', { name: 'Try again' }).click();
    expect(retry).toHaveBeenCalled();
  });

  it('shows the change since the previous day with its direction in words, and the spread', () => {
    const rates = [
      makeRate({ base: 'naira', asset: 'dollar', buy: 1500.5, sell: 1510.25 }, now, {
        buy: 1450.5,
        sell: 1460.25,
      }),
      makeRate({ base: 'naira', asset: 'euro', buy: 1600, sell: 1620 }, now, { buy: 1700, sell: 1720 }),
      makeRate({ base: 'naira', asset: 'british_pounds', buy: 1900, sell: 1950 }, now),
    ];
    render(<RatesTable base="naira" rates={rates} isLoading={false} now={now} />);
    expect(screen.getByRole('columnheader', { name: 'Change' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Spread' })).toBeInTheDocument();

    const usd = screen.getByRole('row', { name: /USD/ });
    // mid 1505.375 against 1455.375: +3.4355 %
    expect(within(usd).getAllByText('up 3.44% since the previous day').length).toBeGreaterThan(0);
    expect(within(usd).getByText('₦9.75')).toBeInTheDocument();
    expect(within(usd).getByText('0.65%')).toBeInTheDocument();

    const euro = screen.getByRole('row', { name: /EURO/ });
    // mid 1610 against 1710: −5.8480 %
    expect(within(euro).getAllByText('down 5.85% since the previous day').length).toBeGreaterThan(0);

    const gbp = screen.getByRole('row', { name: /GBP/ });
    expect(within(gbp).getAllByText('No earlier day to compare with').length).toBeGreaterThan(0);
  });
});
