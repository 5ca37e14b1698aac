// Limits on the console's sign-in style calls, per client and per client and address, and the per-address mail
// throttle (DESIGN §7). Counts live in Redis when it is configured, so every API process shares them; each process
// also keeps its own count, which answers alone while Redis does not (down, or slower than REDIS_TIMEOUT_MS): the
// limits fall back to per-process ones instead of none, and no request waits on a dead Redis.
import fastifyRateLimit, { normalizeIP, type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import IORedis from 'ioredis';
import { LRUCache } from 'lru-cache';
import { DomainError, secondsInWords } from '../errors';
import { MAIL_KINDS, MAIL_RESEND_WINDOW_MS, type Limit, type MailKind } from '../limits';
import { mailboxOf } from '../mailbox';

/** Past this a Redis answer is not waited for: the process's own count decides. */
const REDIS_TIMEOUT_MS = 500;
/** After a Redis failure, counts stay local this long before Redis is tried again. */
const REDIS_RETRY_AFTER_MS = 5_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** A preHandler answering 429 once any of the limits is reached for this request. */
    limit(limits: Limit[]): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** True for the first mail of its kind to the request's e-mail address in MAIL_RESEND_WINDOW_MS, false after. */
    firstMailInWindow(request: FastifyRequest, kind: MailKind): Promise<boolean>;
  }
}

interface Count {
  current: number;
  ttl: number;
}

type Counted = Extract<
  Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>,
  { isAllowed: false }
>;

/** Counts in Redis and in this process; the larger count answers, and this process's alone when Redis fails. */
function sharedCounter(redis: IORedis | undefined, nameSpace: string, onRedisError: (err: unknown) => void) {
  const local = new LRUCache<string, { current: number; resetAt: number }>({ max: 50_000 });
  let redisDownUntil = 0;

  const countLocally = (key: string, timeWindow: number): Count => {
    const now = Date.now();
    const entry = local.get(key);
    if (!entry || entry.resetAt <= now) {
      local.set(key, { current: 1, resetAt: now + timeWindow });
      return { current: 1, ttl: timeWindow };
    }
    entry.current += 1;
    return { current: entry.current, ttl: entry.resetAt - now };
  };

  const countInRedis = async (key: string, timeWindow: number): Promise<Count | undefined> => {
    if (!redis || Date.now() < redisDownUntil) return undefined;
    try {
      const [current, ttl] = (await redis.eval(
        // INCR, and start the window on the first hit (PTTL is -1 only for a key without an expiry).
        "local n = redis.call('INCR', KEYS[1]) local t = redis.call('PTTL', KEYS[1]) if t < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) t = tonumber(ARGV[1]) end return {n, t}",
        1,
        nameSpace + key,
        timeWindow,
      )) as [number, number];
      return { current, ttl };
    } catch (err) {
      redisDownUntil = Date.now() + REDIS_RETRY_AFTER_MS;
      onRedisError(err);
      return undefined;
    }
  };

  return async (key: string, timeWindow: number): Promise<Count> => {
    const own = countLocally(key, timeWindow);
    const shared = await countInRedis(key, timeWindow);
    return shared && shared.current >= own.current ? shared : own;
  };
}

interface LimitSettings {
  signupsPerMinute: number;
}

type RateCheck = ReturnType<FastifyInstance['createRateLimit']>;

const client = (request: FastifyRequest) => normalizeIP(request.ip);
const address = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? mailboxOf(email) : '';
};
// With its app: a caller naming another app's endpoint under its own app spends no count of that endpoint's owner.
const endpointOf = (request: FastifyRequest) => {
  const { appId, endpointId } = request.params as { appId?: string; endpointId?: string };
  return `${appId ?? ''}:${endpointId ?? ''}`;
};

/** The counter a request adds to under a limit. */
function keyOf(limit: Limit, request: FastifyRequest): string {
  switch (limit.per) {
    case 'client':
      return `${limit.name}:${client(request)}`;
    case 'endpoint':
      return `${limit.name}:${endpointOf(request)}`;
    case 'mailbox':
      return `${limit.name}:${address(request)}`;
    case 'everyone':
      return limit.name;
    case 'app':
      return `${limit.name}:${(request.params as { appId?: string }).appId ?? ''}`;
    case 'client-and-address':
      return `${limit.name}:${client(request)}:${address(request)}`;
  }
}

