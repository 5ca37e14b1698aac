// Mail against a real SMTP server: a rates mailing reaches every subscriber exactly once although the server refuses
// connections for a while in the middle (the inline queue; BullMQ too when REDIS_URL is set). And the outbox keeps
// reset and activation links out of production logs.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createLogger, prettyDestination } from '../src/logger';
import { createMailer } from '../src/mail/mailer';
import { mailingListSubscribers, rateMailings } from '../src/db/schema';
import type { RedisWorker } from '../src/queue/queue';
import { createRuntime, type Runtime } from '../src/runtime';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink';
import { deleteRedisKeys, eventually, redisAvailable } from './support/test-app';

// A mailing to 1,000 active subscribers delivers exactly 1,000.
const SUBSCRIBERS = 1000;

/** A logger whose lines the test reads back. */
function capturedLog() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: pino({ level: 'info' }, destination) };
}

let dataDir: string;
let scratch: ScratchDatabase | undefined;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'afrofx-mail-'));
  scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'afrofx_mail')
    : undefined;
});
afterEach(async () => {
  await scratch?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const configFor = (env: Record<string, string>) =>
  loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url ?? '',
    REDIS_URL: '',
    PUBLIC_URL: 'http://afrofx.test',
    JWT_SECRET: 'a-test-secret-that-is-at-least-32-characters',
    DEMO_DATA: 'false',
    WEB_DIST: '',
    ...env,
  });

describe('the outbox (no SMTP_URL)', () => {
  const resetMail = {
    to: 'dev@example.com',
    subject: 'Reset your password',
    text: 'Reset it here: http://afrofx.test/developer/reset_password/secret-code',
    html: '<p>Reset</p>',
  };

  it.each([
    ['development', true],
    ['production', false],
  ])('in %s, logs the links of a mail written to the outbox: %s', async (env, logged) => {
    const { lines, log } = capturedLog();
    // Production refuses the sandbox payment provider.
    const payment = { PAYMENT_PROVIDER: 'basqet', BASQET_PUBLIC_KEY: 'pk', BASQET_SECRET_KEY: 'sk' };
    const runtime = await createRuntime(configFor({ NODE_ENV: env, ...payment }), {
      inMemoryDatabase: true,
      log,
    });
    await runtime.mailer.send(resetMail);
    await runtime.close();
    const written = lines.filter((line) => line.msg === 'mail written to the outbox');
    expect(written).toHaveLength(1);
    expect(JSON.stringify(written).includes('secret-code')).toBe(logged);
  });

  it('in the development log (pretty), prints each link on a line of its own', async () => {
    let printed = '';
    const terminal = new Writable({
      write(chunk: Buffer, _encoding, done) {
        printed += chunk.toString('utf8');
        done();
      },
    });
    const log = createLogger({ logLevel: 'info', logFormat: 'pretty' }, prettyDestination(terminal, false));
    const runtime = await createRuntime(configFor({ NODE_ENV: 'development', DEMO_DATA: 'false' }), {
      inMemoryDatabase: true,
      log,
    });
    await runtime.mailer.send(resetMail);
    await runtime.close();
    expect(printed.split('\n')).toContain('    ✉ http://afrofx.test/developer/reset_password/secret-code');
    expect(printed).toContain(path.join(dataDir, 'outbox'));
  });
});

