import { render, screen } from '@testing-library/react';
import { makeSubscription } from '../../test/developer';
import { SubscriptionUsage } from './components/SubscriptionUsage';
import { LOG_COUNT_NOTE, QUOTA_COUNT_NOTE, TRAFFIC_COUNT_NOTE, requestLogSummary } from './request-counts';

// The same traffic as three figures (dashboard 27 today, quota 24, log 25 rows): each says what it counts.
describe('the three request counts say what they count', () => {
  it('the quota counts charged calls, and says refusals, 304s and server errors are free', () => {
    render(<SubscriptionUsage subscription={makeSubscription({ processedRequest: 24, limit: 1000 })} />);
    expect(screen.getByTestId('quota-count-note')).toHaveTextContent(QUOTA_COUNT_NOTE);
    expect(QUOTA_COUNT_NOTE).toBe(
      'Quota counts charged calls; refusals (4xx), 304 Not Modified and server errors (5xx) are free.',
    );
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '24 of 1,000 requests');
  });

  it('the dashboard counts every call answered, so it may be above the quota', () => {
    expect(TRAFFIC_COUNT_NOTE).toMatch(/refusals \(4xx\) and 304 Not Modified included/);
    expect(TRAFFIC_COUNT_NOTE).toMatch(/higher than the quota/);
  });

  it('the request log counts rows, and says free answers are folded into one row with their number', () => {
    expect(requestLogSummary(25)).toBe(': 25 rows in all, newest first.');
    expect(requestLogSummary(1)).toBe(': 1 row in all, newest first.');
    expect(requestLogSummary(12345)).toBe(': 12,345 rows in all, newest first.');
    expect(requestLogSummary(undefined)).toBe(', newest first.');
    expect(LOG_COUNT_NOTE).toMatch(
      /share a row with their number \(× n\), so there can be fewer rows than calls/,
    );
  });
});
