import { render, screen } from '@testing-library/react';
import { MarketDeadline } from './MarketDeadline';

const market = {
  market: 'bank' as const,
  lastPublishedAt: '2026-03-26T08:00:00.000Z',
  deadline: '10:00',
  deadlineAt: '2026-03-27T09:00:00.000Z',
};

describe('the desk’s deadline line of a market', () => {
  it('shows a market past its deadline with nothing published today as overdue', () => {
    render(<MarketDeadline status={{ ...market, overdue: true }} timeZone="Africa/Lagos" />);
    expect(screen.getByText('Overdue')).toBeInTheDocument();
    expect(screen.getByText(/due 10:00 \(Africa\/Lagos\)/)).toBeInTheDocument();
  });

  it('shows a market published in time as on time', () => {
    render(<MarketDeadline status={{ ...market, overdue: false }} timeZone="Africa/Lagos" />);
    expect(screen.getByText('On time')).toBeInTheDocument();
    expect(screen.queryByText('Overdue')).not.toBeInTheDocument();
  });
});