describe('a message sent with a delivery record', () => {
  let sink: SmtpSink;
  beforeEach(async () => {
    sink = await startSmtpSink();
  });
  afterEach(() => sink.close());

  const mailer = () =>
    createMailer({
      smtpUrl: sink.url,
      from: 'AfroFX <rates@afrofx.local>',
      outboxDir: dataDir,
      logLinks: false,
      log: { info: () => undefined },
    });
  const message = { to: 'ada@example.com', subject: 'Rates', text: 'Rates', html: '<p>Rates</p>' };

  it('is not delivered when the record fails before letting the dot go, and the failure is the record’s', async () => {
    await expect(
      mailer().send(message, async () => {
        throw new Error('database down');
      }),
    ).rejects.toThrow('database down');
    // The connection drops mid-DATA: the server never takes the message.
    await eventually(async () => expect(sink.closedConnections).toBe(1));
    expect(sink.delivered).toHaveLength(0);
  });

  it('is delivered once the record lets the dot go, and not before', async () => {
    let release: (() => void) | undefined;
    const sent = mailer().send(message, async (letGo) => {
      release = letGo;
    });
    await eventually(async () => expect(release).toBeDefined());
    // The server has the message's bytes, all but the final dot.
    await eventually(async () => expect(sink.receiving).toBeGreaterThan(0));
    expect(sink.delivered).toHaveLength(0);
    release!();
    await sent;
    expect(sink.delivered.map((mail) => mail.to)).toEqual([['ada@example.com']]);
  });

  it('delivers a message many stream buffers long whole, the record taken once at its end', async () => {
    const html = `<p>${'Rates for every market. '.repeat(20_000)}</p>`;
    let records = 0;
    await mailer().send({ ...message, html }, async (letGo) => {
      records += 1;
      letGo();
    });
    expect(records).toBe(1);
    expect(sink.delivered).toHaveLength(1);
    expect(sink.delivered[0]!.raw.length).toBeGreaterThan(html.length);
  });

  it('reports a refusal after the dot as a failed send', async () => {
    sink.beforeAccepting = async () => {
      throw new Error('Mailbox busy');
    };
    await expect(mailer().send(message, async (letGo) => letGo())).rejects.toThrow(/Mailbox busy/);
    expect(sink.delivered).toHaveLength(0);
  });
});

describe.each([
  ['the inline queue', false],
  ['BullMQ', true],
])('a rates mailing over SMTP with %s', (_driver, withRedis) => {
  // The inline run uses the embedded database and no Redis whatever the environment says, so the pass with Redis
  // (where BullMQ runs the same mailing) leaves it to the pass without: a thousand mails once per CI, not twice.
  const run = withRedis === redisAvailable ? it : it.skip;
  let sink: SmtpSink;
  let runtime: Runtime;
  let worker: RedisWorker | undefined;
  const prefix = `afrofx-test-mail-${randomBytes(6).toString('hex')}`;

  beforeEach(async () => {
    sink = await startSmtpSink();
  });
  afterEach(async () => {
    await worker?.close();
    await runtime?.close();
    await sink.close();
    if (withRedis) await deleteRedisKeys(process.env.REDIS_URL!, prefix);
  });

  run(
    `delivers to each of ${SUBSCRIBERS} subscribers exactly once though the server refuses connections midway`,
    async () => {
      const { lines, log } = capturedLog();
      runtime = await createRuntime(
        configFor({ SMTP_URL: sink.url, REDIS_URL: withRedis ? process.env.REDIS_URL! : '' }),
        { inMemoryDatabase: true, queuePrefix: prefix, jobBackoffMs: 10, log },
      );
      const db = runtime.database.db;
      const subscribers = await db
        .insert(mailingListSubscribers)
        .values(
          Array.from({ length: SUBSCRIBERS }, (_, i) => ({
            email: `reader-${i}@example.com`,
            isActivated: true,
          })),
        )
        .returning({ id: mailingListSubscribers.id, email: mailingListSubscribers.email });

      // The server goes away after half the mailing, and comes back once the job has failed twice on it.
      const failedAttempts = () => lines.filter((line) => String(line.msg).startsWith('job failed')).length;
      sink.onDelivered = () => {
        if (sink.delivered.length === SUBSCRIBERS / 2) void sink.stop();
      };
      const [mailing] = await db.insert(rateMailings).values({}).returning({ id: rateMailings.id });
      worker = runtime.startWorker();
      await runtime.queue.enqueue('rates-mail', { mailingId: mailing!.id }, { jobId: mailing!.id });

      await eventually(async () => expect(failedAttempts()).toBeGreaterThanOrEqual(2), 120_000);
      expect(sink.delivered).toHaveLength(SUBSCRIBERS / 2);
      await sink.start();

      await eventually(async () => {
        const [row] = await db.select().from(rateMailings).where(eq(rateMailings.id, mailing!.id));
        expect(row!.completedAt).not.toBeNull();
      }, 180_000);
      expect(sink.delivered).toHaveLength(SUBSCRIBERS);
      expect(new Set(sink.delivered.map((mail) => mail.messageId)).size).toBe(SUBSCRIBERS);
      expect(sink.delivered.map((mail) => mail.to).sort()).toEqual(subscribers.map((s) => [s.email]).sort());
      expect(sink.delivered.map((mail) => mail.messageId).sort()).toEqual(
        subscribers.map((s) => `<rates-${mailing!.id}-${s.id}@afrofx>`).sort(),
      );
    },
    330_000,
  );
});
