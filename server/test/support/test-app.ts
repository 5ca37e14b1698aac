// Builds the real app on a real database for one test file: in-memory PGlite by default, or a database of its
// own on the server named by DATABASE_URL (created here, dropped on close). With REDIS_URL the queue is BullMQ
// under a key prefix of its own, consumed by a worker in this process.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import IORedis from 'ioredis';
import type { RenderPage } from '@afrofx/shared';
import { buildApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../src/runtime';
import { createScratchDatabase } from './scratch-database';

export const ADMIN = { email: 'admin@example.com', password: 'afrofx-admin-test' } as const;
export const redisAvailable = Boolean(process.env.REDIS_URL);

export interface OutboxMail {
  to: string;
  subject: string;
  raw: string;
  links: string[];
  attachments: Array<{ filename: string; contentType: string; content: string }>;
}

/** The fixtures every test file builds on, made through the app's own calls as the console and portal make them. */
interface AppFixtures {
  /** The admin's sign-in, made once per app. */
  adminToken(): Promise<string>;
  /** The admin's sign-in as request headers. */
  adminHeaders(): Promise<{ authorization: string }>;
  /** Enters a rate as the admin and checks the answer's status: 201 unless a refusal is expected. */
  createRate(rate: Record<string, unknown>, status?: number): Promise<LightMyRequestResponse>;
  /**
   * Creates a plan as the admin (named `Plan <n>`, $50 a year for 1000 requests, on sale, unless `plan` says
   * otherwise) and checks the answer's status: 201 unless a refusal is expected.
   */
  createPlan(plan?: Record<string, unknown>, status?: number): Promise<LightMyRequestResponse>;
  /** A new app of the developer (named `App <random>` unless named), its id. */
  newApp(developer: { token: string }, name?: string): Promise<string>;
  /** E-mails written to the outbox so far, oldest first. */
  outbox(): Promise<OutboxMail[]>;
  /** The e-mails to `email` so far, oldest first; with `subject`, only those of that subject. */
  mailsTo(email: string, subject?: string | RegExp): Promise<OutboxMail[]>;
}

export interface TestApp extends AppFixtures {
  app: FastifyInstance;
  runtime: Runtime;
  config: Config;
  close(): Promise<void>;
}

/** The names of the keys under `pattern`, read with SCAN so a busy shared Redis is not held up. */
async function keysUnder(redis: IORedis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

export async function deleteRedisKeys(redisUrl: string, prefix: string) {
  const redis = new IORedis(redisUrl);
  try {
    const keys = await keysUnder(redis, `${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

/** The values of the keys under `pattern`, to see what Redis itself counted. */
export async function redisValues(redisUrl: string, pattern: string): Promise<string[]> {
  const redis = new IORedis(redisUrl);
  try {
    const keys = await keysUnder(redis, pattern);
    return keys.length > 0 ? ((await redis.mget(...keys)) as string[]) : [];
  } finally {
    redis.disconnect();
  }
}

const QUOTED_PRINTABLE_SOFT_BREAK = /=\r?\n/g;

/** The attached files of a message as the outbox wrote it (nodemailer: unix newlines, base64 attachments). */
function attachmentsOf(raw: string): OutboxMail['attachments'] {
  return raw.split(/^--\S+$/m).flatMap((part) => {
    const [head = '', ...body] = part.replace(/^\n/, '').split('\n\n');
    const filename = /^Content-Disposition: attachment;\s*filename="?([^"\n]+)"?/im.exec(head)?.[1];
    if (!filename) return [];
    const text = body.join('\n\n');
    return [
      {
        filename,
        contentType: /^Content-Type: ([^;\n]+)/im.exec(head)?.[1] ?? '',
        content: /^Content-Transfer-Encoding: base64$/im.test(head)
          ? Buffer.from(text, 'base64').toString('utf8')
          : text,
      },
    ];
  });
}

/** The e-mails the outbox of `dataDir` holds, oldest first, with quoted-printable soft breaks undone. */
async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(
    files.map(async (file) => {
      const raw = await readFile(path.join(dir, file), 'utf8');
      const decoded = raw.replace(QUOTED_PRINTABLE_SOFT_BREAK, '').replace(/=3D/g, '=');
      return {
        raw: decoded,
        to: /^To: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
        subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
        links: [...new Set(decoded.match(/https?:\/\/[^\s"'<>]+/g) ?? [])],
        attachments: attachmentsOf(raw),
      };
    }),
  );
}

/** The fixtures of an app whose outbox is under `dataDir`; the admin signs in once, at the first call that needs it. */
function appFixtures(app: FastifyInstance, dataDir: string): AppFixtures {
  let token: string | undefined;
  let plans = 0;
  const adminToken = async () => {
    if (token) return token;
    const res = await app.inject({ method: 'POST', url: '/v1/admin/authenticate', payload: ADMIN });
    if (res.statusCode !== 200) throw new Error(`admin sign-in failed: ${res.body}`);
    token = res.json().data.token as string;
    return token;
  };
  const adminHeaders = async () => ({ authorization: `Bearer ${await adminToken()}` });
  const asAdmin = async (url: string, payload: Record<string, unknown>, status: number) => {
    const res = await app.inject({ method: 'POST', url, headers: await adminHeaders(), payload });
    expect(res.statusCode).toBe(status);
    return res;
  };
  const outbox = () => readOutbox(dataDir);
  return {
    adminToken,
    adminHeaders,
    createRate: (rate, status = 201) => asAdmin('/v1/admin/create_rate', rate, status),
    createPlan: (plan = {}, status = 201) =>
      asAdmin(
        '/v1/admin/create_plan',
        { name: `Plan ${++plans}`, amount: 50, numberOfRequest: 1000, onSale: true, ...plan },
        status,
      ),
    async newApp(developer, name = `App ${Math.random().toString(36).slice(2, 8)}`) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/apps/create_app',
        headers: { authorization: `Bearer ${developer.token}` },
        payload: { name },
      });
      expect(res.statusCode).toBe(201);
      return res.json().data._id as string;
    },
    outbox,
    async mailsTo(email, subject) {
      const wanted = (mailSubject: string) =>
        subject === undefined ||
        (typeof subject === 'string' ? mailSubject === subject : subject.test(mailSubject));
      return (await outbox()).filter((m) => m.to === email && wanted(m.subject));
    },
  };
}

/**
 * The public pages' renderer from the web app's source (web/src/entry-server.tsx), as the web build makes it: jest
 * compiles it like the tests. Imported by a path in a variable, so that the server's type check does not read the web's JSX.
 */
export async function webRenderer(): Promise<RenderPage> {
  const source = path.resolve(__dirname, '../../../web/src/entry-server.tsx');
  return ((await import(source)) as { renderPage: RenderPage }).renderPage;
}

export async function createTestApp(
  env: Record<string, string> = {},
  { renderPage, ...options }: Pick<RuntimeOptions, 'now' | 'log'> & { renderPage?: RenderPage } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'afrofx-test-'));
  const serverDb = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'afrofx_test')
    : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: serverDb?.url,
    REDIS_URL: process.env.REDIS_URL,
    PUBLIC_URL: 'http://afrofx.test',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DEMO_DATA: 'false',
    WEB_DIST: '',
    // Tests' webhook receivers listen on 127.0.0.1, and their retries wait milliseconds, not minutes.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_BASE_MS: '20',
    // An endpoint parked by a run of failures gets its trial attempt soon.
    WEBHOOK_PARK_COOLDOWN_MS: '200',
    // Nothing leaves this machine: the central banks are a closed local port unless a test brings their fake.
    OFFICIAL_CBN_URL: 'http://127.0.0.1:9/cbn',
    OFFICIAL_CBK_URL: 'http://127.0.0.1:9/cbk',
    OFFICIAL_SARB_URL: 'http://127.0.0.1:9/sarb',
    OFFICIAL_BOG_URL: 'http://127.0.0.1:9/bog',
    ...env,
  });
  const keyPrefix = `afrofx-test-${randomBytes(6).toString('hex')}`;
  const runtime = await createRuntime(config, {
    inMemoryDatabase: true,
    queuePrefix: keyPrefix,
    jobBackoffMs: 10,
    ...options,
  });
  const worker = runtime.startWorker();
  const app = await buildApp(runtime, { renderPage });
  await app.ready();

  return {
    app,
    runtime,
    config,
    ...appFixtures(app, dataDir),
    async close() {
      await app.close();
      await worker?.close();
      await runtime.close();
      await serverDb?.drop();
      if (config.redisUrl) await deleteRedisKeys(config.redisUrl, keyPrefix);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The test app listening on a free port of its own, with PUBLIC_URL pointing there: for the sandbox provider,
 * whose fake API, script and webhook calls go over real HTTP.
 */
export async function createListeningTestApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; base: string }> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ PUBLIC_URL: base, ...env });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, base };
}

/** Polls until the check passes (jobs run asynchronously on either queue driver). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
