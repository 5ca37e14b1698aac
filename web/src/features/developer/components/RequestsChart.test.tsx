import { render, screen, waitForElementToBeRemoved } from '@testing-library/react';
import { dayLabel, RequestsChart } from './RequestsChart';

const month = Array.from({ length: 30 }, (_, index) => ({
  day: `2026-03-${String(index + 1).padStart(2, '0')}`,
  count: index === 29 ? 151 : 40 + index,
}));

/** The chart library loads asynchronously (and draws nothing in jsdom): let it settle before the test ends. */
const settled = () => waitForElementToBeRemoved(() => screen.queryByText('Drawing the chart'));

describe('requests chart', () => {
  it('reads the server days as written', () => {
    expect(dayLabel('2026-03-01')).toBe('Mar 1');
    expect(dayLabel('2026-12-31')).toBe('Dec 31');
  });

  it('summarises the month for screen readers, with the daily figures in a table', async () => {
    render(<RequestsChart daily={month} />);
    expect(screen.getByRole('figure')).toHaveAccessibleName(
      'Requests per day from Mar 1 to Mar 30: 1,717 in all, at most 151 on Mar 30.',
    );
    expect(screen.getByRole('table', { name: 'Requests per day (UTC)' })).toHaveTextContent('2026-03-30151');
    await settled();
  });

  it('says so when there were no requests', async () => {
    render(<RequestsChart daily={month.map((day) => ({ ...day, count: 0 }))} />);
    expect(screen.getByText('No requests in the last 30 days yet.')).toBeInTheDocument();
    await settled();
  });
});
