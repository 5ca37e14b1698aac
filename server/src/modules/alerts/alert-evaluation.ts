// Evaluation of rate alerts, once per publication, as one statement: the live alerts of the pairs the publication
// changed are read through rate_alerts_live_pair_idx, decided, updated and their firings recorded in one pass, so
// 10,000 alerts cost one round trip, not one per alert.
//
// The rule, per alert, with `figure` the publication's buy or sell as the alert names:
// - above: an armed alert fires when the figure is above its threshold and is disarmed; a disarmed one re-arms
//   once the figure is below the threshold by the re-arm margin. Once per crossing: a figure hovering at the line
//   does not send a message every publication.
// - below: the same, mirrored.
// - move: fires when the figure moved more than its percentage from the last publication evaluated.
// An older publication evaluated after a newer one (a retry, a slow job) leaves the alerts the newer one changed as
// it set them.
import { sql } from 'drizzle-orm';
import { ALERT_REARM_MARGIN } from '@afrofx/shared';
import type { Database } from '../../db/client';
import type { PublishedRate } from '../../queue/job-types';

export interface Firing {
  id: string;
  email: string | null;
  chatId: number | null;
}

/** A PostgreSQL array literal: one parameter for each column of the publication. */
const arrayOf = (values: Array<string | number>) => `{${values.join(',')}}`;

export async function evaluateAlerts(
  db: Database,
  { publishedAt, rates }: { publishedAt: Date; rates: PublishedRate[] },
): Promise<Firing[]> {
  if (rates.length === 0) return [];
  const at = publishedAt.toISOString();
  const result = (await db.execute(sql`
    WITH publication AS (
      SELECT * FROM unnest(
        ${arrayOf(rates.map((r) => r.market))}::market[],
        ${arrayOf(rates.map((r) => r.base))}::base[],
        ${arrayOf(rates.map((r) => r.asset))}::asset[],
        ${arrayOf(rates.map((r) => r.buy))}::numeric[],
        ${arrayOf(rates.map((r) => r.sell))}::numeric[]
      ) AS p(market, base, asset, buy, sell)
    ),
    live AS (
      SELECT a.id, a.email, a.chat_id, a.condition, a.level, a.armed, a.last_figure,
             CASE a.side WHEN 'buy' THEN p.buy ELSE p.sell END AS figure
      FROM publication p
      JOIN rate_alerts a ON a.market = p.market AND a.base = p.base AND a.asset = p.asset
      WHERE a.confirmed_at IS NOT NULL AND NOT a.paused
        AND (a.last_published_at IS NULL OR a.last_published_at < ${at}::timestamptz)
      -- Alerts a concurrent evaluation is changing wait for it, so a crossing is decided once.
      FOR UPDATE OF a
    ),
    decided AS (
      SELECT live.*,
        CASE condition
          WHEN 'above' THEN armed AND figure > level
          WHEN 'below' THEN armed AND figure < level
          ELSE coalesce(last_figure > 0 AND abs(figure - last_figure) / last_figure * 100 > level, false)
        END AS fires,
        CASE condition
          WHEN 'above' THEN CASE WHEN armed THEN figure <= level ELSE figure < level * (1 - ${ALERT_REARM_MARGIN}::numeric) END
          WHEN 'below' THEN CASE WHEN armed THEN figure >= level ELSE figure > level * (1 + ${ALERT_REARM_MARGIN}::numeric) END
          ELSE true
        END AS armed_after
      FROM live
    ),
    -- Only the alerts whose state changes are written (a crossing, a re-arm, a move's new figure): a publication
    -- rewrites a few rows, not every alert of its pairs.
    updated AS (
      UPDATE rate_alerts a
      SET armed = d.armed_after, last_figure = d.figure, last_published_at = ${at}::timestamptz
      FROM decided d
      WHERE a.id = d.id AND (d.armed_after <> d.armed OR d.condition = 'move')
    ),
    -- A publication fires an alert once: evaluating it again adds no firing.
    fired AS (
      INSERT INTO rate_alert_firings (alert_id, published_at, figure, previous_figure)
      SELECT id, ${at}::timestamptz, figure, last_figure FROM decided WHERE fires
      ON CONFLICT DO NOTHING
      RETURNING id, alert_id
    )
    SELECT fired.id, d.email, d.chat_id FROM fired JOIN decided d ON d.id = fired.alert_id`)) as unknown as {
    rows: Array<{ id: string; email: string | null; chat_id: string | number | null }>;
  };
  return result.rows.map((row) => ({
    id: row.id,
    email: row.email,
    chatId: row.chat_id === null ? null : Number(row.chat_id),
  }));
}
