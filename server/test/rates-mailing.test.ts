// The rates mail as a reader's mail client sees it over real SMTP: a plain-text part, the reader's own unsubscribe
// link, and RFC 8058 one-click headers; each link takes off its own address and no other.
import { eq } from 'drizzle-orm';
import { mailingListSubscribers, rateMailingRecipients, rateMailings } from '../src/db/schema';
import { startSmtpSink, type DeliveredMail, type SmtpSink } from './support/smtp-sink';
import { createTestApp, eventually, type TestApp } from './support/test-app';

let sink: SmtpSink;
let t: TestApp;
beforeEach(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: sink.url });
});
afterEach(async () => {
  await t.close();
  await sink.close();
});

// A machine busy with other suites may take a while to start the app and the queue.
const TEST_MS = 90_000;

const READERS = ['ada@example.com', 'bola@example.com'];

async function addReaders() {
  return t.runtime.database.db
    .insert(mailingListSubscribers)
    .values(READERS.map((email) => ({ email, isActivated: true })))
    .returning({ id: mailingListSubscribers.id, email: mailingListSubscribers.email });
}

/** Queues a rates mailing as Send Rates Mail does, and waits until the job has completed it. */
async function mailRates() {
  const db = t.runtime.database.db;
  const [mailing] = await db.insert(rateMailings).values({}).returning({ id: rateMailings.id });
  await t.runtime.queue.enqueue('rates-mail', { mailingId: mailing!.id }, { jobId: mailing!.id });
  await eventually(async () => {
    const [row] = await db.select().from(rateMailings).where(eq(rateMailings.id, mailing!.id));
    expect(row!.completedAt).not.toBeNull();
  }, 30_000);
}

/** The header block with folded lines joined, and the body with quoted-printable soft breaks undone. */
function parse(mail: DeliveredMail) {
  const [head = '', ...body] = mail.raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(headers)?.[1]?.trim();
  const decoded = body
    .join('\n\n')
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
  return { header, decoded };
}

const mailTo = (email: string) => {
  const mail = sink.delivered.find((m) => m.to.includes(email));
  if (!mail) throw new Error(`no mail to ${email}`);
  return parse(mail);
};

const oneClickUrl = (email: string) =>
  /<(http[^>]+)>/.exec(mailTo(email).header('List-Unsubscribe') ?? '')![1]!;

const pageLinkToken = (email: string) =>
  /http:\/\/afrofx\.test\/unsubscribe\/([\w.-]+)/.exec(mailTo(email).decoded)![1]!;

async function activeAddresses(): Promise<string[]> {
  const rows = await t.runtime.database.db
    .select({ email: mailingListSubscribers.email })
    .from(mailingListSubscribers)
    .where(eq(mailingListSubscribers.isActivated, true));
  return rows.map((r) => r.email).sort();
}

