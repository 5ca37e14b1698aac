// Metering of the paid API (DESIGN §5), a plugin of the paid routes' scope: key → app → plan → quota take → answer →
// request log row, with no database round trip on the hot path. It gives the handlers reply.charge(),
// reply.conditional(), reply.settle() and reply.quotaUsed(). `request.quota` is the one thing here called a quota.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { quotaPeriod, type QuotaPeriod } from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { DatabaseHandle } from '../../db/client';
import { DomainError } from '../../errors';
import { redactText, redactUrl } from '../../logger';
import type { RequestsService } from '../requests/requests.service';
import { periodCount } from '../subscriptions/subscriptions.repository';
import { createApiClients, LOOKUP_WINDOW_MS, type ApiClient, type Resolution } from './api-clients';
import { createQuotaStore, type QuotaSubject } from './quota-store';
import { createRequestLogBuffer, type RequestLogHealth } from './request-log-buffer';

declare module 'fastify' {
  interface FastifyRequest {
    apiClient?: ApiClient;
    quota?: { subject: QuotaSubject | null; period: QuotaPeriod | null };
    /** Set once the request passed the quota and burst checks: its answer is logged as a row of its own. */
    served?: boolean;
    /** Set once the answer counted against the quota: a 5xx or a client gone before the answer gives it back. */
    charged?: boolean;
    /** Set once the request's log entry is pushed, so an abort and a response never both log it. */
    logged?: boolean;
    /** The client went away before the answer. */
    gone?: boolean;
    startedAt?: number;
  }
  interface FastifyReply {
    /** Counts the answer against the quota, or refuses with 429 (monthly limit or burst). */
    charge(): Promise<void>;
    /**
     * Sets the validators. False when the client does not hold this version; when it does, a free 304: counted
     * against the plan's burst rate (admitFree), not the month.
     */
    notModified(etag: string, lastModified?: string): false | Promise<true>;
    /** notModified, and when the client does not hold this version, counts the request (charge). */
    conditional(etag: string, lastModified?: string): Promise<boolean>;
    /** A free answer: counted against the key's plan burst rate, never the month; or refused with 429. */
    admitFree(): Promise<void>;
    /** Logs the request's outcome now (an answer cut off part-way is the 500 it is), once. */
    settle(status: number): void;
    /**
     * The count of the key's period as every API process sees it now (null for a premium account); the answer's
     * RateLimit headers say the same.
     */
    quotaUsed(): Promise<number | null>;
  }
}

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

/**
 * The private key: the Authorization header, or where the FX APIs customers switch from take it, the query's
 * app_id (Open Exchange Rates) or access_key (Fixer). Both names are redacted from every log (logger.ts).
 */
export const KEY_QUERY_PARAMETERS = ['app_id', 'access_key'] as const;
function privateKeyOf(request: FastifyRequest) {
  // Open Exchange Rates' clients send "Token <app id>"; ours and Fixer's "Bearer <key>".
  const bearer = /^(?:Bearer|Token)\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  const query = request.query as Record<string, unknown> | undefined;
  for (const name of KEY_QUERY_PARAMETERS) if (typeof query?.[name] === 'string') return query[name];
  return undefined;
}

