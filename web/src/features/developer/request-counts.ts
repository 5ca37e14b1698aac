// The dashboard, the quota and the request log count the same traffic three ways; each figure says which
// way next to it, from these sentences, so the three can never be read as one count that disagrees with itself.
// Server side: every answer to a key goes to the log and the daily roll-up (request-log-buffer.ts), folded per
// status when it was free; the quota counts only answers served (public-api.routes.ts), a 5xx refunded.

/** Dashboard: the daily roll-up counts every answer, each folded one by its number. */
export const TRAFFIC_COUNT_NOTE =
  'Every call answered, refusals (4xx) and 304 Not Modified included, so these can be higher than the quota.';

/** Quota: only served answers are charged. */
export const QUOTA_COUNT_NOTE =
  'Quota counts charged calls; refusals (4xx), 304 Not Modified and server errors (5xx) are free.';

/** Request log: a row per call, but identical free answers are folded per flush (a few seconds). */
export const LOG_COUNT_NOTE =
  'One row per call, except identical free answers (refusals, 304 Not Modified): the same path, query and status within a few seconds share a row with their number (× n), so there can be fewer rows than calls.';

/**
 * The developer's own calls are made with the app's key, outside the portal, so nothing here can invalidate on
 * them: the counters ask again every few seconds while the tab is in view, and say when they last did.
 */
export const COUNTER_REFRESH_SECONDS = 3;
export const COUNTER_POLLING = {
  pollingInterval: COUNTER_REFRESH_SECONDS * 1000,
  skipPollingIfUnfocused: true,
} as const;

/** How fresh a counter is, e.g. "Updated 14:03:07, refreshed every 3 s". */
export function freshnessLine(fetchedAt: number | undefined): string | null {
  if (fetchedAt === undefined) return null;
  const time = new Date(fetchedAt).toLocaleTimeString('en-GB', { hour12: false });
  return `Updated ${time}, refreshed every ${COUNTER_REFRESH_SECONDS} s`;
}

/** The request log's heading line: how many rows it holds, in the log's own unit. */
export function requestLogSummary(rows: number | undefined): string {
  if (rows === undefined) return ', newest first.';
  return `: ${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'} in all, newest first.`;
}
