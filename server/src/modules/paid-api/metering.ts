// Metering of the paid API (DESIGN §5), a plugin of the paid routes' scope: key → app → plan → quota take → answer →
// request log row, with no database round trip on the hot path. It gives the handlers reply.charge(),
// reply.conditional() (and reply.conditionalThen(), its callback form), reply.settle() and reply.quotaUsed(). A call's
// state is `request.metered` (metered-call.ts); its RateLimit fields are rate-limit-headers.ts's.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { quotaPeriod } from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { DatabaseHandle } from '../../db/client';
import { DomainError } from '../../errors';
import { redactText, redactUrl } from '../../logger';
import type { RequestsService } from '../requests/requests.service';
import { periodCount } from '../subscriptions/subscriptions.repository';
import { createApiClients, LOOKUP_WINDOW_MS, type ApiClient, type Resolution } from './api-clients';
import { matchesEtag, privateKeyOf, type CallQuota, type MeteredCall } from './metered-call';
import { createRateLimitHeaders, PREMIUM } from './rate-limit-headers';
import { createQuotaStore } from './quota-store';
import { createRequestLogBuffer, type RequestLogHealth } from './request-log-buffer';

export interface MeteringOptions {
  database: DatabaseHandle;
  changes: ChangeFeed;
  requests: RequestsService;
  redisUrl: string | undefined;
  /** Prefix of the quota's Redis keys. */
  keyPrefix: string;
  burstPerSecond: number;
  requestLogFlushMs: number;
  /** Hands /v1/health the request log's state. */
  exposeRequestLog?: (health: () => RequestLogHealth) => void;
}

const INVALID_KEY =
  'Invalid or missing API key. Send your private key as: Authorization: Bearer <private key>.';
const NO_PLAN = 'This app has no active plan. Buy a plan in the developer console to use the API.';
const TOO_MANY_LOOKUPS =
  'Too many requests with unknown API keys from this address. Try again in a few seconds.';
/**
 * Served answers written to a PostgreSQL server as soon as there are this many, timer or not. Each write is a
 * commit (a WAL flush) and a few milliseconds of encoding on the API's event loop: 500 committed too often under
 * load, a second's worth (thousands) held answers too long at once.
 */
const REQUEST_LOG_BATCH = 2000;
/**
 * The embedded database's writes of the log, at most this many entries each, the event loop let run between them:
 * PGlite runs on the API's thread, and a second's entries written at once stalled every answer behind them.
 */
const EMBEDDED_LOG_SLICE = 200;
/** How often the access line with the counts per status is written (the calls themselves write none). */
const ACCESS_LINE_MS = 60_000;
/** Redacted URLs kept for reuse; past this the set starts again. */
const REDACTED_URLS_KEPT = 1000;
/** The log's status for a request whose client went away before the answer (nginx's convention). */
export const CLIENT_CLOSED = 499;

