// Publishing rates: the rows an admin sends together are checked against the last published figures and the
// official reference, then stored as one publication (one transaction, one timestamp, one change event).
import { desc, eq, lt, sql } from 'drizzle-orm';
import { describeQuote } from '@afrofx/shared';
import type {
  AdminSettings,
  Publication,
  PublicationInput,
  PublicationResult,
  PublicationRowInput,
  PublicationRowIssue,
  PublishSource,
  Rate,
} from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { Database } from '../../db/client';
import type { Enqueue } from '../../queue/enqueue';
import { accounts, publicationAlertsOutbox, ratePublications, rates, servedRates } from '../../db/schema';
import { DomainError } from '../../errors';
import { latestOfficialRates } from '../official-rates/official-rates.repo';
import type { WebhooksService } from '../webhooks/webhooks.service';
import { recordActivity } from '../activity/activity.service';
import { madeBeforeDayOf, toRate } from './rates.service';

/** A refused publication: the 400 names every row at fault, and nothing is stored. */
export class PublicationRefusedError extends DomainError {
  constructor(readonly issues: PublicationRowIssue[]) {
    super(
      400,
      issues.length === 1
        ? `Row ${issues[0]!.row + 1}: ${issues[0]!.message} Nothing was published.`
        : `The publication was refused: ${issues.length} row issues (rows ${[...new Set(issues.map((i) => i.row + 1))].join(', ')}). Nothing was published.`,
    );
  }
}

export interface PublishOptions {
  adminId: string;
  source: PublishSource;
  /** The Add Rates modal publishes one figure without the desk's move and official checks. */
  skipMoveChecks?: boolean;
}

export interface PublicationDeps {
  db: Database;
  changes: ChangeFeed;
  webhooks: Pick<WebhooksService, 'recordRateEvents' | 'recordCorrectionEvents' | 'dispatch'>;
  settings: { get(): Promise<AdminSettings> };
  /** Alerts and the bot's daily message are evaluated once per publication, in a job. */
  enqueue: Enqueue;
}

const pairKey = (r: { market: string; base: string; asset: string }) => `${r.market}/${r.base}/${r.asset}`;
const roundsToZero = (value: number) => Math.round(value * 1_000_000) === 0;
const percentFrom = (value: number, reference: number) => (Math.abs(value - reference) / reference) * 100;
const fmt = (n: number) => Number(n.toFixed(4)).toString();

/** Each pair's latest served record (its newest revision), as the desk shows it and the checks compare with. */
export function latestPublished(db: Database) {
  return db
    .selectDistinctOn([servedRates.market, servedRates.base, servedRates.asset])
    .from(servedRates)
    .orderBy(
      servedRates.market,
      servedRates.base,
      servedRates.asset,
      desc(servedRates.createdAt),
      desc(servedRates.id),
    );
}

