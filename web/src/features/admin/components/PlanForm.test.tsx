import type { Plan } from '@afrofx/shared';
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

  it('refuses an amount that is not dollars and cents, or is zero', async () => {
    const onSubmit = renderForm();
    await fill('Growth', '49.999', '1000');
    expect(screen.getByLabelText('Amount (USD per year)')).toHaveAccessibleDescription(
      'Amount must be a dollar amount, like 49.99.',
    );
    await userEvent.clear(screen.getByLabelText('Amount (USD per year)'));
    await userEvent.type(screen.getByLabelText('Amount (USD per year)'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Create plan' }));
    expect(screen.getByLabelText('Amount (USD per year)')).toHaveAccessibleDescription(
      'Amount must be greater than zero.',
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the plan with numeric amount and quota', async () => {
    const onSubmit = renderForm();
    await fill('  Growth ', '49.99', '100000');
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Growth', amount: 49.99, numberOfRequest: 100000 });
  });

  it('starts from the plan being edited', async () => {
    const onSubmit = renderForm({
      _id: 'p1',
      name: 'Starter',
      amount: 19.99,
      numberOfRequest: 5000,
      createdAt: '2026-03-01T08:00:00.000Z',
      features: [],
    });
    expect(screen.getByLabelText('Name')).toHaveValue('Starter');
    expect(screen.getByLabelText('Amount (USD per year)')).toHaveValue('19.99');
    await userEvent.clear(screen.getByLabelText('Requests per month'));
    await userEvent.type(screen.getByLabelText('Requests per month'), '7500');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Starter', amount: 19.99, numberOfRequest: 7500 });
  });
});
