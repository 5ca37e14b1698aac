// Activation tokens, reset codes and subscription ids travel in request paths and bodies; the
// log a real app writes (Fastify's request lines included) must not carry them.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { createLogger, redactText, redactUrl } from '../src/logger';
import { requestLogs } from '../src/db/schema';
import { createRuntime, type Runtime } from '../src/runtime';
import { paidClient } from './support/paid-api';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { deleteRedisKeys, eventually } from './support/test-app';

const lines: string[] = [];
let config: Config;
let runtime: Runtime;
let app: FastifyInstance;
let worker: ReturnType<Runtime['startWorker']>;
let scratch: ScratchDatabase | undefined;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'afrofx-log-'));
  scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'afrofx_test')
    : undefined;
  config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url,
    REDIS_URL: process.env.REDIS_URL,
    PUBLIC_URL: 'http://afrofx.test',
    DEMO_DATA: 'false',
    WEB_DIST: '',
  });
  runtime = await createRuntime(config, {
    inMemoryDatabase: true,
    queuePrefix: `afrofx-test-${randomBytes(6).toString('hex')}`,
    jobBackoffMs: 10,
    log: createLogger(config, { write: (line: string) => void lines.push(line) }),
  });
  worker = runtime.startWorker();
  app = await buildApp(runtime);
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await worker?.close();
  await runtime.close();
  await scratch?.drop();
  if (config.redisUrl) await deleteRedisKeys(config.redisUrl, runtime.keyPrefix);
  await rm(dataDir, { recursive: true, force: true });
});

