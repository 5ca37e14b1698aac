import { render, screen } from '@testing-library/react';
import { makeRate } from '../../../test/rates';
import { PremiumLine, premiumSentence } from './PremiumLine';

const now = new Date('2026-11-23T09:00:00Z');
const bank = [makeRate({ market: 'bank', base: 'naira', asset: 'dollar', buy: 1000, sell: 1020 }, now)];
const cash = [
  makeRate({ market: 'black_market_cash', base: 'naira', asset: 'dollar', buy: 1030, sell: 1051.3 }, now),
];

describe('home page premium line', () => {
  it('says how far the cash dollar sits above bank, from the mid rates', () => {
    // mid 1040.65 against 1010: +3.0347 %
    render(<PremiumLine market="black_market_cash" base="naira" marketRates={cash} bankRates={bank} />);
    expect(screen.getByTestId('premium-line')).toHaveTextContent(
      'Cash dollar is 3.0 % above bank (mid rates)',
    );
  });

  it('compares the cash market on the bank tab', () => {
    render(<PremiumLine market="bank" base="naira" marketRates={cash} bankRates={bank} />);
    expect(screen.getByTestId('premium-line')).toHaveTextContent('Cash dollar is 3.0 % above bank');
  });

  it('shows nothing while a rate is missing for the chosen currency', () => {
    render(<PremiumLine market="black_market_cash" base="rand" marketRates={cash} bankRates={bank} />);
    expect(screen.queryByTestId('premium-line')).not.toBeInTheDocument();
  });

  it.each([
    [3.14, 'Transfer dollar is 3.1 % above bank'],
    [-2.06, 'Transfer dollar is 2.1 % below bank'],
    [0.04, 'Transfer dollar is level with bank'],
  ])('words a premium of %s %% as "%s"', (pct, sentence) => {
    expect(premiumSentence('black_market_transfer', pct)).toBe(sentence);
  });
});