/** Every issue of every row; a confirmed row's flags (move, official distance) are cleared. */
export async function checkRows(
  deps: PublicationDeps,
  rows: PublicationRowInput[],
  skipMoveChecks = false,
): Promise<PublicationRowIssue[]> {
  const [settings, last, official] = await Promise.all([
    deps.settings.get(),
    latestPublished(deps.db),
    latestOfficialRates(deps.db),
  ]);
  const lastOf = new Map(last.map((r) => [pairKey(r), r]));
  const officialOf = new Map(official.map((r) => [`${r.base}/${r.asset}`, r]));
  const seen = new Set<string>();
  const issues: PublicationRowIssue[] = [];
  rows.forEach((row, index) => {
    const add = (issue: Omit<PublicationRowIssue, 'row'>) => {
      if (issue.needsConfirmation && row.confirmed) return;
      issues.push({ row: index, ...issue });
    };
    const key = pairKey(row);
    if (seen.has(key))
      add({
        field: 'row',
        code: 'duplicate',
        message: `${key} appears twice in this publication.`,
        needsConfirmation: false,
      });
    seen.add(key);
    for (const side of ['buy', 'sell'] as const) {
      if (roundsToZero(row[side]))
        add({
          field: side,
          code: 'rounds_to_zero',
          message: `The ${side} rounds to zero at 6 decimal places.`,
          needsConfirmation: false,
        });
    }
    if (row.buy > row.sell && !row.buy_above_sell)
      add({
        field: 'buy',
        code: 'buy_above_sell',
        message: 'The buy is above the sell.',
        needsConfirmation: false,
      });
    if (skipMoveChecks) return;
    const previous = lastOf.get(key);
    if (previous) {
      for (const side of ['buy', 'sell'] as const) {
        const move = percentFrom(row[side], previous[side]);
        if (move > settings.deskMovePercent)
          add({
            field: side,
            code: 'move',
            message: `The ${side} moves ${fmt(move)}% from the last ${fmt(previous[side])} (more than ${settings.deskMovePercent}%). Confirm the row if it is right.`,
            needsConfirmation: true,
          });
      }
    }
    const reference = officialOf.get(`${row.base}/${row.asset}`);
    if (reference) {
      const distance = percentFrom((row.buy + row.sell) / 2, reference.mid);
      if (distance > settings.deskOfficialDistancePercent)
        add({
          field: 'row',
          code: 'official_distance',
          message: `The mid is ${fmt(distance)}% from the official ${fmt(reference.mid)} (more than ${settings.deskOfficialDistancePercent}%). Confirm the row if it is right.`,
          needsConfirmation: true,
        });
    }
  });
  return issues;
}

/**
 * The one reaction to a stored publication: the change event (snapshot, caches, pair pages) and the webhook fan-out.
 * Whatever else reacts to a publication is called from here, once per publication.
 */
export async function afterPublication(
  deps: Pick<PublicationDeps, 'db' | 'changes' | 'webhooks' | 'enqueue'>,
  publication: Publication,
  stored: Rate[],
  deliveries: Array<{ endpointId: string }>,
): Promise<void> {
  await deps.changes.publish({ kind: 'rates' });
  await deps.webhooks.dispatch(deliveries);
  // The rates are stored whatever the queue does: a queue that is away leaves the publication in the alerts outbox,
  // and the minute's sweep queues its alerts then.
  await queueAlerts(deps, publication._id, publication.publishedAt, stored).catch(() => {});
}

/** Queues a publication's alerts job (once per publication, by its id) and takes it out of the outbox. */
async function queueAlerts(
  deps: Pick<PublicationDeps, 'db' | 'enqueue'>,
  publicationId: string,
  publishedAt: string,
  stored: Array<Pick<Rate, 'market' | 'base' | 'asset' | 'buy' | 'sell'>>,
): Promise<void> {
  const published = stored.map(({ market, base, asset, buy, sell }) => ({ market, base, asset, buy, sell }));
  await deps.enqueue('rate-alerts', { publishedAt, rates: published }, { jobId: publicationId });
  await deps.db
    .delete(publicationAlertsOutbox)
    .where(eq(publicationAlertsOutbox.publicationId, publicationId));
}

/** How long a publication's own answer has to queue its alerts before the sweep does it instead. */
export const ALERTS_OUTBOX_GRACE_MS = 30_000;

/**
 * The sweep of the alerts outbox: queues the alerts of every publication whose own attempt did not (a queue that was
 * away, a process that stopped between the commit and the queue). Returns how many it queued.
 */
export async function sweepAlertsOutbox(
  deps: Pick<PublicationDeps, 'db' | 'enqueue'>,
  now = new Date(),
): Promise<number> {
  const waiting = await deps.db
    .select({ id: ratePublications.id, publishedAt: ratePublications.publishedAt })
    .from(publicationAlertsOutbox)
    .innerJoin(ratePublications, eq(ratePublications.id, publicationAlertsOutbox.publicationId))
    .where(lt(publicationAlertsOutbox.createdAt, new Date(now.getTime() - ALERTS_OUTBOX_GRACE_MS)))
    .orderBy(ratePublications.publishedAt)
    .limit(100);
  for (const publication of waiting) {
    const rows = await deps.db.select().from(rates).where(eq(rates.publicationId, publication.id));
    const stored = rows.map((row) => toRate({ ...row, revision: 0 }));
    await queueAlerts(deps, publication.id, publication.publishedAt.toISOString(), stored);
  }
  return waiting.length;
}

