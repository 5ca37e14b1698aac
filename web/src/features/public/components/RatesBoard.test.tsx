import type { Market, Quote } from '@afrofx/shared';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { marketRates } from '../../../test/rates';
import { RatesBoard } from './RatesBoard';
import { RatesTable } from './RatesTable';

const now = new Date();
const ratesByMarket: Record<Market, Quote[]> = {
  black_market_cash: marketRates('black_market_cash', now, 1530, 1545),
  bank: marketRates('bank', now, 1410, 1420),
  black_market_transfer: marketRates('black_market_transfer', now, 1550, 1560),
};

function renderBoard() {
  return render(
    <RatesBoard>
      {({ market, base }) => (
        <RatesTable base={base} rates={ratesByMarket[market]} isLoading={false} now={now} />
      )}
    </RatesBoard>,
  );
}

const usdRow = () => screen.getByRole('row', { name: /USD/ });

describe('home page market tabs and currency selector', () => {
  it('has the tabs Bank, Cash and Transfer, with Cash selected by default', () => {
    renderBoard();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Bank', 'Cash', 'Transfer']);
    expect(screen.getByRole('tab', { name: 'Cash' })).toHaveAttribute('aria-selected', 'true');
    expect(within(usdRow()).getByText('₦1,530.00')).toBeInTheDocument();
  });

  it('shows the chosen market when another tab is picked', async () => {
    renderBoard();
    await userEvent.click(screen.getByRole('tab', { name: 'Bank' }));
    expect(screen.getByRole('tab', { name: 'Bank' })).toHaveAttribute('aria-selected', 'true');
    expect(within(usdRow()).getByText('₦1,410.00')).toBeInTheDocument();
  });

  it('moves between tabs with the arrow keys', async () => {
    renderBoard();
    screen.getByRole('tab', { name: 'Cash' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Transfer' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Transfer' })).toHaveFocus();
  });

  it('offers NGN, KES, ZAR and GHS, starting with NGN', () => {
    renderBoard();
    const group = screen.getByRole('group', { name: 'Currency' });
    const choices = within(group).getAllByRole('radio');
    expect(choices.map((choice) => choice.closest('label')?.textContent)).toEqual([
      'NGN',
      'KES',
      'ZAR',
      'GHS',
    ]);
    expect(within(group).getByRole('radio', { name: 'NGN' })).toBeChecked();
  });

  it('prefixes the values with the symbol of the currency picked', async () => {
    renderBoard();
    await userEvent.click(screen.getByRole('radio', { name: 'KES' }));
    expect(within(usdRow()).getByText('KSh1,530.00')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'GHS' }));
    expect(within(usdRow()).getByText('GH₵1,530.00')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'ZAR' }));
    expect(within(usdRow()).getByText('R1,530.00')).toBeInTheDocument();
  });
});
