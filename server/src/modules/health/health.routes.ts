import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, freshness, Health, MARKET_LABELS, MARKETS, Status } from '@afrofx/shared';
import type { DatabaseHandle } from '../../db/client';
import type { JobQueue } from '../../queue/queue';
import type { Mailer } from '../../mail/mailer';
import type { RequestLogHealth } from '../paid-api/request-log-buffer';
import type { RatesService } from '../rates/rates.service';

/** A status check that has not answered by then counts as failed, so a stalled server cannot hold the page. */
const STATUS_CHECK_TIMEOUT_MS = 2000;
/** The public status page is answered from one run of the checks for this long, so it cannot be used to flood SMTP. */
const STATUS_REUSE_MS = 5000;

async function check(driver: string, probe: () => Promise<void>, timeoutMs?: number) {
  let timer: NodeJS.Timeout | undefined;
  try {
    const bounded =
      timeoutMs === undefined
        ? probe()
        : Promise.race([
            probe(),
            new Promise<never>((_resolve, reject) => {
              timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
            }),
          ]);
    await bounded;
    return { ok: true, driver };
  } catch (err) {
    return { ok: false, driver, detail: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/** Probes that other modules register for /v1/health. */
export interface HealthProbes {
  requestLog?: () => RequestLogHealth;
}

/** What app.ts hands these routes. */
export interface HealthRoutesOptions {
  services: { rates: RatesService };
  runtime: {
    config: { requestLogUnhealthyAfterMs: number; staleAfterHours: number; smtpUrl: string | undefined };
    database: Pick<DatabaseHandle, 'driver' | 'ping'>;
    queue: Pick<JobQueue, 'driver' | 'ping'>;
    mailer: Pick<Mailer, 'ping'>;
  };
  health: HealthProbes;
}

export const healthRoutes: FastifyPluginAsyncTypebox<HealthRoutesOptions> = async (
  app,
  { runtime, health, services },
) => {
  function requestLogState() {
    const log = health.requestLog?.();
    return (
      log && {
        ...log,
        ok:
          !log.failingSince ||
          Date.now() - Date.parse(log.failingSince) < runtime.config.requestLogUnhealthyAfterMs,
      }
    );
  }

  app.get(
    '/health',
    {
      schema: {
        tags: ['Status'],
        summary: 'Database and queue status',
        response: { 200: Envelope(Health), 503: Envelope(Health) },
      },
    },
    async (_request, reply) => {
      const [database, queue] = await Promise.all([
        check(runtime.database.driver, runtime.database.ping),
        check(runtime.queue.driver, runtime.queue.ping),
      ]);
      const requestLog = requestLogState();
      const healthy = database.ok && queue.ok && (requestLog?.ok ?? true);
      return reply.status(healthy ? 200 : 503).send({
        data: { status: healthy ? 'ok' : 'degraded', database, queue, requestLog },
        message: healthy ? 'All systems go.' : 'Degraded.',
      });
    },
  );

  const staleAfterMs = runtime.config.staleAfterHours * 3_600_000;
  /** Each market's newest update, as last read: kept while the database cannot be read. */
  let marketUpdates = new Map<string, string>();
  async function readMarketUpdates() {
    const latest = await services.rates.latestForAllMarkets();
    const updates = new Map<string, string>();
    for (const rate of latest) {
      const known = updates.get(rate.market);
      if (!known || rate.updatedAt > known) updates.set(rate.market, rate.updatedAt);
    }
    marketUpdates = updates;
  }

  async function runStatus(): Promise<Status> {
    const mailDriver = runtime.config.smtpUrl ? 'smtp' : 'outbox';
    const [database, queue, mail] = await Promise.all([
      check(
        runtime.database.driver,
        async () => {
          await runtime.database.ping();
          await readMarketUpdates();
        },
        STATUS_CHECK_TIMEOUT_MS,
      ),
      check(runtime.queue.driver, runtime.queue.ping, STATUS_CHECK_TIMEOUT_MS),
      check(mailDriver, () => runtime.mailer.ping(), STATUS_CHECK_TIMEOUT_MS),
    ]);
    const requestLog = requestLogState();
    const api = {
      ok: requestLog?.ok ?? true,
      driver: 'fastify',
      ...(requestLog &&
        !requestLog.ok && { detail: `request-log writes failing since ${requestLog.failingSince}` }),
    };
    const now = Date.now();
    return {
      status: api.ok && database.ok && queue.ok && mail.ok ? 'ok' : 'degraded',
      checkedAt: new Date(now).toISOString(),
      markets: MARKETS.map((market) => {
        const updatedAt = marketUpdates.get(market) ?? null;
        const age = updatedAt ? freshness(Date.parse(updatedAt), now, staleAfterMs) : null;
        return {
          market,
          label: MARKET_LABELS[market],
          updatedAt,
          ageSeconds: age?.ageSeconds ?? null,
          stale: age?.stale ?? true,
        };
      }),
      services: { api, database, queue, mail },
    };
  }

  let lastStatus: { at: number; status: Status } | undefined;
  let running: Promise<Status> | undefined;
  app.get(
    '/status',
    {
      schema: {
        tags: ['Status'],
        summary: 'Service status and market freshness',
        description: `No key needed. Each market's last update (the newest updatedAt among its latest rates), its age in seconds and whether it is older than STALE_AFTER_HOURS (${runtime.config.staleAfterHours} h here); and the health of the API (its request-log writes), the database, the job queue and mail (SMTP login, or the outbox folder being writable). Each check has ${STATUS_CHECK_TIMEOUT_MS / 1000} s to answer or counts as failed; one run of the checks answers every caller for ${STATUS_REUSE_MS / 1000} s. Always 200: read status (ok or degraded).`,
        response: { 200: Envelope(Status) },
      },
    },
    async () => {
      if (!lastStatus || Date.now() - lastStatus.at >= STATUS_REUSE_MS) {
        running ??= runStatus().finally(() => (running = undefined));
        const status = await running;
        if (!lastStatus || Date.parse(status.checkedAt) > lastStatus.at)
          lastStatus = { at: Date.parse(status.checkedAt), status };
      }
      const { status } = lastStatus;
      return { data: status, message: status.status === 'ok' ? 'All systems go.' : 'Degraded.' };
    },
  );
};
