import { ALL_ENTITLEMENTS, type Plan } from '@afrofx/shared';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PlanForm } from './PlanForm';

function renderForm(plan?: Plan) {
  const onSubmit = jest.fn();
  render(<PlanForm plan={plan} isSubmitting={false} onSubmit={onSubmit} onCancel={() => undefined} />);
  return onSubmit;
}

async function fill(name: string, amount: string, requests: string) {
  if (name) await userEvent.type(screen.getByLabelText('Name'), name);
  if (amount) await userEvent.type(screen.getByLabelText('Amount (USD per year)'), amount);
  if (requests) await userEvent.type(screen.getByLabelText('Requests per month'), requests);
  await userEvent.click(screen.getByRole('button', { name: /Create plan|Save changes/ }));
}

describe('plan form (SPEC §5)', () => {
  it('requires a name, an amount and a number of requests', async () => {
    const onSubmit = renderForm();
    await fill('', '', '');
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Name is required.');
    expect(screen.getByLabelText('Amount (USD per year)')).toHaveAccessibleDescription('Amount is required.');
    expect(screen.getByLabelText('Requests per month')).toHaveAccessibleDescription(
      'Number of requests is required.',
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses a number of requests that is not a whole number', async () => {
    const onSubmit = renderForm();
    await fill('Growth', '49', '10k');
    expect(screen.getByLabelText('Requests per month')).toHaveAccessibleDescription(
      'Number of requests must be a whole number.',
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses an amount that is not dollars and cents, and takes zero as a free plan', async () => {
    const onSubmit = renderForm();
    await fill('Growth', '49.999', '1000');
    expect(screen.getByLabelText('Amount (USD per year)')).toHaveAccessibleDescription(
      'Amount must be a dollar amount, like 49.99.',
    );
    await userEvent.clear(screen.getByLabelText('Amount (USD per year)'));
    await userEvent.type(screen.getByLabelText('Amount (USD per year)'), '-1');
    await userEvent.click(screen.getByRole('button', { name: 'Create plan' }));
    expect(screen.getByLabelText('Amount (USD per year)')).toHaveAccessibleDescription(
      'Amount must be a dollar amount, like 49.99.',
    );
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.clear(screen.getByLabelText('Amount (USD per year)'));
    await userEvent.type(screen.getByLabelText('Amount (USD per year)'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Create plan' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ amount: 0 }));
  });

  it('edits what the plan opens, and needs at least one endpoint', async () => {
    const onSubmit = renderForm();
    // A new plan starts with the latest rates only.
    expect(screen.getByRole('checkbox', { name: 'Currency conversion endpoint' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Latest rates' }));
    await fill('Growth', '480', '100000');
    expect(screen.getByRole('group', { name: 'Endpoints it opens' })).toHaveAccessibleDescription(
      'Tick at least one endpoint the plan opens.',
    );
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Latest rates' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Currency conversion endpoint' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Cash' }));
    await userEvent.clear(screen.getByLabelText('History depth (days)'));
    await userEvent.type(screen.getByLabelText('History depth (days)'), '90');
    await userEvent.click(screen.getByRole('button', { name: 'Create plan' }));
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Growth',
      amount: 480,
      numberOfRequest: 100000,
      entitlements: {
        endpoints: ['latest', 'convert'],
        historyDays: 90,
        markets: ['bank', 'black_market_transfer'],
        burstPerSecond: 50,
      },
    });
  });

  it('sends the plan with numeric amount and quota, opening the latest rates only unless more is ticked', async () => {
    const onSubmit = renderForm();
    await fill('  Growth ', '49.99', '100000');
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Growth',
      amount: 49.99,
      numberOfRequest: 100000,
      entitlements: { ...ALL_ENTITLEMENTS, endpoints: ['latest'] },
    });
  });

  it('starts from the plan being edited', async () => {
    const onSubmit = renderForm({
      _id: 'p1',
      name: 'Starter',
      amount: 19.99,
      numberOfRequest: 5000,
      entitlements: { ...ALL_ENTITLEMENTS, endpoints: ['latest'], historyDays: 0 },
      onSale: true,
      createdAt: '2026-03-01T08:00:00.000Z',
      features: [],
    });
    expect(screen.getByRole('checkbox', { name: 'Latest rates' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Currency conversion endpoint' })).not.toBeChecked();
    expect(screen.getByLabelText('Name')).toHaveValue('Starter');
    expect(screen.getByLabelText('Amount (USD per year)')).toHaveValue('19.99');
    await userEvent.clear(screen.getByLabelText('Requests per month'));
    await userEvent.type(screen.getByLabelText('Requests per month'), '7500');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Starter',
      amount: 19.99,
      numberOfRequest: 7500,
      entitlements: { ...ALL_ENTITLEMENTS, endpoints: ['latest'], historyDays: 0 },
    });
  });
});
