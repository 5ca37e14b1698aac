import type { RateStatus } from '@afrofx/shared';
import { render, screen, within } from '@testing-library/react';
import { RateStatusPanel } from './RateStatusPanel';

const status: RateStatus = {
  timeZone: 'Africa/Lagos',
  markets: [
    {
      market: 'black_market_cash',
      lastPublishedAt: '2026-03-27T08:00:00.000Z',
      deadline: '10:00',
      deadlineAt: '2026-03-27T09:00:00.000Z',
      overdue: false,
    },
    {
      market: 'bank',
      lastPublishedAt: '2026-03-26T08:00:00.000Z',
      deadline: '10:00',
      deadlineAt: '2026-03-27T09:00:00.000Z',
      overdue: true,
    },
  ],
  officialSources: [
    {
      source: 'cbn',
      state: 'up',
      lastAttemptAt: '2026-03-27T10:00:00.000Z',
      lastSuccessAt: '2026-03-27T10:00:00.000Z',
      lastImported: 3,
      lastFailureAt: null,
      lastError: null,
      latestRateDate: '2026-03-27',
      attribution: 'Source: Central Bank of Nigeria',
    },
    {
      source: 'bog',
      state: 'down',
      lastAttemptAt: '2026-03-27T10:00:00.000Z',
      lastSuccessAt: null,
      lastImported: null,
      lastFailureAt: '2026-03-27T10:00:00.000Z',
      lastError: "the Bank of Ghana's page has no rates table",
      latestRateDate: null,
      attribution: 'Source: Bank of Ghana',
    },
  ],
};

describe('RateStatusPanel', () => {
  it('shows a market past its deadline and a source that is down in red, with why', () => {
    render(<RateStatusPanel status={status} isLoading={false} isError={false} onRetry={() => undefined} />);
    const markets = within(screen.getByRole('list', { name: 'Markets' })).getAllByRole('listitem');
    expect(markets[0]).toHaveTextContent('On time');
    expect(markets[1]).toHaveTextContent(/Overdue\s*Bank\s*due 10:00 \(Africa\/Lagos\)/);
    const sources = within(screen.getByRole('list', { name: 'Official sources' })).getAllByRole('listitem');
    expect(sources[0]).toHaveTextContent(/Up\s*Central Bank of Nigeria/);
    expect(sources[0]).toHaveTextContent('Source: Central Bank of Nigeria');
    expect(sources[1]).toHaveTextContent(/Down\s*Bank of Ghana/);
    expect(sources[1]).toHaveTextContent("the Bank of Ghana's page has no rates table");
  });
});
