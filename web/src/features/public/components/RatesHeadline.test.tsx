import { formatDateTime } from '@afrofx/shared';
import { render, screen, within } from '@testing-library/react';
import { makeRate, marketRates } from '../../../test/rates';
import { shownRates } from '../shown-rates';
import { changeSentence, MarketsExplained, RatesHeadline } from './RatesHeadline';

const now = new Date('2026-11-23T09:00:00');
const earlier = new Date('2026-11-23T06:30:15');
const yesterday = new Date('2026-11-22T18:00:00');

const nairaDollar = (previousClose: { buy: number; sell: number } | null) =>
  makeRate({ base: 'naira', asset: 'dollar', buy: 1500.5, sell: 1510.25 }, now, previousClose);

describe('changeSentence: the dollar mid against the previous day', () => {
  it.each([
    // mid 1505.375 against 1455.375: +50, +3.4355 %
    [{ buy: 1450.5, sell: 1460.25 }, 'Up ₦50.00 (3.44%) since the previous day'],
    // mid 1505.375 against 1511.625: −6.25, −0.4135 %
    [{ buy: 1506.75, sell: 1516.5 }, 'Down ₦6.25 (0.41%) since the previous day'],
    [{ buy: 1500.5, sell: 1510.25 }, 'Unchanged since the previous day'],
    [null, 'No earlier day to compare with'],
  ])('previous close %p gives %p', (previousClose, expected) => {
    expect(changeSentence(nairaDollar(previousClose))).toBe(expected);
  });

  it("writes the change in the base's own symbol", () => {
    const rand = makeRate({ base: 'rand', asset: 'dollar', buy: 18.2, sell: 18.6 }, now, {
      buy: 18,
      sell: 18.4,
    });
    expect(changeSentence(rand)).toBe('Up R0.20 (1.10%) since the previous day');
  });
});

describe('home page dollar headline', () => {
  it("shows the chosen base's dollar BUY and SELL, its change and one Last updated stamp: the latest", () => {
    const rates = [
      makeRate({ base: 'naira', asset: 'euro', buy: 1600, sell: 1620 }, earlier),
      nairaDollar({ buy: 1450.5, sell: 1460.25 }),
      makeRate({ base: 'rand', asset: 'dollar', buy: 18.2, sell: 18.6 }, now),
    ];
    render(
      <RatesHeadline
        market="black_market_transfer"
        base="naira"
        rates={shownRates(rates, 'naira', now)}
        isLoading={false}
      />,
    );
    const headline = screen.getByRole('region', { name: 'Dollar rate' });
    expect(headline).toHaveTextContent('1 USD in NGN, Transfer market');
    expect(within(headline).getByText('BUY').nextSibling).toHaveTextContent('₦1,500.50');
    expect(within(headline).getByText('SELL').nextSibling).toHaveTextContent('₦1,510.25');
    expect(headline).toHaveTextContent('Up ₦50.00 (3.44%) since the previous day (mid rate)');
    const stamp = within(headline).getByText(formatDateTime(now));
    expect(stamp).toHaveTextContent(/^Nov-23-2026 9:00:00 AM \S+$/);
    expect(stamp).toHaveAttribute('dateTime', now.toISOString());
    expect(within(headline).getAllByText(/Last updated/)).toHaveLength(1);
  });

  it('gives the Last updated stamp even when the base has no dollar rate today', () => {
    const rates = [makeRate({ base: 'cedis', asset: 'euro', buy: 16, sell: 16.5 }, earlier)];
    render(<RatesHeadline market="bank" base="cedis" rates={rates} isLoading={false} />);
    const headline = screen.getByRole('region', { name: 'Dollar rate' });
    expect(headline).not.toHaveTextContent('USD');
    expect(headline).toHaveTextContent(`Last updated${formatDateTime(earlier)}`);
  });

  it('says nothing when no rate is from today, leaving the table its empty state', () => {
    const { container } = render(
      <RatesHeadline
        market="black_market_cash"
        base="naira"
        rates={shownRates(marketRates('black_market_cash', yesterday), 'naira', now)}
        isLoading={false}
      />,
    );
    expect(container).toBeEmptyDOMElement();
  });

  it('keeps its place while the rates load', () => {
    const { container } = render(
      <RatesHeadline market="black_market_cash" base="naira" rates={[]} isLoading />,
    );
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(container.firstChild).toHaveAttribute('aria-hidden', 'true');
  });
});

describe('markets explained', () => {
  it('names the three markets and says BUY and SELL from the customer’s side', () => {
    render(<MarketsExplained />);
    const line = screen.getByText(/official bank rate/);
    expect(line).toHaveTextContent(
      'Bank is the official bank rate, Cash is for notes changed by hand and Transfer for money paid by bank transfer. BUY is what a dealer pays you for each unit you sell; SELL is what you pay for each unit you buy.',
    );
  });
});