const maxOf = (limit: Limit, settings: LimitSettings) =>
  limit.maxFrom ? settings[limit.maxFrom] : limit.max;

/**
 * The preHandler of a call's limits: the IETF RateLimit header fields name each limit as a window
 * ("name";q=max;w=seconds) and show the tightest, and a limit reached answers 429.
 */
function limitHandler(limits: Limit[], checks: RateCheck[], settings: LimitSettings) {
  const policy = limits
    .map((limit) => `"${limit.name}";q=${maxOf(limit, settings)};w=${Math.round(limit.timeWindowMs / 1000)}`)
    .join(', ');
  return async (request: FastifyRequest, reply: FastifyReply) => {
    let tightest: Counted | undefined;
    let exceeded: Counted | undefined;
    const results = await Promise.all(checks.map((check) => check(request)));
    for (const result of results) {
      if (result.isAllowed) continue;
      if (!tightest || result.remaining < tightest.remaining) tightest = result;
      if (result.isExceeded && (!exceeded || result.ttl > exceeded.ttl)) exceeded = result;
    }
    const shown = exceeded ?? tightest;
    if (!shown) return;
    const shownName = limits[results.indexOf(shown)]!.name;
    const earlier = reply.getHeader('ratelimit-policy');
    void reply.header('ratelimit-policy', earlier ? `${String(earlier)}, ${policy}` : policy);
    void reply.header('ratelimit', `"${shownName}";r=${shown.remaining};t=${shown.ttlInSeconds}`);
    for (const prefix of ['x-ratelimit', 'ratelimit']) {
      void reply.header(`${prefix}-limit`, shown.max);
      void reply.header(`${prefix}-remaining`, shown.remaining);
      void reply.header(`${prefix}-reset`, shown.ttlInSeconds);
    }
    if (!exceeded) return;
    void reply.header('retry-after', exceeded.ttlInSeconds);
    throw new DomainError(429, `Too many attempts. Try again in ${secondsInWords(exceeded.ttlInSeconds)}.`);
  };
}

export const limitsPlugin = fp<{ redisUrl: string | undefined; keyPrefix: string; signupsPerMinute: number }>(
  async (app: FastifyInstance, { redisUrl, keyPrefix, ...settings }) => {
    // DESIGN §7: fail fast instead of queueing commands while Redis is away.
    const redis = redisUrl
      ? new IORedis(redisUrl, {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          commandTimeout: REDIS_TIMEOUT_MS,
          connectTimeout: 1_000,
        })
      : undefined;
    redis?.on('error', () => {
      // Reported once per failed count below; ioredis reconnects by itself.
    });
    if (redis) app.addHook('onClose', async () => redis.disconnect());

    const count = sharedCounter(redis, `${keyPrefix}:rate-limit:`, (err) =>
      app.log.warn({ err }, 'rate-limit redis unavailable: counting in this process'),
    );
    class SharedStore implements FastifyRateLimitStore {
      incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number) {
        count(key, timeWindow).then((result) => callback(null, result), callback);
      }
      child() {
        return this;
      }
    }
    await app.register(fastifyRateLimit, { global: false, store: SharedStore });

    app.decorate('limit', (limits: Limit[]) => {
      const checks = limits.map((limit) =>
        app.createRateLimit({
          max: maxOf(limit, settings),
          timeWindow: limit.timeWindowMs,
          keyGenerator: (request) => keyOf(limit, request),
        }),
      );
      return limitHandler(limits, checks, settings);
    });

    const mailChecks = new Map(
      MAIL_KINDS.map((kind) => [
        kind,
        app.createRateLimit({
          max: 1,
          timeWindow: MAIL_RESEND_WINDOW_MS,
          keyGenerator: (request) => `mail-${kind}:${address(request)}`,
        }),
      ]),
    );
    app.decorate('firstMailInWindow', async (request: FastifyRequest, kind: MailKind) => {
      const result = await mailChecks.get(kind)!(request);
      return result.isAllowed || !result.isExceeded;
    });
  },
  { name: 'limits', dependencies: ['errors'] },
);
