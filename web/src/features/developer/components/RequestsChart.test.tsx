import { render, screen } from '@testing-library/react';
import { axisMax, dayLabel, RequestsChart } from './RequestsChart';

const month = Array.from({ length: 30 }, (_, index) => ({
  day: `2026-03-${String(index + 1).padStart(2, '0')}`,
  count: index === 29 ? 151 : 40 + index,
}));

describe('requests chart', () => {
  it('rounds the axis up to four even steps', () => {
    expect(axisMax(151)).toBe(200);
    expect(axisMax(3042)).toBe(4000);
    expect(axisMax(7)).toBe(8);
    expect(axisMax(0)).toBe(4);
  });

  it('reads the server days as written', () => {
    expect(dayLabel('2026-03-01')).toBe('Mar 1');
    expect(dayLabel('2026-12-31')).toBe('Dec 31');
  });

  it('draws one bar per day, summarised for screen readers with the daily figures', () => {
    const { container } = render(<RequestsChart daily={month} />);
    expect(screen.getByRole('img')).toHaveAccessibleName(
      'Requests per day from Mar 1 to Mar 30: 1,717 in all, at most 151 on Mar 30.',
    );
    expect(container.querySelectorAll('rect.fill-brand-600')).toHaveLength(29);
    expect(container.querySelectorAll('rect.fill-gold-400')).toHaveLength(1);
    expect(screen.getByRole('table', { name: 'Requests per day (UTC)' })).toHaveTextContent('2026-03-30151');
  });

  it('says so when there were no requests', () => {
    render(<RequestsChart daily={month.map((day) => ({ ...day, count: 0 }))} />);
    expect(screen.getByText('No requests in the last 30 days yet.')).toBeInTheDocument();
  });
});
