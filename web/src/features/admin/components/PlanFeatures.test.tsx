import { ALL_ENTITLEMENTS, type Plan } from '@afrofx/shared';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PlanFeatures } from './PlanFeatures';

const plan = (features: Plan['features']): Plan => ({
  _id: 'p1',
  name: 'Growth',
  amount: 49,
  numberOfRequest: 100000,
  entitlements: ALL_ENTITLEMENTS,
  onSale: true,
  createdAt: '2026-03-01T08:00:00.000Z',
  features,
});

function renderFeatures(features: Plan['features'], onAdd = jest.fn().mockResolvedValue(true)) {
  const onRemove = jest.fn();
  render(
    <PlanFeatures
      plan={plan(features)}
      onAdd={onAdd}
      onRemove={onRemove}
      isAdding={false}
      removingId={null}
      onClose={() => undefined}
    />,
  );
  return { onAdd, onRemove };
}

describe('plan features', () => {
  it("says 'No features added.' for a plan without features", () => {
    renderFeatures([]);
    expect(screen.getByText('No features added.')).toBeInTheDocument();
  });

  it('lists the features, each with its remove button', async () => {
    const { onRemove } = renderFeatures([
      { _id: 'f1', title: 'Daily history' },
      { _id: 'f2', title: 'E-mail support' },
    ]);
    expect(screen.queryByText('No features added.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove E-mail support' }));
    expect(onRemove).toHaveBeenCalledWith({ _id: 'f2', title: 'E-mail support' });
  });

  it('requires a feature title (SPEC §5)', async () => {
    const { onAdd } = renderFeatures([]);
    await userEvent.type(screen.getByLabelText('Feature title'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Add feature' }));
    expect(screen.getByLabelText('Feature title')).toHaveAccessibleDescription('Feature title is required.');
    expect(onAdd).not.toHaveBeenCalled();
  });

  it('adds a feature and clears the field for the next one', async () => {
    const { onAdd } = renderFeatures([]);
    await userEvent.type(screen.getByLabelText('Feature title'), ' Webhooks ');
    await userEvent.click(screen.getByRole('button', { name: 'Add feature' }));
    expect(onAdd).toHaveBeenCalledWith('Webhooks');
    expect(screen.getByLabelText('Feature title')).toHaveValue('');
  });

  it('keeps the title when the server refused it', async () => {
    renderFeatures([], jest.fn().mockResolvedValue(false));
    await userEvent.type(screen.getByLabelText('Feature title'), 'Webhooks');
    await userEvent.click(screen.getByRole('button', { name: 'Add feature' }));
    expect(screen.getByLabelText('Feature title')).toHaveValue('Webhooks');
  });
});
