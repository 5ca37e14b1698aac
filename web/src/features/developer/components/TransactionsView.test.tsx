import type { Transaction } from '@afrofx/shared';
import { render, screen } from '@testing-library/react';
import { TransactionsView } from './TransactionsView';

const paged = { isLoading: false, isError: false, hasMore: false, isLoadingMore: false };
const noop = () => undefined;

const transaction: Transaction = {
  _id: 't1',
  currency: 'NGN',
  amount: 73794,
  plan: null,
  app: { _id: 'app-1', name: 'Remit' },
  user: { first_name: 'Ada', last_name: 'Okafor', email: 'ada@example.com' },
  transactionRefrence: 'afx_ABCDEFGHIJKLMNOPQRSTUVWX',
  transactionStatus: 'successful',
  confirmedStatus: true,
  isUpcoming: false,
  createdAt: '2026-03-10T12:00:00.000Z',
};

describe('Transactions tab', () => {
  it("says 'Transaction is empty.' for an app without payments", () => {
    render(<TransactionsView rows={[]} {...paged} onLoadMore={noop} onRetry={noop} />);
    expect(screen.getByText('Transaction is empty.')).toBeInTheDocument();
  });

  it("lists a payment, with 'Plan was removed' when its plan is gone", () => {
    render(<TransactionsView rows={[transaction]} {...paged} onLoadMore={noop} onRetry={noop} />);
    expect(screen.getByRole('cell', { name: 'afx_ABCDEFGHIJKLMNOPQRSTUVWX' })).toBeInTheDocument();
    expect(screen.getByText('Plan was removed')).toBeInTheDocument();
    expect(screen.getByRole('table')).toHaveTextContent('₦73,794.00 NGN');
  });
});
