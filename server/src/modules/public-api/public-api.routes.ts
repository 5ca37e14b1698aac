// The paid API (DESIGN §5). Each request: key → app → subscription (or premium) → quota check-and-count →
// response → request log entry. No database round trip on the hot path: clients and rates come from memory,
// counting is one atomic call, logs are written in batches.
import { pipeline, Readable, Transform } from 'node:stream';
import fastifyCors from '@fastify/cors';
import { stringify } from 'csv-stringify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { redactUrl } from '../../logger';
import {
  ASSETS,
  ASSET_DISPLAY,
  BASES,
  BASE_DISPLAY,
  Conversion,
  ConvertQuery,
  Currencies,
  DEFAULT_MARKET,
  describeQuote,
  formatUtcDate,
  fromIsoCode,
  ISO_CODES,
  Envelope,
  MARKETS,
  MARKET_LABELS,
  MAX_CANDLE_DAYS,
  MAX_HISTORY_DAYS,
  PaidRates,
  Premium,
  PremiumQuery,
  RateHistory,
  RateHistoryQuery,
  RateOhlc,
  RateOhlcQuery,
  RatesQuery,
  Usage,
  type Asset,
  type RateCandle,
  type Base,
  type QuoteWithoutAge,
  withFreshness,
  quotaPeriod,
  type QuotaPeriod,
} from '@afrofx/shared';
import { badRequest, DomainError, notFound } from '../../errors';
import { ok } from '../../http';
import { candleRange, historyRange } from '../rates/rate-range';
import type { RouteOptions } from '../../route-options';
import { PREMIUM_MARKETS, PREMIUM_WINDOWS, premiumOf, REFERENCE_MARKET, windowStart } from '../rates/premium';
import { createApiClients, LOOKUP_WINDOW_MS, type ApiClient } from './api-clients';
import { answerFormat, createEntitlementGuard } from './entitlements';
import {
  createMemoryQuotaStore,
  createPostgresQuotaStore,
  createRedisQuotaStore,
  type QuotaSubject,
} from './quota-store';
import { createRatesSnapshot } from './rates-snapshot';
import { createRequestLogBuffer } from './request-log-buffer';

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
/** The log's status for a request whose client went away before the answer (nginx's convention). */
const CLIENT_CLOSED = 499;
const CANDLE_COLUMNS: Array<keyof RateCandle> = [
  'start',
  'buyOpen',
  'buyHigh',
  'buyLow',
  'buyClose',
  'sellOpen',
  'sellHigh',
  'sellLow',
  'sellClose',
  'entries',
];

const bearer = (request: FastifyRequest) =>
  /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];

function httpDate(iso: string | undefined) {
  return iso ? new Date(iso).toUTCString() : undefined;
}

function newestUpdate(quotes: QuoteWithoutAge[]) {
  return quotes.reduce<string | undefined>(
    (max, r) => (!max || r.updatedAt > max ? r.updatedAt : max),
    undefined,
  );
}

/** The assets of a symbols parameter (ISO codes or ids), or a 400 naming the one not known. */
function assetsOf(symbols: string): Asset[] {
  return symbols.split(',').map((symbol) => {
    const asset = fromIsoCode(symbol);
    if (!(ASSETS as readonly string[]).includes(asset))
      throw badRequest(
        `symbols: "${symbol}" is not an asset. Use ${ASSETS.map((a) => ISO_CODES[a]).join(', ')} (or ${ASSETS.join(', ')}).`,
      );
    return asset as Asset;
  });
}

function matchesEtag(request: FastifyRequest, etag: string) {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === etag || value === '*';
  });
}

