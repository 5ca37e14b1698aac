import type { Rate } from '@afrofx/shared';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { buttonClasses } from '../../../components/Button';
import { RateForm } from './RateForm';

const LATEST_BANK_USD_NGN: Rate = {
  _id: 'latest',
  market: 'bank',
  asset: 'dollar',
  base: 'naira',
  buy: 1500,
  sell: 1520,
  createdAt: '2026-11-23T08:00:00.000Z',
  updatedAt: '2026-11-23T08:00:00.000Z',
  source: 'desk',
  publishedAt: '2026-11-23T08:00:00.000Z',
  publicationId: null,
  revision: 0,
};

function renderForm(rate?: Rate, latestRates: Rate[] = []) {
  const onSubmit = jest.fn();
  render(
    <RateForm
      rate={rate}
      latestRates={latestRates}
      isSubmitting={false}
      onSubmit={onSubmit}
      onCancel={() => undefined}
    />,
  );
  return onSubmit;
}

async function fill({
  market,
  asset,
  base,
  buy,
  sell,
}: Record<'market' | 'asset' | 'base' | 'buy' | 'sell', string>) {
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Market' }), market);
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Asset' }), asset);
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Base' }), base);
  await userEvent.type(screen.getByLabelText('Buy'), buy);
  await userEvent.type(screen.getByLabelText('Sell'), sell);
}

describe('rate form', () => {
  it('requires market, asset, base, buy and sell', async () => {
    const onSubmit = renderForm();
    await userEvent.click(screen.getByRole('button', { name: 'Add rate' }));

    expect(screen.getByText('Market is required.')).toBeInTheDocument();
    expect(screen.getByText('Asset is required.')).toBeInTheDocument();
    expect(screen.getByText('Base is required.')).toBeInTheDocument();
    expect(screen.getByText('Buy is required.')).toBeInTheDocument();
    expect(screen.getByText('Sell is required.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('rejects a rate with a non-numeric buy or sell', async () => {
    const onSubmit = renderForm();
    await fill({ market: 'Bank', asset: '🇺🇸 USD', base: 'NGN — Naira', buy: '12a', sell: 'abc' });
    await userEvent.click(screen.getByRole('button', { name: 'Add rate' }));

    expect(screen.getByLabelText('Buy')).toHaveAccessibleDescription('Buy must be a number.');
    expect(screen.getByLabelText('Sell')).toHaveAccessibleDescription('Sell must be a number.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends a complete rate with numeric buy and sell', async () => {
    const onSubmit = renderForm();
    await fill({ market: 'Bank', asset: '🇺🇸 USD', base: 'NGN — Naira', buy: '1234.56', sell: '1250' });
    await userEvent.click(screen.getByRole('button', { name: 'Add rate' }));

    expect(onSubmit).toHaveBeenCalledWith({
      market: 'bank',
      asset: 'dollar',
      base: 'naira',
      buy: 1234.56,
      sell: 1250,
    });
  });

  it('shows Sell before Buy, in the order of the Rates table', () => {
    renderForm();
    const sell = screen.getByLabelText('Sell');
    const buy = screen.getByLabelText('Buy');
    expect(sell.compareDocumentPosition(buy) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('warns when sell is below buy, and saves only once the admin confirms', async () => {
    const onSubmit = renderForm();
    await fill({ market: 'Bank', asset: '🇺🇸 USD', base: 'NGN — Naira', buy: '1500', sell: '1490' });
    expect(screen.getByText('Sell is below Buy: sell is normally the higher price.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Add rate' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent('Sell (₦1,490.00) is below Buy (₦1,500.00).');

    // The safe choice is the primary button, saving anyway the secondary one.
    expect(screen.getByRole('button', { name: 'Check again' })).toHaveClass(
      ...buttonClasses('primary').split(' '),
    );
    expect(screen.getByRole('button', { name: 'Save anyway' })).toHaveClass(
      ...buttonClasses('secondary').split(' '),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Save anyway' }));
    expect(onSubmit).toHaveBeenCalledWith({
      market: 'bank',
      asset: 'dollar',
      base: 'naira',
      buy: 1500,
      sell: 1490,
    });
  });

  it('asks before saving a price more than 20 % from the latest for its pair and market', async () => {
    const onSubmit = renderForm(undefined, [LATEST_BANK_USD_NGN]);
    // 15000 for 1500: a zero too many on Buy; Sell 1530 is 0.7 % from 1520 and is not mentioned.
    await fill({ market: 'Bank', asset: '🇺🇸 USD', base: 'NGN — Naira', buy: '15000', sell: '1530' });
    await userEvent.click(screen.getByRole('button', { name: 'Add rate' }));
    expect(onSubmit).not.toHaveBeenCalled();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(
      'Buy ₦15,000.00 is 900.0 % above the latest bank USD/NGN rate (₦1,500.00).',
    );
    expect(alert).not.toHaveTextContent('Sell ₦1,530.00');

    // The admin goes back and corrects it: 1,510 is 0.7 % above, so it saves without asking.
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await userEvent.clear(screen.getByLabelText('Buy'));
    await userEvent.type(screen.getByLabelText('Buy'), '1510');
    await userEvent.click(screen.getByRole('button', { name: 'Add rate' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ buy: 1510, sell: 1530 }));
  });

  it('compares with the latest of the same market only: 25 % below in another market is not asked about', async () => {
    const onSubmit = renderForm(undefined, [LATEST_BANK_USD_NGN]);
    await fill({ market: 'Cash', asset: '🇺🇸 USD', base: 'NGN — Naira', buy: '1100', sell: '1150' });
    await userEvent.click(screen.getByRole('button', { name: 'Add rate' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('starts from the rate being edited', async () => {
    const onSubmit = renderForm({
      _id: 'r1',
      market: 'black_market_transfer',
      asset: 'euro',
      base: 'cedis',
      buy: 16.5,
      sell: 17,
      createdAt: '2025-03-14T08:00:00.000Z',
      updatedAt: '2025-03-14T08:00:00.000Z',
      source: 'desk',
      publishedAt: '2025-03-14T08:00:00.000Z',
      publicationId: null,
      revision: 0,
    });
    expect(screen.getByRole('combobox', { name: 'Market' })).toHaveValue('black_market_transfer');
    expect(screen.getByLabelText('Buy')).toHaveValue('16.5');

    await userEvent.clear(screen.getByLabelText('Sell'));
    await userEvent.type(screen.getByLabelText('Sell'), '17.25');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSubmit).toHaveBeenCalledWith({
      market: 'black_market_transfer',
      asset: 'euro',
      base: 'cedis',
      buy: 16.5,
      sell: 17.25,
    });
  });
});
