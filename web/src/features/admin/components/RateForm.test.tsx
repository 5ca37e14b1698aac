import type { Rate } from '@afrofx/shared';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RateForm } from './RateForm';

function renderForm(rate?: Rate) {
  const onSubmit = jest.fn();
  render(<RateForm rate={rate} isSubmitting={false} onSubmit={onSubmit} onCancel={() => undefined} />);
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