export const publicApiRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { runtime, services, health },
) => {
  const { config, database, changes } = runtime;
  const clients = createApiClients(database.db, changes);
  const quota = config.redisUrl
    ? createRedisQuotaStore({
        db: database.db,
        redisUrl: config.redisUrl,
        prefix: runtime.keyPrefix,
        burstPerSecond: config.apiBurstPerSecond,
        changes,
        log: app.log,
      })
    : database.driver === 'pglite'
      ? createMemoryQuotaStore(database.db, config.apiBurstPerSecond)
      : createPostgresQuotaStore(database.db, config.apiBurstPerSecond);
  const logs = createRequestLogBuffer(services.requests, {
    flushMs: config.requestLogFlushMs,
    batchSize: database.driver === 'pglite' ? undefined : REQUEST_LOG_BATCH,
    log: app.log,
    afterFlush: () => quota.flush(),
  });
  health.requestLog = logs.health;
  const snapshot = createRatesSnapshot(services.rates, changes);
  // Fastify closes the server (finishing in-flight requests) before these hooks run, so nothing answered is lost.
  app.addHook('onClose', async () => {
    await logs.close();
    await quota.flush().catch((err: unknown) => app.log.error({ err }, 'quota flush failed at shutdown'));
    await quota.close();
  });

  // A JSON API needs none of helmet's page headers (CSP, frame options…), and they cost on the hot path.
  // (@fastify/helmet's own onRoute hook has run by now, so set the per-route config it reads.)
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, helmet: { skipRoute: true } } as typeof route.config;
  });

  await app.register(fastifyCors, {
    origin: '*',
    methods: ['GET', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'If-None-Match', 'Content-Type'],
    exposedHeaders: [
      'Content-Disposition',
      'ETag',
      'Last-Modified',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ],
    maxAge: 86_400,
  });

  // Authentication and plan check run before validation, so that refusals of bad parameters are logged too.
  app.addHook('onRequest', async (request, reply) => {
    request.startedAt = performance.now();
    if (request.method === 'OPTIONS') return;
    const key = bearer(request);
    const now = new Date();
    const client = key ? await clients.resolve(key, now, request.ip) : null;
    if (client === 'too-many-lookups') {
      // The window of unknown-key look-ups is at most this long: by then this address may try again.
      void reply.header('Retry-After', Math.ceil(LOOKUP_WINDOW_MS / 1000));
      throw new DomainError(429, TOO_MANY_LOOKUPS);
    }
    if (!client) throw new DomainError(401, INVALID_KEY);
    request.apiClient = client;
    // Gone while its key was looked up: logged now, since no answer will follow.
    if (request.gone) settle(request, CLIENT_CLOSED, performance.now() - request.startedAt!);
    if (client.premium) {
      request.quota = { subject: null, period: null };
      return;
    }
    const subscription = client.subscription;
    if (!subscription || subscription.expireAt <= now) throw new DomainError(402, NO_PLAN);
    const period = quotaPeriod(subscription.startsAt, subscription.expireAt, now);
    const processedAtLoad =
      subscription.lastIncrement && subscription.lastIncrement >= period.start ? subscription.processed : 0;
    request.quota = {
      subject: { subscriptionId: subscription.id, limit: subscription.limit, processedAtLoad, period },
      period,
    };
  });

  // Issue 20: a call the key's plan does not open is refused (free) once its parameters are known.
  app.addHook(
    'preHandler',
    createEntitlementGuard(() => services.plans.entitlementsOnSale()),
  );

  // What customers of other FX APIs send works here too: parameters a call does not know are ignored (an SDK's
  // cache-buster, a field of another provider's API), and ISO 4217 codes stand for the ids they name.
  app.addHook('preValidation', async (request) => {
    const declared = (request.routeOptions.schema?.querystring as TSchema | undefined)?.properties as
      Record<string, { enum?: unknown[] }> | undefined;
    const query = request.query as Record<string, unknown>;
    if (!declared || !query) return;
    for (const [name, value] of Object.entries(query)) {
      if (!(name in declared)) delete query[name];
      else if (declared[name]!.enum && typeof value === 'string') query[name] = fromIsoCode(value);
    }
  });

  /**
   * Logs the request's outcome once, and gives back its count when it was not served after all: a 5xx, or a client
   * gone before the answer. Counted answers are a row each; uncounted ones are folded per key and status.
   */
  function settle(request: FastifyRequest, status: number, elapsedMs: number) {
    const client = request.apiClient;
    if (!client || request.logged) return;
    request.logged = true;
    if (request.gone) status = CLIENT_CLOSED;
    if (request.charged && (status >= 500 || status === CLIENT_CLOSED)) {
      request.charged = false;
      quota
        .refund(request.quota!.subject!)
        .catch((err: unknown) => app.log.error({ err }, 'quota refund failed'));
    }
    const entry = {
      appId: client.appId,
      host: request.host,
      agent: request.headers['user-agent'] ?? '',
      ipAddress: request.ip,
      originalUrl: redactUrl(request.originalUrl),
      status,
      latencyMs: Math.round(elapsedMs * 100) / 100,
      createdAt: new Date(),
    };
    if (request.served || status >= 500) logs.push(entry);
    else logs.pushUncounted(entry);
  }

  app.addHook('onResponse', async (request, reply) => settle(request, reply.statusCode, reply.elapsedTime));
  app.addHook('onRequestAbort', async (request) => {
    request.gone = true;
    settle(request, CLIENT_CLOSED, performance.now() - (request.startedAt ?? performance.now()));
  });

  /** DESIGN §5 headers on every answer, from the last count this process saw. */
  const lastUsed = new Map<string, number>();
  function setQuotaHeaders(request: FastifyRequest, reply: FastifyReply, used?: number) {
    const subject = request.quota?.subject;
    const period = request.quota?.period;
    if (!subject || !period) return;
    const current = used ?? lastUsed.get(subject.subscriptionId) ?? subject.processedAtLoad;
    if (used !== undefined) lastUsed.set(subject.subscriptionId, used);
    void reply.header('RateLimit-Limit', subject.limit);
    void reply.header('RateLimit-Remaining', Math.max(subject.limit - current, 0));
    void reply.header('RateLimit-Reset', Math.max(Math.ceil((period.end.getTime() - Date.now()) / 1000), 0));
  }
  app.addHook('onSend', async (request, reply) => {
    void reply.header('X-Content-Type-Options', 'nosniff');
    if (!reply.hasHeader('RateLimit-Limit')) setQuotaHeaders(request, reply);
  });

  /** Counts the answer against the quota (a 304 or a refusal is free), or refuses with 429. */
  async function charge(request: FastifyRequest, reply: FastifyReply) {
    // A client gone before its answer is not charged; the answer is not sent anyway.
    if (request.gone) return;
    const outcome = await quota.take(request.quota!.subject, request.apiClient!.keyHash, new Date());
    setQuotaHeaders(request, reply, outcome.used);
    if (outcome.allowed) {
      request.served = true;
      // Premium accounts have no monthly count to give back.
      if (request.quota!.subject) request.charged = true;
      // The client may have gone while the count was taken: it was not served.
      if (request.gone && request.quota!.subject) {
        request.charged = false;
        await quota.refund(request.quota!.subject);
      }
      return;
    }
    if (outcome.reason === 'burst') {
      void reply.header('Retry-After', 1);
      throw new DomainError(
        429,
        `Too many requests at once: at most ${config.apiBurstPerSecond} per second per key.`,
      );
    }
    const period = request.quota!.period!;
    void reply.header('Retry-After', Math.max(Math.ceil((period.end.getTime() - Date.now()) / 1000), 1));
    throw new DomainError(429, `Monthly request limit reached. It resets on ${period.end.toISOString()}.`);
  }

  /** Answers 304 when the client holds this version; otherwise counts the request. */
  async function conditional(
    request: FastifyRequest,
    reply: FastifyReply,
    etag: string,
    lastModified?: string,
  ) {
    void reply.header('ETag', etag);
    if (lastModified) void reply.header('Last-Modified', lastModified);
    void reply.header('Cache-Control', 'private, max-age=0, must-revalidate');
    if (matchesEtag(request, etag)) return true;
    await charge(request, reply);
    return false;
  }

  const schema = { tags: ['Rates API'], security: [{ apiKey: [] }] };
  const errors = {
    400: { $ref: 'ErrorBody#' },
    401: { $ref: 'ErrorBody#' },
    402: { $ref: 'ErrorBody#' },
    429: { $ref: 'ErrorBody#' },
  };
  /** Calls a plan's entitlements may not open (issue 20). */
  const gated = { ...errors, 403: { $ref: 'ErrorBody#' } };

  const staleAfterMs = config.staleAfterHours * 3_600_000;
  // Every caller of a filter gets the same bytes until the snapshot changes or the second turns (ageSeconds):
  // each filter is serialized at most once a second, and kept as bytes so no answer encodes it again.
  const ratesBodies = new Map<string, { second: number; body: Buffer; lastModified: string | undefined }>();
  let ratesBodiesVersion = '';
  function ratesBody(version: string, etag: string, select: () => QuoteWithoutAge[]) {
    if (version !== ratesBodiesVersion) {
      ratesBodies.clear();
      ratesBodiesVersion = version;
    }
    const now = Date.now();
    const second = Math.floor(now / 1000);
    let cached = ratesBodies.get(etag);
    if (!cached || cached.second !== second) {
      const quotes = select();
      cached = {
        second,
        body: Buffer.from(JSON.stringify(ok(withFreshness(quotes, now, staleAfterMs), 'Rates fetched.'))),
        lastModified: httpDate(newestUpdate(quotes)),
      };
      ratesBodies.set(etag, cached);
    }
    return cached;
  }

  app.get(
    '/rates',
    {
      schema: {
        ...schema,
        summary: 'Latest rates',
        description: `The latest buy and sell rate for every market, base and asset, optionally filtered, each with its mid, spread, change against the previous close, age and staleness. Prices, spreads and changes are JSON numbers exact to the 6 decimal places rates are stored with; percentages are rounded to 4 decimal places. stale is true when the rate is older than ${config.staleAfterHours} hours (STALE_AFTER_HOURS). Supports If-None-Match: the ETag changes when a rate changes, not as ageSeconds grows. symbols=USD,GBP picks several assets; date=2026-11-01 answers the table as it stood at the end of that UTC day (change against that day's previous close). base, asset and symbols take ISO 4217 codes (NGN, USD…) as well as ids; unknown parameters are ignored.`,
        querystring: RatesQuery,
        response: { 200: Envelope(PaidRates), 304: { type: 'null', description: 'Not modified' }, ...gated },
      },
    },
    async (request, reply) => {
      const { market, base, asset, symbols, date } = request.query;
      const assets =
        symbols || asset
          ? [...new Set([...(asset ? [asset] : []), ...(symbols ? assetsOf(symbols) : [])])]
          : undefined;
      // A plan open to some markets only answers those (issue 20); named in the ETag, as bodies are shared by it.
      const open = request.apiClient?.premium
        ? undefined
        : request.apiClient?.subscription?.entitlements?.markets;
      const chosen = (quotes: QuoteWithoutAge[]) =>
        quotes.filter(
          (r) =>
            (!market || r.market === market) &&
            (market || !open || open.includes(r.market)) &&
            (!base || r.base === base) &&
            (!assets || assets.includes(r.asset)),
        );
      const current = await snapshot.get();
      const markets = market ?? (open && open.length < MARKETS.length ? open.join('+') : '');
      const etag = `"${current.version}-${markets}-${base ?? ''}-${assets?.join('+') ?? ''}-${date ?? ''}"`;
      if (date) {
        if (date > formatUtcDate(new Date())) throw badRequest('date must be today or an earlier UTC day.');
        if (matchesEtag(request, etag)) {
          await conditional(request, reply, etag);
          return reply.status(304).send();
        }
        const dayEnd = new Date(`${date}T00:00:00.000Z`);
        dayEnd.setUTCDate(dayEnd.getUTCDate() + 1);
        const table = await services.rates.latestWithPreviousClose(undefined, dayEnd);
        const quotes = chosen(table.map(({ rate, previousClose }) => describeQuote(rate, previousClose)));
        // Charged only once the answer exists: a failed query costs the developer nothing.
        await conditional(request, reply, etag, httpDate(newestUpdate(quotes)));
        return ok(withFreshness(quotes, Date.now(), staleAfterMs), 'Rates fetched.');
      }
      const { body, lastModified } = ratesBody(current.version, etag, () => chosen(current.rates));
      if (await conditional(request, reply, etag, lastModified)) return reply.status(304).send();
      // Bytes with a JSON content type go out as they are: the response schema above documents their shape.
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  /**
   * Streams the rows of `batches` as CSV or NDJSON. The first batch is read before the request is charged, so a
   * query that fails at once costs nothing and answers a plain 500. A later batch that fails cuts the answer off:
   * the request is then logged as the 500 it is and its count given back, where the client would only see a
   * broken download.
   */
  async function streamRows<T extends object>(
    request: FastifyRequest,
    reply: FastifyReply,
    format: 'csv' | 'ndjson',
    batches: AsyncGenerator<T[]>,
    columns: Array<keyof T & string>,
    filename: string,
    etag: string,
  ) {
    const first = await batches.next();
    await conditional(request, reply, etag);
    async function* rows() {
      if (first.done) return;
      yield* first.value;
      for await (const batch of batches) yield* batch;
    }
    const body =
      format === 'csv'
        ? stringify({ header: true, columns })
        : new Transform({
            writableObjectMode: true,
            transform(row: T, _encoding, callback) {
              callback(null, `${JSON.stringify(row)}\n`);
            },
          });
    pipeline(Readable.from(rows()), body, (err) => {
      // A client gone mid-stream closes the pipeline early; the abort hook logs that one as 499.
      if (!err || (err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      app.log.error({ err }, 'streamed answer failed');
      settle(request, 500, performance.now() - request.startedAt!);
    });
    if (format === 'csv') {
      void reply.header('Content-Disposition', `attachment; filename="${filename}.csv"`);
      return reply.type('text/csv; charset=utf-8').send(body);
    }
    return reply.type('application/x-ndjson; charset=utf-8').send(body);
  }

  /** A 200 of the envelope as JSON, or of the rows as CSV or NDJSON (the examples show the rows' shape). */
  const jsonOrRows = (envelope: TSchema, csvExample: string, ndjsonExample: string) => ({
    description:
      'The envelope as JSON; with format=csv or format=ndjson (or that Accept header) the rows alone.',
    content: {
      'application/json': { schema: envelope },
      'text/csv': { schema: { type: 'string', examples: [csvExample] } },
      'application/x-ndjson': { schema: { type: 'string', examples: [ndjsonExample] } },
    },
  });

  app.get(
    '/rates/history',
    {
      schema: {
        ...schema,
        summary: 'Daily rate history',
        description: `One value per UTC day (the day's last record) for a pair and market, from..to inclusive (default: the last 30 days; at most ${MAX_HISTORY_DAYS} days). Values are numbers with the precision they were entered with. format=csv or format=ndjson (or Accept: text/csv or application/x-ndjson) streams the points as rows: day,buy,sell.`,
        querystring: RateHistoryQuery,
        response: {
          200: jsonOrRows(
            Envelope(RateHistory),
            'day,buy,sell\n2026-11-02,1450.5,1470\n2026-11-03,1452,1471.25\n',
            '{"day":"2026-11-02","buy":1450.5,"sell":1470}\n{"day":"2026-11-03","buy":1452,"sell":1471.25}\n',
          ),
          304: { type: 'null', description: 'Not modified' },
          ...gated,
        },
      },
    },
    async (request, reply) => {
      const { market, base, asset } = request.query;
      const format = answerFormat(request.headers.accept, request.query.format);
      const { from, to } = historyRange(request.query, new Date());
      const current = await snapshot.get();
      const etag = `"${current.version}-h-${market}-${base}-${asset}-${from}-${to}-${format}"`;
      if (matchesEtag(request, etag)) {
        await conditional(request, reply, etag);
        return reply.status(304).send();
      }
      if (format !== 'json') {
        const batches = services.rates.historyBatches({ market, base, asset }, from, to);
        const filename = `afrofx-history-${market}-${base}-${asset}-${from}-${to}`;
        return streamRows(request, reply, format, batches, ['day', 'buy', 'sell'], filename, etag);
      }
      // Charged only once the answer exists: a failed query costs the developer nothing.
      const points = await services.rates.history({ market, base, asset }, from, to);
      await conditional(request, reply, etag);
      return ok({ market, base, asset, from, to, points }, 'Rate history fetched.');
    },
  );

  // A pair's premium changes with the rates or the UTC day: computed once per snapshot version, day and pair (callers
  // arriving while it is computed share the one query; a failed query is not kept).
  const premiums = new Map<string, Promise<Premium>>();
  let premiumsKey = '';
  app.get(
    '/rates/premium',
    {
      schema: {
        ...schema,
        summary: 'Parallel-market premium over the bank rate',
        description: `How far the cash (black_market_cash) and transfer (black_market_transfer) markets sit above the bank market for a pair, as (market / bank − 1) × 100 for buy, sell and mid (mid = (buy + sell) / 2). now compares each market's latest entry with the bank market's latest entry. last7Days and last30Days cover the UTC days from today back 6 and 29 days: a day's value compares the market's last entry of that UTC day with the bank market's last entry of the same UTC day, and only days on which both markets have an entry count (days says how many did); average is the mean of those daily values, minimum and maximum the lowest and highest of each figure. Percentages are JSON numbers rounded to 4 decimal places; negative means below the bank rate.`,
        querystring: PremiumQuery,
        response: { 200: Envelope(Premium), ...gated },
      },
    },
    async (request, reply) => {
      const { base, asset } = request.query;
      const current = await snapshot.get();
      const today = formatUtcDate(new Date());
      if (premiumsKey !== `${current.version}-${today}`) {
        premiums.clear();
        premiumsKey = `${current.version}-${today}`;
      }
      const key = `${base}-${asset}`;
      let pending = premiums.get(key);
      if (!pending) {
        pending = services.rates
          .dailyCloses(
            base,
            asset,
            [REFERENCE_MARKET, ...PREMIUM_MARKETS],
            windowStart(today, PREMIUM_WINDOWS.last30Days),
          )
          .then((closes) => premiumOf(base, asset, current.rates, closes, today));
        premiums.set(key, pending);
        pending.catch(() => premiums.get(key) === pending && premiums.delete(key));
      }
      // Charged only once the answer exists: a failed query costs the developer nothing.
      const premium = await pending;
      await charge(request, reply);
      return ok(premium, 'Premium fetched.');
    },
  );

  app.get(
    '/rates/ohlc',
    {
      schema: {
        ...schema,
        summary: 'Candles (open, high, low, close)',
        description: `Open, high, low and close of buy and sell per UTC day, ISO week (Monday to Sunday) or calendar month, from every rate entry of a pair and market: several entries in a day make a real candle, and buckets without entries are absent, never invented. from..to (default: the last 30 days, 26 weeks or 12 months) may span at most ${MAX_CANDLE_DAYS.day} days for day candles, ${MAX_CANDLE_DAYS.week} for weeks and ${MAX_CANDLE_DAYS.month} for months; the answer covers whole buckets, so from moves back to its bucket's start and to on to its end. Values are numbers with the precision they were entered with. format=csv or format=ndjson (or Accept: text/csv or application/x-ndjson) streams the candles as rows.`,
        querystring: RateOhlcQuery,
        response: {
          200: jsonOrRows(
            Envelope(RateOhlc),
            'start,buyOpen,buyHigh,buyLow,buyClose,sellOpen,sellHigh,sellLow,sellClose,entries\n2026-11-02,1450,1462.5,1448,1455,1470,1480,1466,1475,9\n',
            '{"start":"2026-11-02","buyOpen":1450,"buyHigh":1462.5,"buyLow":1448,"buyClose":1455,"sellOpen":1470,"sellHigh":1480,"sellLow":1466,"sellClose":1475,"entries":9}\n',
          ),
          304: { type: 'null', description: 'Not modified' },
          ...gated,
        },
      },
    },
    async (request, reply) => {
      const { market, base, asset, interval } = request.query;
      const format = answerFormat(request.headers.accept, request.query.format);
      const { from, to } = candleRange(interval, request.query, new Date());
      const current = await snapshot.get();
      const etag = `"${current.version}-o-${market}-${base}-${asset}-${interval}-${from}-${to}-${format}"`;
      if (matchesEtag(request, etag)) {
        await conditional(request, reply, etag);
        return reply.status(304).send();
      }
      const pair = { market, base, asset };
      if (format !== 'json') {
        const batches = services.rates.candleBatches(pair, interval, from, to);
        const filename = `afrofx-ohlc-${market}-${base}-${asset}-${interval}-${from}-${to}`;
        return streamRows(request, reply, format, batches, CANDLE_COLUMNS, filename, etag);
      }
      const candles = await services.rates.candles(pair, interval, from, to);
      await conditional(request, reply, etag);
      return ok({ market, base, asset, interval, from, to, candles }, 'Candles fetched.');
    },
  );

  app.get(
    '/convert',
    {
      schema: {
        ...schema,
        summary: 'Convert an amount',
        description:
          'Converts between an asset and a base currency at the latest rate of a market (default Cash), on the buy or sell side (default buy).',
        querystring: ConvertQuery,
        response: { 200: Envelope(Conversion), 404: { $ref: 'ErrorBody#' }, ...gated },
      },
    },
    async (request, reply) => {
      const { amount, from, to } = request.query;
      const market = request.query.market ?? DEFAULT_MARKET;
      const side = request.query.side ?? 'buy';
      const fromAsset = (ASSETS as readonly string[]).includes(from);
      const toAsset = (ASSETS as readonly string[]).includes(to);
      if (fromAsset === toAsset)
        throw badRequest('The from and to parameters must be one asset and one base currency.');
      const asset = (fromAsset ? from : to) as Asset;
      const base = (fromAsset ? to : from) as Base;
      const rate = (await snapshot.get()).rates.find(
        (r) => r.market === market && r.base === base && r.asset === asset,
      );
      if (!rate) throw notFound(`No ${market} rate for ${asset}/${base} yet.`);
      await charge(request, reply);
      const price = side === 'buy' ? rate.buy : rate.sell;
      const result = Math.round((fromAsset ? amount * price : amount / price) * 10_000) / 10_000;
      return ok(
        { amount, from, to, market, side, rate: price, result, rateUpdatedAt: rate.updatedAt },
        'Converted.',
      );
    },
  );

  const isoName = new Intl.DisplayNames('en', { type: 'currency' });
  // Intl's English symbol where it has one (CA$ tells the Canadian dollar from the US one), else the local sign.
  const isoSymbol = (code: string, local: string) => {
    const symbol = new Intl.NumberFormat('en', { style: 'currency', currency: code })
      .formatToParts(0)
      .find((part) => part.type === 'currency')!.value;
    return symbol === code ? local : symbol;
  };
  const currencies = {
    markets: MARKETS.map((id) => ({ id, label: MARKET_LABELS[id] })),
    bases: BASES.map((id) => ({
      id,
      code: ISO_CODES[id],
      name: isoName.of(ISO_CODES[id])!,
      symbol: isoSymbol(ISO_CODES[id], BASE_DISPLAY[id].symbol),
    })),
    assets: ASSETS.map((id) => ({
      id,
      code: ISO_CODES[id],
      name: isoName.of(ISO_CODES[id])!,
      symbol: isoSymbol(ISO_CODES[id], ASSET_DISPLAY[id].symbol),
      flag: ASSET_DISPLAY[id].flag,
      country: ASSET_DISPLAY[id].country,
    })),
  };
  app.get(
    '/currencies',
    {
      schema: {
        ...schema,
        summary: 'Markets, bases and assets',
        description:
          'Every market, base currency and asset the API knows, with ISO 4217 codes and names, symbols and flags. Every parameter that takes an asset or base id takes its ISO code too.',
        response: {
          200: Envelope(Currencies),
          304: { type: 'null', description: 'Not modified' },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      if (await conditional(request, reply, '"currencies-v2"')) return reply.status(304).send();
      return ok(currencies, 'Currencies fetched.');
    },
  );

  app.get(
    '/usage',
    {
      schema: {
        ...schema,
        summary: "This period's usage",
        description:
          'How many requests this period counted, the limit, and when the count resets: the RateLimit headers as a body. Free: it never counts against the quota.',
        response: { 200: Envelope(Usage), ...errors },
      },
    },
    async (request) => {
      const subject = request.quota?.subject;
      const period = request.quota?.period;
      if (!subject || !period) {
        return ok(
          { plan: null, limit: null, used: 0, remaining: null, periodStart: null, resetsAt: null },
          'Premium account: no monthly limit.',
        );
      }
      const used = lastUsed.get(subject.subscriptionId) ?? subject.processedAtLoad;
      return ok(
        {
          plan: request.apiClient!.subscription!.planName,
          limit: subject.limit,
          used,
          remaining: Math.max(subject.limit - used, 0),
          periodStart: period.start.toISOString(),
          resetsAt: period.end.toISOString(),
        },
        'Usage fetched.',
      );
    },
  );
};
