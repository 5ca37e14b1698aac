// Limits on the console's sign-in style calls, per client and per client and address, and the per-address mail
// throttle (DESIGN §7). Counts live in Redis when it is configured, so every API process shares them; each process
// also keeps its own count, which answers alone while Redis does not (down, or slower than REDIS_TIMEOUT_MS): the
// limits fall back to per-process ones instead of none, and no request waits on a dead Redis.
import fastifyRateLimit, { normalizeIP, type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import IORedis from 'ioredis';
import { LRUCache } from 'lru-cache';
import { DomainError } from '../errors';

export interface Limit {
  /** Names the counter, so two limits on one call count apart. */
  name: string;
  max: number;
  timeWindowMs: number;
  /**
   * 'client-and-address' counts attempts on one e-mail address; 'client' counts every address together; 'endpoint'
   * counts calls on one webhook endpoint of one app (the route's appId and endpointId), from any client.
   */
  per: 'client' | 'client-and-address' | 'endpoint';
}

const MINUTE = 60_000;

/** Attempts at one address from one client: a person mistyping gets ten tries a minute. */
const perAddress = (name: string): Limit => ({
  name,
  max: 10,
  timeWindowMs: MINUTE,
  per: 'client-and-address',
});

/**
 * The limits of each throttled call (issue 7, finding 6). Per client across addresses: sign-in 50 per 10 minutes
 * (credential stuffing from one address spends argon2 time of every user); sign-up, reset request and subscribe
 * 20 per hour (each sends a mail). Link calls (activation, reset with a code) carry no address: 10 a minute.
 */
export const LIMITS = {
  signin: [
    perAddress('signin'),
    { name: 'signin-client', max: 50, timeWindowMs: 10 * MINUTE, per: 'client' },
  ],
  adminSignin: [
    perAddress('admin-signin'),
    { name: 'admin-signin-client', max: 50, timeWindowMs: 10 * MINUTE, per: 'client' },
  ],
  signup: [
    perAddress('signup'),
    { name: 'signup-client', max: 20, timeWindowMs: 60 * MINUTE, per: 'client' },
  ],
  resetRequest: [
    perAddress('reset-request'),
    { name: 'reset-request-client', max: 20, timeWindowMs: 60 * MINUTE, per: 'client' },
  ],
  subscribe: [
    perAddress('subscribe'),
    { name: 'subscribe-client', max: 20, timeWindowMs: 60 * MINUTE, per: 'client' },
  ],
  link: [{ name: 'link', max: 10, timeWindowMs: MINUTE, per: 'client' }],
  /**
   * Issue 21: test events per webhook endpoint. Each is a POST to the customer's receiver; unlimited, a console
   * script could aim the platform at any URL it registered (200 were accepted in 6 s).
   */
  webhookTest: [{ name: 'webhook-test', max: 50, timeWindowMs: 60 * MINUTE, per: 'endpoint' }],
  /** The site's key-less history and candles (issue 10): a chart reader clicks through periods, a scraper more. */
  rateCharts: [{ name: 'rate-charts', max: 60, timeWindowMs: MINUTE, per: 'client' }],
} satisfies Record<string, Limit[]>;

/** At most one mail of a kind to one address in this window; later requests get the same answer and no mail. */
export const MAIL_RESEND_WINDOW_MS = 5 * MINUTE;
/** A resent activation link counts apart from the sign-up's, so that one resend goes out right after signing up. */
export const MAIL_KINDS = ['signup', 'activation-resend', 'password-reset', 'subscription'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

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

export const limitsPlugin = fp<{ redisUrl: string | undefined; keyPrefix: string }>(
  async (app: FastifyInstance, { redisUrl, keyPrefix }) => {
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

    const client = (request: FastifyRequest) => normalizeIP(request.ip);
    const address = (request: FastifyRequest) => {
      const email = (request.body as { email?: unknown } | undefined)?.email;
      return typeof email === 'string' ? email.trim().toLowerCase() : '';
    };

    // With its app: a caller naming another app's endpoint under its own app spends no count of that endpoint's owner.
    const endpointOf = (request: FastifyRequest) => {
      const { appId, endpointId } = request.params as { appId?: string; endpointId?: string };
      return `${appId ?? ''}:${endpointId ?? ''}`;
    };

    app.decorate('limit', (limits: Limit[]) => {
      const checks = limits.map((limit) =>
        app.createRateLimit({
          max: limit.max,
          timeWindow: limit.timeWindowMs,
          keyGenerator: (request) =>
            limit.per === 'client'
              ? `${limit.name}:${client(request)}`
              : limit.per === 'endpoint'
                ? `${limit.name}:${endpointOf(request)}`
                : `${limit.name}:${client(request)}:${address(request)}`,
        }),
      );
      return async (request, reply) => {
        let tightest: Counted | undefined;
        let exceeded: Counted | undefined;
        for (const result of await Promise.all(checks.map((check) => check(request)))) {
          if (result.isAllowed) continue;
          if (!tightest || result.remaining < tightest.remaining) tightest = result;
          if (result.isExceeded && (!exceeded || result.ttl > exceeded.ttl)) exceeded = result;
        }
        const shown = exceeded ?? tightest;
        if (!shown) return;
        void reply.header('x-ratelimit-limit', shown.max);
        void reply.header('x-ratelimit-remaining', shown.remaining);
        void reply.header('x-ratelimit-reset', shown.ttlInSeconds);
        if (!exceeded) return;
        void reply.header('retry-after', exceeded.ttlInSeconds);
        throw new DomainError(429, `Too many attempts. Try again in ${exceeded.ttlInSeconds} seconds.`);
      };
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