async function metering(app: FastifyInstance, options: MeteringOptions) {
  const { database, changes, burstPerSecond } = options;
  const clients = createApiClients(database.db, changes);
  const quotaStore = createQuotaStore({
    database,
    redisUrl: options.redisUrl,
    prefix: options.keyPrefix,
    burstPerSecond,
    changes,
    log: app.log,
  });
  const logs = createRequestLogBuffer(options.requests, {
    flushMs: options.requestLogFlushMs,
    batchSize: database.driver === 'pglite' ? undefined : REQUEST_LOG_BATCH,
    sliceSize: database.driver === 'pglite' ? EMBEDDED_LOG_SLICE : undefined,
    log: app.log,
    afterFlush: () => quotaStore.flush(),
  });
  options.exposeRequestLog?.(logs.health);

  // The access line of the paid API: calls per status since the last line (access-log.ts drops the per-call ones).
  let answered = new Map<number, number>();
  let countingSince = Date.now();
  function writeAccessLine() {
    if (answered.size === 0) return;
    const statuses = Object.fromEntries(answered);
    let calls = 0;
    for (const n of answered.values()) calls += n;
    app.log.info(
      { calls, statuses, seconds: Math.round((Date.now() - countingSince) / 1000) },
      'paid API calls',
    );
    answered = new Map();
    countingSince = Date.now();
  }
  const accessLines = setInterval(writeAccessLine, ACCESS_LINE_MS).unref();

  // Fastify closes the server (finishing in-flight requests) before these hooks run, so nothing answered is lost.
  app.addHook('onClose', async () => {
    clearInterval(accessLines);
    writeAccessLine();
    await logs.close();
    await quotaStore
      .flush()
      .catch((err: unknown) => app.log.error({ err }, 'quota flush failed at shutdown'));
    await quotaStore.close();
  });

  /** A subscription's quota in its current period, made once a period (a month's bounds cost two calendar sums). */
  const periodQuotas = new WeakMap<NonNullable<ApiClient['subscription']>, CallQuota>();
  function quotaOf(subscription: NonNullable<ApiClient['subscription']>, now: Date) {
    const kept = periodQuotas.get(subscription);
    if (kept && kept.period!.start <= now && now < kept.period!.end) return kept;
    const period = quotaPeriod(subscription.startsAt, subscription.expireAt, now);
    const processedAtLoad = periodCount(subscription.processed, subscription.lastIncrement, period.start);
    const made = {
      subject: { subscriptionId: subscription.id, limit: subscription.limit, processedAtLoad, period },
      period,
    };
    periodQuotas.set(subscription, made);
    return made;
  }

  /** Admits the request of a resolved key, or the error that refuses it. */
  function admit(
    request: FastifyRequest,
    reply: FastifyReply,
    call: MeteredCall,
    client: Resolution,
    now: Date,
  ) {
    if (client === 'too-many-lookups') {
      // The window of unknown-key look-ups is at most this long: by then this address may try again.
      void reply.header('Retry-After', Math.ceil(LOOKUP_WINDOW_MS / 1000));
      return new DomainError(429, TOO_MANY_LOOKUPS);
    }
    if (!client) return new DomainError(401, INVALID_KEY);
    call.client = client;
    // Gone while its key was looked up: logged now, since no answer will follow.
    if (call.gone) settle(request, call, CLIENT_CLOSED, performance.now() - call.startedAt);
    if (client.premium) {
      call.quota = PREMIUM;
      return undefined;
    }
    const subscription = client.subscription;
    if (!subscription || subscription.expireAt <= now) return new DomainError(402, NO_PLAN);
    call.quota = quotaOf(subscription, now);
    return undefined;
  }

  // Authentication and plan check run before validation, so that refusals of bad parameters are logged too. A key
  // confirmed a moment ago answers without a promise; only a look-up waits. The paid scope's one step before
  // validation calls this (paid-api.ts): metering adds no onRequest hook of its own.
  app.decorateRequest('metered', null);
  app.decorate('admitPaidCall', function admitPaidCall(request, reply, done) {
    const call: MeteredCall = {
      startedAt: performance.now(),
      served: false,
      charged: false,
      logged: false,
      gone: false,
    };
    request.metered = call;
    const key = privateKeyOf(request);
    const now = new Date();
    const client = key ? clients.resolve(key, now, request.ip) : null;
    if (client instanceof Promise)
      client.then((resolved) => done(admit(request, reply, call, resolved, now) ?? null), done);
    else done(admit(request, reply, call, client, now) ?? null);
  });

  // A key's calls repeat a handful of URLs and agents: each is redacted once.
  const redactedUrls = new Map<string, string>();
  const redactedAgents = new Map<string, string>();
  function kept(redacted: Map<string, string>, text: string, redact: (text: string) => string) {
    let kept = redacted.get(text);
    if (kept === undefined) {
      if (redacted.size >= REDACTED_URLS_KEPT) redacted.clear();
      kept = redact(text);
      redacted.set(text, kept);
    }
    return kept;
  }

  /**
   * Logs the request's outcome once, and gives back its count when it was not served after all: a 5xx, or a client
   * gone before the answer. Counted answers are a row each; uncounted ones are folded per key, path with query and status.
   */
  function settle(request: FastifyRequest, call: MeteredCall, status: number, elapsedMs: number) {
    const client = call.client;
    if (!client || call.logged) return;
    call.logged = true;
    request.accessRecorded = true;
    if (call.gone) status = CLIENT_CLOSED;
    if (call.charged && call.quota?.subject && (status >= 500 || status === CLIENT_CLOSED)) {
      call.charged = false;
      quotaStore
        .refund(call.quota.subject)
        .catch((err: unknown) => app.log.error({ err }, 'quota refund failed'));
    }
    const entry = {
      appId: client.appId,
      host: request.host,
      agent: kept(redactedAgents, request.headers['user-agent'] ?? '', redactText),
      ipAddress: request.ip,
      originalUrl: kept(redactedUrls, request.originalUrl, redactUrl),
      status,
      latencyMs: Math.round(elapsedMs * 100) / 100,
      createdAt: new Date(),
    };
    if (call.served || status >= 500) logs.push(entry);
    else logs.pushUncounted(entry);
    answered.set(status, (answered.get(status) ?? 0) + 1);
  }

  // Hooks with a callback where nothing is awaited: an async hook costs a promise per call.
  app.addHook('onResponse', (request, reply, done) => {
    if (request.metered) settle(request, request.metered, reply.statusCode, reply.elapsedTime);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    const call = request.metered;
    if (call) {
      call.gone = true;
      settle(request, call, CLIENT_CLOSED, performance.now() - call.startedAt);
    }
    done();
  });

  const { planBurstOf, burstLimitOf, setQuotaHeaders, burstRefusal, lastUsed } =
    createRateLimitHeaders(burstPerSecond);
  // The answers that were not counted (refusals, errors) say the count too.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('RateLimit-Policy')) setQuotaHeaders(request.metered, reply);
    done(null, payload);
  });

  /** The state of a call admitPaidCall admitted: every handler of the paid scope runs after it. */
  function admitted(request: FastifyRequest) {
    const call = request.metered;
    if (!call?.client || !call.quota)
      throw new Error('metering: a paid handler ran for a call it did not admit');
    return call as MeteredCall & Required<Pick<MeteredCall, 'client' | 'quota'>>;
  }

  /** Counts the answer against the quota, and calls `done` with nothing or with the refusal (a 429). */
  function chargeThen(request: FastifyRequest, reply: FastifyReply, done: (err: Error | null) => void) {
    const call = admitted(request);
    // A client gone before its answer is not charged; the answer is not sent anyway.
    if (call.gone) return done(null);
    const { client, quota } = call;
    // The plan's burst rate, when it is below the shared flood guard, is the key's limit, counted with the quota.
    const burstLimit = burstLimitOf(client);
    quotaStore.takeThen(quota.subject, client.keyHash, new Date(), burstLimit, (err, outcome) => {
      if (!outcome) return done(err instanceof Error ? err : new Error(String(err)));
      setQuotaHeaders(call, reply, outcome.used);
      if (outcome.allowed) {
        call.served = true;
        // Premium accounts have no monthly count to give back.
        if (quota.subject) call.charged = true;
        // The client may have gone while the count was taken: it was not served.
        if (call.gone && quota.subject) {
          call.charged = false;
          return void quotaStore.refund(quota.subject).then(() => done(null), done);
        }
        return done(null);
      }
      if (outcome.reason === 'burst') return done(burstRefusal(call, reply, client, burstLimit));
      const period = quota.period!;
      void reply.header('Retry-After', Math.max(Math.ceil((period.end.getTime() - Date.now()) / 1000), 1));
      done(new DomainError(429, `Monthly request limit reached. It resets on ${period.end.toISOString()}.`));
    });
  }
  const charge = (request: FastifyRequest, reply: FastifyReply) =>
    new Promise<void>((resolve, reject) =>
      chargeThen(request, reply, (err) => (err ? reject(err) : resolve())),
    );

  app.decorateReply('charge', function (this: FastifyReply) {
    return charge(this.request, this);
  });
  /** A free answer (a 304, the usage) counts against the plan's burst rate; only a paid answer, the month. */
  async function admitFree(request: FastifyRequest, reply: FastifyReply) {
    const call = admitted(request);
    const planBurst = planBurstOf(call.client);
    if (call.gone || planBurst === undefined) return;
    const outcome = await quotaStore.take(null, call.client.keyHash, new Date(), planBurst);
    if (!outcome.allowed) throw burstRefusal(call, reply, call.client, planBurst);
  }
  app.decorateReply('admitFree', function (this: FastifyReply) {
    return admitFree(this.request, this);
  });

  const held = () => true as const;
  function notModified(reply: FastifyReply, etag: string, lastModified?: string): false | Promise<true> {
    void reply.header('ETag', etag);
    if (lastModified) void reply.header('Last-Modified', lastModified);
    void reply.header('Cache-Control', 'private, max-age=0, must-revalidate');
    return matchesEtag(reply.request, etag) && admitFree(reply.request, reply).then(held);
  }
  app.decorateReply('notModified', function (this: FastifyReply, etag: string, lastModified?: string) {
    return notModified(this, etag, lastModified);
  });
  function conditionalThen(
    reply: FastifyReply,
    etag: string,
    lastModified: string | undefined,
    done: (err: Error | null, notModified?: boolean) => void,
  ) {
    const free = notModified(reply, etag, lastModified);
    if (free) free.then(() => done(null, true), done);
    else chargeThen(reply.request, reply, (err) => done(err, false));
  }
  app.decorateReply(
    'conditionalThen',
    function (
      this: FastifyReply,
      etag: string,
      lastModified: string | undefined,
      done: Parameters<typeof conditionalThen>[3],
    ) {
      conditionalThen(this, etag, lastModified, done);
    },
  );
  app.decorateReply('conditional', function (this: FastifyReply, etag: string, lastModified?: string) {
    return new Promise<boolean>((resolve, reject) =>
      conditionalThen(this, etag, lastModified, (err, held) => (err ? reject(err) : resolve(held!))),
    );
  });
  app.decorateReply('settle', function (this: FastifyReply, status: number) {
    const call = this.request.metered;
    if (call) settle(this.request, call, status, performance.now() - call.startedAt);
  });
  app.decorateReply('quotaUsed', async function (this: FastifyReply) {
    const subject = this.request.metered?.quota?.subject;
    if (!subject) return null;
    // Another process may have served the key's last calls: the shared count, not this process's last take.
    const used = await quotaStore
      .used(subject)
      .catch(() => lastUsed.get(subject.subscriptionId) ?? subject.processedAtLoad);
    lastUsed.set(subject.subscriptionId, used);
    return used;
  });
}

export const meteringPlugin = fp(metering, { name: 'metering', dependencies: ['errors'], fastify: '5.x' });
