import { render, screen } from '@testing-library/react';
import { SubscriptionStatusPill } from './SubscriptionStatusPill';
import { TransactionAmount, TransactionPlan, TransactionStatus } from './TransactionCells';

describe('transaction and subscription cells', () => {
  it("says 'Plan was removed' when a transaction's plan is gone (SPEC §8)", () => {
    render(<TransactionPlan plan={null} />);
    expect(screen.getByText('Plan was removed')).toBeInTheDocument();
  });

  it('names the plan while it exists', () => {
    render(<TransactionPlan plan={{ _id: 'p1', name: 'Growth' }} />);
    expect(screen.getByText('Growth')).toBeInTheDocument();
  });

  it('shows the amount in its currency, to 2 decimals', () => {
    const { container } = render(
      <>
        <TransactionAmount transaction={{ amount: 37148, currency: 'NGN' }} />
        <TransactionAmount transaction={{ amount: 50.2, currency: 'USD' }} />
      </>,
    );
    expect(container).toHaveTextContent('₦37,148.00 NGN');
    expect(container).toHaveTextContent('$50.20 USD');
  });

  it("says 'No status' when a payment or a subscription has none", () => {
    render(
      <>
        <TransactionStatus status="" />
        <SubscriptionStatusPill status={null} />
      </>,
    );
    expect(screen.getAllByText('No status')).toHaveLength(2);
  });

  it.each([
    ['active', 'Active', 'bg-brand-50'],
    ['expired', 'Expired', 'bg-red-50'],
    ['exhausted', 'Exhausted', 'bg-red-900'],
    ['upcoming', 'Upcoming', 'bg-sky-50'],
  ] as const)('colours a %s subscription by its status (SPEC §4)', (status, label, colour) => {
    render(<SubscriptionStatusPill status={status} />);
    expect(screen.getByText(label)).toHaveClass(colour);
  });
});