describe('a rates mail', () => {
  it(
    'has a plain-text part, its reader’s unsubscribe link and one-click List-Unsubscribe headers',
    async () => {
      const readers = await addReaders();
      await mailRates();

      expect(sink.delivered).toHaveLength(2);
      const ada = mailTo('ada@example.com');
      expect(ada.decoded).toMatch(/^Content-Type: text\/plain/im);
      expect(ada.decoded).toMatch(/^Content-Type: text\/html/im);
      expect(ada.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      expect(ada.header('List-Unsubscribe')).toMatch(
        /^<http:\/\/afrofx\.test\/v1\/user\/unsubscribe\/[\w.-]+>, <mailto:rates@afrofx\.local\?subject=unsubscribe%20[\w.-]+>$/,
      );
      // A link per reader, which is not the bare id.
      const tokens = READERS.map(pageLinkToken);
      expect(new Set(tokens).size).toBe(2);
      expect(tokens).not.toContain(readers[0]!.id);
      expect(oneClickUrl('ada@example.com')).toBe(`http://afrofx.test/v1/user/unsubscribe/${tokens[0]}`);
    },
    TEST_MS,
  );
});

describe('a rates mailing’s record of who was sent what', () => {
  /** Whether the recipient row of this mail's reader exists; polled while the sink holds its answer. */
  async function recordedWithin(mail: DeliveredMail, readers: Array<{ id: string; email: string }>) {
    const reader = readers.find((r) => mail.to.includes(r.email))!;
    try {
      await eventually(async () => {
        const rows = await t.runtime.database.db
          .select()
          .from(rateMailingRecipients)
          .where(eq(rateMailingRecipients.subscriberId, reader.id));
        expect(rows).toHaveLength(1);
      });
      return true;
    } catch {
      return false;
    }
  }

  it(
    'is committed before the mail server has the message, so a worker killed after its answer repeats no one',
    async () => {
      const readers = await addReaders();
      const recordedAtDot: boolean[] = [];
      // Until the sink answers, a sender that records after the answer has recorded nothing.
      sink.beforeAccepting = async (mail) => {
        recordedAtDot.push(await recordedWithin(mail, readers));
      };
      await mailRates();
      expect(recordedAtDot).toEqual([true, true]);
      expect(sink.delivered).toHaveLength(2);
    },
    TEST_MS,
  );

  it(
    'is taken back when the server refuses the message after its dot, and the retry delivers it once',
    async () => {
      const readers = await addReaders();
      let refusals = 0;
      sink.beforeAccepting = async (mail) => {
        if (mail.to.includes('bola@example.com') && refusals === 0) {
          refusals += 1;
          throw new Error('Try again later');
        }
      };
      await mailRates();
      expect(refusals).toBe(1);
      expect(sink.delivered.map((m) => m.to[0]).sort()).toEqual(READERS);
      const rows = await t.runtime.database.db.select().from(rateMailingRecipients);
      expect(rows.map((r) => r.subscriberId).sort()).toEqual(readers.map((r) => r.id).sort());
    },
    TEST_MS,
  );
});

describe('POST /v1/user/unsubscribe/:token', () => {
  it(
    'one-click (RFC 8058 form POST) deactivates that address only, and the next mailing skips it',
    async () => {
      await addReaders();
      await mailRates();

      const res = await t.app.inject({
        method: 'POST',
        url: new URL(oneClickUrl('ada@example.com')).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(
        'You have been unsubscribed. You will get no more daily rates e-mails.',
      );
      expect(await activeAddresses()).toEqual(['bola@example.com']);

      sink.delivered.length = 0;
      await mailRates();
      expect(sink.delivered.map((m) => m.to)).toEqual([['bola@example.com']]);
    },
    TEST_MS,
  );

  it(
    'from the link in the mail (the web page’s POST) deactivates that address; a repeat says so',
    async () => {
      await addReaders();
      await mailRates();
      const url = `/v1/user/unsubscribe/${pageLinkToken('bola@example.com')}`;

      const first = await t.app.inject({ method: 'POST', url });
      expect(first.statusCode).toBe(200);
      expect(await activeAddresses()).toEqual(['ada@example.com']);
      const again = await t.app.inject({ method: 'POST', url });
      expect(again.json().message).toBe('This address is already unsubscribed from daily rates.');
      expect(await activeAddresses()).toEqual(['ada@example.com']);
    },
    TEST_MS,
  );

  it(
    'refuses a token made for another address, a changed one and a bare id with 400, and changes nothing',
    async () => {
      const readers = await addReaders();
      await mailRates();
      const [adaId, adaSignature] = pageLinkToken('ada@example.com').split('.');
      const bolaId = readers.find((r) => r.email === 'bola@example.com')!.id;
      const flipped = adaSignature!.startsWith('A')
        ? `B${adaSignature!.slice(1)}`
        : `A${adaSignature!.slice(1)}`;

      for (const token of [
        `${bolaId}.${adaSignature}`,
        `${adaId}.${flipped}`,
        `${adaId}.${adaSignature}.x`,
        adaId!,
        bolaId,
      ]) {
        const res = await t.app.inject({ method: 'POST', url: `/v1/user/unsubscribe/${token}` });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(
          'This unsubscribe link is not valid. Please use the link from your latest rates e-mail.',
        );
      }
      expect(await activeAddresses()).toEqual(READERS);
    },
    TEST_MS,
  );

  it(
    'does not unsubscribe on GET, which mail scanners send by themselves',
    async () => {
      await addReaders();
      await mailRates();
      const res = await t.app.inject({
        method: 'GET',
        url: new URL(oneClickUrl('ada@example.com')).pathname,
      });
      expect(res.statusCode).toBe(404);
      expect(await activeAddresses()).toEqual(READERS);
    },
    TEST_MS,
  );
});