type RowValues = Omit<PublicationRowInput, 'confirmed' | 'buy_above_sell'>;

/** A dry run's answer: the rows as they would be stored now, without an id or a publication yet. */
function previewOf(values: RowValues[], source: PublishSource): Rate[] {
  const now = new Date().toISOString();
  return values.map((row) => ({
    _id: '',
    ...row,
    createdAt: now,
    updatedAt: now,
    source,
    publishedAt: now,
    publicationId: null,
    revision: 0,
  }));
}

/**
 * A rate as /v1/rates answers it, as deliveries carry it: mid, spread and change against the previous close of the
 * day it was made on.
 */
export async function quoteOf(tx: Pick<Database, 'select'>, rate: Rate, madeAt: Date) {
  const [previousClose] = await tx
    .select({ buy: servedRates.buy, sell: servedRates.sell })
    .from(servedRates)
    .where(madeBeforeDayOf(servedRates, { ...rate, createdAt: sql`${madeAt.toISOString()}::timestamptz` }))
    .orderBy(desc(servedRates.createdAt), desc(servedRates.id))
    .limit(1);
  return describeQuote(rate, previousClose ?? null);
}

/** Checks, then stores every row in one transaction with one timestamp, or refuses them all. */
export async function publish(
  deps: PublicationDeps,
  input: PublicationInput,
  options: PublishOptions,
): Promise<PublicationResult> {
  const issues = await checkRows(deps, input.rows, options.skipMoveChecks);
  const values = input.rows.map(({ confirmed: _c, buy_above_sell: _b, ...row }) => row);
  if (input.dryRun) {
    return { dryRun: true, publication: null, rates: previewOf(values, options.source), issues };
  }
  if (issues.length > 0) throw new PublicationRefusedError(issues);

  const { publication, stored, deliveries } = await deps.db.transaction(async (tx) => {
    const publishedAt = new Date();
    const [row] = await tx
      .insert(ratePublications)
      .values({
        source: options.source,
        publishedBy: options.adminId,
        rowCount: values.length,
        publishedAt,
      })
      .returning();
    const inserted = await tx
      .insert(rates)
      .values(
        values.map((value) => ({
          ...value,
          createdAt: publishedAt,
          updatedAt: publishedAt,
          publicationId: row!.id,
          source: options.source,
          publishedBy: options.adminId,
        })),
      )
      .returning();
    const stored = inserted.map((r) => toRate({ ...r, revision: 0 }));
    const quotes = [];
    for (const rate of stored) quotes.push(await quoteOf(tx, rate, publishedAt));
    const deliveries = await deps.webhooks.recordRateEvents(tx, quotes, {
      id: row!.id,
      publishedAt: publishedAt.toISOString(),
    });
    await tx.insert(publicationAlertsOutbox).values({ publicationId: row!.id });
    await recordActivity(tx, {
      adminId: options.adminId,
      kind: 'publications',
      action: 'publish',
      target: row!.id,
      after: { source: options.source, rows: values },
    });
    const [admin] = await tx
      .select({ email: accounts.email })
      .from(accounts)
      .where(eq(accounts.id, options.adminId));
    const publication: Publication = {
      _id: row!.id,
      source: row!.source,
      publishedAt: publishedAt.toISOString(),
      publishedBy: admin?.email ?? null,
      rowCount: values.length,
    };
    return { publication, stored, deliveries };
  });
  await afterPublication(deps, publication, stored, deliveries);
  return { dryRun: false, publication, rates: stored, issues: [] };
}

/** A correction or withdrawal changes what reads serve: the same change event, and its rate.corrected deliveries. */
export async function afterCorrection(
  deps: Pick<PublicationDeps, 'changes' | 'webhooks'>,
  deliveries: Array<{ endpointId: string }>,
): Promise<void> {
  await deps.changes.publish({ kind: 'rates' });
  await deps.webhooks.dispatch(deliveries);
}