function matchesEtag(request: FastifyRequest, etag: string) {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === etag || value === '*';
  });
}

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
  type PeriodQuota = NonNullable<FastifyRequest['quota']>;
  const periodQuotas = new WeakMap<NonNullable<ApiClient['subscription']>, PeriodQuota>();
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
  const PREMIUM = { subject: null, period: null };

  /** Admits the request of a resolved key, or the error that refuses it. */
  function admit(request: FastifyRequest, reply: FastifyReply, client: Resolution, now: Date) {
    if (client === 'too-many-lookups') {
      // The window of unknown-key look-ups is at most this long: by then this address may try again.
      void reply.header('Retry-After', Math.ceil(LOOKUP_WINDOW_MS / 1000));
      return new DomainError(429, TOO_MANY_LOOKUPS);
    }
    if (!client) return new DomainError(401, INVALID_KEY);
    request.apiClient = client;
    // Gone while its key was looked up: logged now, since no answer will follow.
    if (request.gone) settle(request, CLIENT_CLOSED, performance.now() - request.startedAt!);
    if (client.premium) {
      request.quota = PREMIUM;
      return undefined;
    }
    const subscription = client.subscription;
    if (!subscription || subscription.expireAt <= now) return new DomainError(402, NO_PLAN);
    request.quota = quotaOf(subscription, now);
    return undefined;
  }

  // Authentication and plan check run before validation, so that refusals of bad parameters are logged too. A key
  // confirmed a moment ago answers without a promise; only a look-up waits.
  app.addHook('onRequest', (request, reply, done) => {
    request.startedAt = performance.now();
    if (request.method === 'OPTIONS') return done();
    const key = privateKeyOf(request);
    const now = new Date();
    const client = key ? clients.resolve(key, now, request.ip) : null;
    if (client instanceof Promise)
      client.then((resolved) => done(admit(request, reply, resolved, now)), done);
    else done(admit(request, reply, client, now));
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
  function settle(request: FastifyRequest, status: number, elapsedMs: number) {
    const client = request.apiClient;
    if (!client || request.logged) return;
    request.logged = true;
    request.accessRecorded = true;
    if (request.gone) status = CLIENT_CLOSED;
    if (request.charged && (status >= 500 || status === CLIENT_CLOSED)) {
      request.charged = false;
      quotaStore
        .refund(request.quota!.subject!)
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
    if (request.served || status >= 500) logs.push(entry);
    else logs.pushUncounted(entry);
    answered.set(status, (answered.get(status) ?? 0) + 1);
  }

  // Hooks with a callback where nothing is awaited: an async hook costs a promise per call.
  app.addHook('onResponse', (request, reply, done) => {
    settle(request, reply.statusCode, reply.elapsedTime);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    request.gone = true;
    settle(request, CLIENT_CLOSED, performance.now() - (request.startedAt ?? performance.now()));
    done();
  });

  /** The burst rate the key's plan sets (premium accounts and plans sold before entitlements set none). */
  const planBurstOf = (client: ApiClient) =>
    client.premium ? undefined : client.subscription?.entitlements?.burstPerSecond;
  /** The per-second window that counts the key's calls: its plan's burst rate when below the shared flood guard. */
  function burstLimitOf(client: ApiClient) {
    const planBurst = planBurstOf(client);
    return planBurst !== undefined && planBurst < burstPerSecond ? planBurst : burstPerSecond;
  }

  /**
   * The IETF RateLimit header fields: RateLimit-Policy names both windows the key is counted in ("month", absent
   * for a premium account, and "burst", one second), RateLimit the state of the one that matters now.
   */
  function setPolicyHeader(request: FastifyRequest, reply: FastifyReply) {
    const client = request.apiClient;
    if (!client) return;
    const { subject, period } = request.quota ?? PREMIUM;
    const burst = `"burst";q=${burstLimitOf(client)};w=1`;
    const month =
      subject && period
        ? `"month";q=${subject.limit};w=${Math.round((period.end.getTime() - period.start.getTime()) / 1000)}`
        : undefined;
    void reply.header('RateLimit-Policy', month ? `${month}, ${burst}` : burst);
  }

  /** DESIGN §5 headers on every answer, from the last count this process saw. */
  const lastUsed = new Map<string, number>();
  function setQuotaHeaders(request: FastifyRequest, reply: FastifyReply, used?: number) {
    setPolicyHeader(request, reply);
    const { subject, period } = request.quota ?? PREMIUM;
    if (!subject || !period) return;
    const current = used ?? lastUsed.get(subject.subscriptionId) ?? subject.processedAtLoad;
    if (used !== undefined) lastUsed.set(subject.subscriptionId, used);
    const remaining = Math.max(subject.limit - current, 0);
    const reset = Math.max(Math.ceil((period.end.getTime() - Date.now()) / 1000), 0);
    void reply.header('RateLimit-Limit', subject.limit);
    void reply.header('RateLimit-Remaining', remaining);
    void reply.header('RateLimit-Reset', reset);
    void reply.header('RateLimit', `"month";r=${remaining};t=${reset}`);
  }
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('X-Content-Type-Options', 'nosniff');
    if (!reply.hasHeader('RateLimit-Policy')) setQuotaHeaders(request, reply);
    done(null, payload);
  });

  /** A burst refusal's RateLimit fields describe the per-second window that refused it, not the month. */
  function burstRefusal(request: FastifyRequest, reply: FastifyReply, client: ApiClient, limit: number) {
    setPolicyHeader(request, reply);
    void reply.header('RateLimit-Limit', limit);
    void reply.header('RateLimit-Remaining', 0);
    void reply.header('RateLimit-Reset', 1);
    void reply.header('RateLimit', `"burst";r=0;t=1`);
    void reply.header('Retry-After', 1);
    return new DomainError(
      429,
      limit === planBurstOf(client)
        ? `Too many requests at once: your ${client.subscription!.planName} plan allows ${limit} per second per key.`
        : `Too many requests at once: at most ${limit} per second per key.`,
    );
  }

  async function charge(request: FastifyRequest, reply: FastifyReply) {
    // A client gone before its answer is not charged; the answer is not sent anyway.
    if (request.gone) return;
    const client = request.apiClient!;
    // The plan's burst rate, when it is below the shared flood guard, is the key's limit, counted with the quota.
    const burstLimit = burstLimitOf(client);
    const outcome = await quotaStore.take(request.quota!.subject, client.keyHash, new Date(), burstLimit);
    setQuotaHeaders(request, reply, outcome.used);
    if (outcome.allowed) {
      request.served = true;
      // Premium accounts have no monthly count to give back.
      if (request.quota!.subject) request.charged = true;
      // The client may have gone while the count was taken: it was not served.
      if (request.gone && request.quota!.subject) {
        request.charged = false;
        await quotaStore.refund(request.quota!.subject);
      }
      return;
    }
    if (outcome.reason === 'burst') throw burstRefusal(request, reply, client, burstLimit);
    const period = request.quota!.period!;
    void reply.header('Retry-After', Math.max(Math.ceil((period.end.getTime() - Date.now()) / 1000), 1));
    throw new DomainError(429, `Monthly request limit reached. It resets on ${period.end.toISOString()}.`);
  }

  app.decorateReply('charge', function (this: FastifyReply) {
    return charge(this.request, this);
  });
  /** A free answer (a 304, the usage) counts against the plan's burst rate; only a paid answer, the month. */
  async function admitFree(request: FastifyRequest, reply: FastifyReply) {
    const client = request.apiClient!;
    const planBurst = planBurstOf(client);
    if (request.gone || planBurst === undefined) return;
    const outcome = await quotaStore.take(null, client.keyHash, new Date(), planBurst);
    if (!outcome.allowed) throw burstRefusal(request, reply, client, planBurst);
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
  const modified = () => false;
  app.decorateReply('conditional', function (this: FastifyReply, etag: string, lastModified?: string) {
    return notModified(this, etag, lastModified) || charge(this.request, this).then(modified);
  });
  app.decorateReply('settle', function (this: FastifyReply, status: number) {
    settle(this.request, status, performance.now() - this.request.startedAt!);
  });
  app.decorateReply('quotaUsed', async function (this: FastifyReply) {
    const subject = this.request.quota?.subject;
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
