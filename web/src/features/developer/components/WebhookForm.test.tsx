import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WebhookForm } from './WebhookForm';

function renderForm() {
  const onSubmit = jest.fn(async () => true);
  render(<WebhookForm isSaving={false} onSubmit={onSubmit} onCancel={() => undefined} />);
  return onSubmit;
}

describe('webhook endpoint form', () => {
  it('says what is missing and sends nothing', async () => {
    const onSubmit = renderForm();
    await userEvent.click(screen.getByRole('checkbox', { name: /rate\.threshold/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Create endpoint' }));
    expect(screen.getByLabelText('Endpoint URL')).toHaveAccessibleDescription('Endpoint URL is required.');
    expect(screen.getByRole('group', { name: 'Thresholds' })).toHaveAccessibleDescription(
      'Add at least one threshold for rate.threshold.',
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('goes from field to field with Tab, ticks an event with Space and adds a threshold with Enter', async () => {
    const onSubmit = renderForm();
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByLabelText('Endpoint URL')).toHaveFocus();
    await user.keyboard('https://example.com/hooks');
    await user.tab();
    await user.tab();
    expect(screen.getByRole('checkbox', { name: /rate\.threshold/ })).toHaveFocus();
    await user.keyboard(' ');

    const thresholds = within(screen.getByRole('group', { name: 'Thresholds' }));
    await user.selectOptions(thresholds.getByLabelText('Market'), 'bank');
    await user.selectOptions(thresholds.getByLabelText('Asset'), 'dollar');
    await user.selectOptions(thresholds.getByLabelText('Base currency'), 'naira');
    await user.selectOptions(thresholds.getByLabelText('Side'), 'buy');
    await user.click(thresholds.getByLabelText('Level'));
    await user.keyboard('1500{Enter}');
    expect(thresholds.getByRole('list', { name: 'Chosen thresholds' })).toHaveTextContent(
      'USD/NGN Bank buy 1500',
    );

    await user.click(screen.getByRole('button', { name: 'Create endpoint' }));
    expect(onSubmit).toHaveBeenCalledWith({
      url: 'https://example.com/hooks',
      events: ['rate.updated', 'rate.threshold'],
      thresholds: [{ market: 'bank', base: 'naira', asset: 'dollar', side: 'buy', level: 1500 }],
    });
  });
});