/** The last link to `email` that starts with `prefix`, read from the outbox the mailer wrote. */
async function linkTo(email: string, prefix: string): Promise<string> {
  return eventually(async () => {
    const dir = path.join(dataDir, 'outbox');
    for (const file of (await readdir(dir).catch(() => [] as string[])).sort().reverse()) {
      const raw = (await readFile(path.join(dir, file), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      if (!raw.includes(`To: ${email}`)) continue;
      const link = raw.match(/https?:\/\/[^\s"'<>]+/g)?.find((l) => l.startsWith(prefix));
      if (link) return link.slice(prefix.length);
    }
    throw new Error(`no link ${prefix} to ${email} yet`);
  });
}

describe('the log', () => {
  it('carries no activation token, reset code, subscription id or password after the link flows', async () => {
    const email = 'logged@example.com';
    const password = 'correct-horse-battery';
    const newPassword = 'staple-paper-clip-42';
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      app.inject({ method, url: `/v1/${url}`, payload });

    await call('POST', 'account/signup', { email, password, first_name: 'Ada', last_name: 'Eze' });
    const token = await linkTo(email, 'http://afrofx.test/developer/activate_account/');
    expect((await call('GET', `account/activate_account/${token}`)).statusCode).toBe(200);

    await call('POST', 'account/request_reset_password', { email });
    const code = await linkTo(email, 'http://afrofx.test/developer/reset_password/');
    expect((await call('POST', 'account/reset_password', { code, password: newPassword })).statusCode).toBe(
      200,
    );
    // A code sent in a query string by a broken client is as secret.
    await call('GET', `account/activate_account/whatever?token=${code}`);

    await call('POST', 'user/create_email_sub', { email });
    const subscriberId = await linkTo(email, 'http://afrofx.test/confirmation/');
    expect((await call('POST', `user/confirmation/${subscriberId}`)).statusCode).toBe(200);

    const signin = await call('POST', 'account/signin', { email, password: newPassword });
    const session = signin.json().data.token as string;
    await app.inject({
      method: 'GET',
      url: '/v1/apps/all_apps',
      headers: { authorization: `Bearer ${session}` },
    });

    // A key in a query string, and the unsubscribe links of the API and of the web app.
    const apiKey = `sk_${randomBytes(24).toString('base64url')}`;
    await app.inject({ method: 'GET', url: `/v1/rates?market=bank&api_key=${apiKey}` });
    const unsubscribeToken = `${subscriberId}.${randomBytes(32).toString('base64url')}`;
    await call('POST', `user/unsubscribe/${unsubscribeToken}`);
    await app.inject({ method: 'GET', url: `/unsubscribe/${unsubscribeToken}` });

    // DESIGN §1: outside production the outbox mailer logs the links it wrote, on purpose; every other line counts.
    const written = lines.filter((line) => JSON.parse(line).msg !== 'mail written to the outbox').join('\n');
    expect(written).toContain('/v1/account/activate_account/[redacted]');
    expect(written).toContain('/v1/user/confirmation/[redacted]');
    expect(written).toContain('api_key=[redacted]');
    expect(written).toContain('/v1/user/unsubscribe/[redacted]');
    for (const secret of [
      token,
      code,
      subscriberId,
      password,
      newPassword,
      session,
      apiKey,
      unsubscribeToken,
    ])
      expect(written).not.toContain(secret);
  });
});

describe('access lines of the paid API', () => {
  const since = (from: number) =>
    lines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);

  it('writes none for a metered call, which the request log records, and one for a call with an unknown key', async () => {
    const client = await paidClient({ runtime });
    const before = lines.length;
    const metered = await app.inject({
      method: 'GET',
      url: '/v1/rates?cb=metered-call',
      headers: client.headers,
    });
    expect(metered.statusCode).toBe(200);
    expect(
      since(before).filter((line) => line.msg === 'incoming request' || line.msg === 'request completed'),
    ).toEqual([]);

    const unknown = await app.inject({
      method: 'GET',
      url: '/v1/rates?cb=unknown-key',
      headers: { authorization: `Bearer sk_${randomBytes(24).toString('base64url')}` },
    });
    expect(unknown.statusCode).toBe(401);
    const written = since(before).filter((line) => JSON.stringify(line).includes('unknown-key'));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ msg: 'request completed', res: { statusCode: 401 } });
  });

  it("still writes the console calls' access lines", async () => {
    const before = lines.length;
    await app.inject({ method: 'GET', url: '/v1/account/fetch_plans?page=1' });
    expect(since(before).map((line) => line.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request completed']),
    );
  });
});

describe('redactUrl', () => {
  it.each([
    ['/v1/account/activate_account/abc_DEF-123', '/v1/account/activate_account/[redacted]'],
    ['/developer/reset_password/abc?x=1', '/developer/reset_password/[redacted]?x=1'],
    ['/v1/user/confirmation/7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c', '/v1/user/confirmation/[redacted]'],
    ['/v1/rates?market=bank&key=sk_live_1&code=9', '/v1/rates?market=bank&key=[redacted]&code=[redacted]'],
    ['/v1/rates?market=bank', '/v1/rates?market=bank'],
    [
      '/v1/rates?api_key=sk_a&apikey=b&token=c&signature=d',
      '/v1/rates?api_key=[redacted]&apikey=[redacted]&token=[redacted]&signature=[redacted]',
    ],
    [
      '/v1/rates?secret=a&password=b&access_token=c',
      '/v1/rates?secret=[redacted]&password=[redacted]&access_token=[redacted]',
    ],
    [
      '/v1/user/unsubscribe/7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg',
      '/v1/user/unsubscribe/[redacted]',
    ],
    ['/unsubscribe/abc.defghijklmnopqrstu', '/unsubscribe/[redacted]'],
    ['/v1/anything/sk_live_abcdef/more', '/v1/anything/[redacted]/more'],
    [
      '/v1/apps/7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c/keys',
      '/v1/apps/7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c/keys',
    ],
    ['/v1/openapi.json', '/v1/openapi.json'],
  ])('turns %s into %s', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });
});

describe('a database error in the log', () => {
  it('names the failed statement without its parameters', () => {
    const written: string[] = [];
    const log = createLogger(
      { logLevel: 'info', logFormat: 'json' },
      { write: (line: string) => void written.push(line) },
    );
    const secret = `sk_${randomBytes(24).toString('base64url')}`;
    const cause = new Error('connection reset');
    log.error(
      { err: new DrizzleQueryError('select * from apps where key = $1', [secret], cause) },
      'request failed',
    );
    expect(written.join('\n')).toContain('Failed query: select * from apps where key = $1');
    expect(written.join('\n')).not.toContain(secret);
  });
});

/** The shapes of a secret a client may send, whatever it calls the parameter. */
const base64url = (bytes: number) => randomBytes(bytes).toString('base64url');
const jwt = () =>
  [
    { alg: 'HS256', typ: 'JWT' },
    { sub: base64url(6), iat: 1_700_000_000 },
  ]
    .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
    .concat(base64url(32))
    .join('.');
const secretShapes = {
  'a private key': () => `sk_${base64url(24)}`,
  'a webhook signing secret': () => `afxsig_${base64url(24)}`,
  'a JWT': jwt,
};
/** A query parameter's name: any URL-safe characters, so nothing but the value can give the secret away. */
const parameterName = fc.stringMatching(/^[A-Za-z0-9_.~-]{1,12}$/);
/** A password parameter's name, as a client may spell it: pass, pwd, user_pw, Password2… */
const passwordName = fc
  .tuple(
    fc.stringMatching(/^[A-Za-z0-9_]{0,5}$/),
    fc.constantFrom('pass', 'Pass', 'PASSWORD', 'passwd', 'pwd', 'pw', 'PW'),
    fc.stringMatching(/^[A-Za-z0-9_]{0,5}$/),
  )
  .map((parts) => parts.join(''));

/**
 * A password as a client sends one: a digit and a sign in it. fast-check also draws words it knows trip code up
 * ("arguments", "constructor"), and a bare word can be in a log line for reasons of its own.
 */
const passwordValue = fc
  .tuple(
    fc.stringMatching(/^[A-Za-z0-9!*()~-]{6,18}$/),
    fc.integer({ min: 0, max: 9 }),
    fc.constantFrom(...'!*()~-'),
  )
  .map(([text, digit, sign]) => `${text}${digit}${sign}`);

describe('redaction by value', () => {
  it('keeps every secret shape, under any parameter name, out of each log line and request_logs row', async () => {
    const client = await paidClient({ runtime });
    const sent: string[] = [];
    let metered = 0;
    const before = lines.length;
    const shape = fc.oneof(
      ...Object.values(secretShapes).map((make) =>
        fc.tuple(parameterName, fc.constant(null)).map(([name]) => [name, make()] as const),
      ),
      fc.tuple(passwordName, passwordValue).map(([name, value]) => [name, value] as const),
    );
    await fc.assert(
      fc.asyncProperty(shape, fc.boolean(), async ([name, value], encoded) => {
        sent.push(value);
        const query = `${encodeURIComponent(name)}=${encoded ? encodeURIComponent(value) : value}`;
        // A metered call (a request_logs row), a call with an unknown key and a console call (log lines).
        const paid = await app.inject({
          method: 'GET',
          url: `/v1/rates?market=bank&${query}`,
          headers: client.headers,
        });
        if (paid.statusCode === 200) metered += 1;
        await app.inject({
          method: 'GET',
          url: `/v1/rates?${query}`,
          headers: { authorization: 'Bearer sk_unknown' },
        });
        await app.inject({ method: 'GET', url: `/v1/account/fetch_plans?${query}` });
        // A line some code writes with the value in its message.
        runtime.log.warn(`a client sent ${name}=${value} to ${'/v1/rates?'}${query}`);
      }),
      { numRuns: 40 },
    );
    expect(metered).toBeGreaterThan(0);
    const rows = await eventually(async () => {
      const rows = await runtime.database.db
        .select()
        .from(requestLogs)
        .where(eq(requestLogs.appId, client.appId));
      expect(rows.reduce((n, row) => n + row.count, 0)).toBeGreaterThanOrEqual(metered);
      return rows;
    });
    const written = lines.slice(before).join('\n');
    const stored = JSON.stringify(rows);
    for (const value of sent) {
      expect(written).not.toContain(value);
      expect(written).not.toContain(encodeURIComponent(value));
      expect(stored).not.toContain(value);
      expect(stored).not.toContain(encodeURIComponent(value));
    }
    expect(stored).toContain('[redacted]');
  });

  it.each([
    ['?q=sk_0123456789abcdefABCDEF', '?q=[redacted]'],
    ['?callback=x&symbols=afxsig_0123456789abcdef', '?callback=x&symbols=[redacted]'],
    ['?k=sk%5F0123456789abcdefABCDEF', '?k=[redacted]'],
    ['?pass=hunter2-hunter2', '?pass=[redacted]'],
    ['?market=bank&task_list=1', '?market=bank&task_list=1'],
  ])('turns /v1/rates%s into /v1/rates%s', (query, redacted) => {
    expect(redactUrl(`/v1/rates${query}`)).toBe(`/v1/rates${redacted}`);
  });

  it('redacts a JWT and a password parameter in a line of text', () => {
    const token = jwt();
    expect(redactText(`session ${token} for user_pwd=s3cret!x`)).toBe(
      'session [redacted] for user_pwd=[redacted]',
    );
  });
});
