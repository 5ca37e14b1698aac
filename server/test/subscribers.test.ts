import { eq } from 'drizzle-orm';
import { rateMailingRecipients, rateMailings } from '../src/db/schema';
import { jobRunner } from '../src/jobs/run-job';
import { createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const UNKNOWN_ID = '7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c';
/** For calls made straight to the service: the per-address mail window is the route's business. */
const mailAllowed = async () => true;

interface Subscriber {
  _id: string;
  email: string;
  isActivated: boolean;
  createdAt: string;
}

function subscribe(payload: unknown, app: TestApp = t) {
  return app.app.inject({
    method: 'POST',
    url: '/v1/user/create_email_sub',
    payload: payload as Record<string, unknown>,
  });
}

function confirm(id: string, app: TestApp = t) {
  return app.app.inject({ method: 'POST', url: `/v1/user/confirmation/${id}` });
}

async function mailingList(query = '', app: TestApp = t) {
  const res = await app.app.inject({
    method: 'GET',
    url: `/v1/admin/fetch_mailing_list${query}`,
    headers: await app.adminHeaders(),
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    data: Subscriber[];
    message: string;
    pagination: { next: number | null; count: number };
  };
}

async function subscriberNamed(email: string, app: TestApp = t) {
  const found = (await mailingList('', app)).data.find((s) => s.email === email);
  if (!found) throw new Error(`${email} is not on the mailing list`);
  return found;
}

const CONFIRMATION_SUBJECT = 'Confirm your AfroFX rates subscription';

describe('POST user/create_email_sub', () => {
  it('stores an inactive address and mails it a confirmation link', async () => {
    const res = await subscribe({ email: 'ngozi@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: null,
      message: 'Thanks for subscribing! Check your e-mail for a link to confirm your subscription.',
    });

    const stored = await subscriberNamed('ngozi@example.com');
    expect(stored).toMatchObject({
      isActivated: false,
      _id: expect.any(String),
      createdAt: expect.any(String),
    });
    const [mail] = await eventually(async () => {
      const mails = await t.mailsTo('ngozi@example.com', CONFIRMATION_SUBJECT);
      expect(mails).toHaveLength(1);
      return mails;
    });
    expect(mail!.links).toContain(`http://afrofx.test/confirmation/${stored._id}`);
  });

  it('does not store the same address twice, whatever its case, and answers 200', async () => {
    await subscribe({ email: 'kofi@example.com' });
    const before = (await mailingList()).pagination.count;
    const again = await subscribe({ email: 'KOFI@Example.com' });
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe(
      'Thanks for subscribing! Check your e-mail for a link to confirm your subscription.',
    );
    expect((await mailingList()).pagination.count).toBe(before);
  });

  it('mails the confirmation link again when an unconfirmed address subscribes again, once per few minutes', async () => {
    expect((await subscribe({ email: 'zola@example.com' })).statusCode).toBe(200);
    expect((await subscribe({ email: 'zola@example.com' })).statusCode).toBe(200);
    expect((await subscribe({ email: 'zola@example.com' })).statusCode).toBe(200);
    // Past the window (the route's check), a repeat mails the same link again.
    await t.runtime.services.subscribers.subscribe('zola@example.com', mailAllowed);
    const { _id } = await subscriberNamed('zola@example.com');
    await eventually(async () => {
      const mails = await t.mailsTo('zola@example.com', CONFIRMATION_SUBJECT);
      expect(mails).toHaveLength(2);
      expect(mails.every((m) => m.links.includes(`http://afrofx.test/confirmation/${_id}`))).toBe(true);
    });
  });

  it('treats an address with surrounding spaces as the same address', async () => {
    await subscribe({ email: 'amara@example.com' });
    const before = (await mailingList()).pagination.count;
    const again = await subscribe({ email: '  Amara@Example.com ' });
    expect(again.statusCode).toBe(200);
    expect((await mailingList()).pagination.count).toBe(before);
  });

  // The answer must not tell whether an address is a confirmed subscriber.
  it('answers a confirmed address exactly as a new one', async () => {
    const fresh = await subscribe({ email: 'tolu@example.com' });
    await subscribe({ email: 'tunde@example.com' });
    await confirm((await subscriberNamed('tunde@example.com'))._id);
    const confirmed = await subscribe({ email: 'tunde@example.com' });
    expect([confirmed.statusCode, confirmed.json()]).toEqual([fresh.statusCode, fresh.json()]);
  });

  it.each([
    [
      'an invalid e-mail',
      { email: 'not-an-email' },
      'Please enter a valid e-mail address, like name@example.com.',
    ],
    ['a missing e-mail', {}, 'E-mail address is required.'],
    [
      'a smuggled field',
      { email: 'smuggler@example.com', isActivated: true },
      'The field "isActivated" is not accepted here.',
    ],
  ])('rejects %s with 400 and stores nothing', async (_name, body, message) => {
    const before = (await mailingList()).pagination.count;
    const res = await subscribe(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message });
    expect((await mailingList()).pagination.count).toBe(before);
  });
});

describe('POST user/confirmation/{id}', () => {
  it('activates the subscription, and says so again without changing it', async () => {
    await subscribe({ email: 'wanjiku@example.com' });
    const { _id } = await subscriberNamed('wanjiku@example.com');

    const first = await confirm(_id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ data: null, message: 'Your subscription has been activated.' });
    expect(await subscriberNamed('wanjiku@example.com')).toMatchObject({ _id, isActivated: true });

    const second = await confirm(_id);
    expect(second.statusCode).toBe(200);
    expect(second.json().message).toBe('Your subscription has already been activated.');
  });

  it('answers 404 with a message for an unknown id', async () => {
    const res = await confirm(UNKNOWN_ID);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'This confirmation link is not valid. The subscription may have been removed.',
    });
  });

  it('answers 400 for an id that is not one', async () => {
    const res = await confirm('not-a-uuid');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This confirmation link is not valid or has expired.');
  });
});

describe('GET admin/fetch_mailing_list', () => {
  it('lists the mailing list by default and the API waiting list on request', async () => {
    await subscribe({ email: 'reader@example.com' });
    await t.runtime.services.subscribers.subscribe(
      'builder@fintech.example',
      mailAllowed,
      'api_wait_list_user',
    );

    const mailing = await mailingList();
    expect(mailing.message).toBe('Mailing list fetched.');
    expect(mailing.data.map((s) => s.email)).toContain('reader@example.com');
    expect(mailing.data.map((s) => s.email)).not.toContain('builder@fintech.example');
    expect(await mailingList('?mail_type=mailing_list')).toEqual(mailing);

    const waiting = await mailingList('?mail_type=api_wait_list_user');
    expect(waiting.data.map((s) => s.email)).toContain('builder@fintech.example');
    expect(waiting.data.map((s) => s.email)).not.toContain('reader@example.com');
  });

  it('rejects an unknown mail_type with 400', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/fetch_mailing_list?mail_type=everyone',
      headers: await t.adminHeaders(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'The mail_type parameter must be one of: mailing_list, api_wait_list_user.',
    );
  });

  it('pages 20 at a time, newest first, and ends', async () => {
    const total = (await mailingList('?mail_type=api_wait_list_user')).pagination.count;
    for (let i = 0; i < 25; i++)
      await t.runtime.services.subscribers.subscribe(
        `waiting${i}@example.com`,
        mailAllowed,
        'api_wait_list_user',
      );
    const count = total + 25;

    const first = await mailingList('?mail_type=api_wait_list_user');
    expect(first.data).toHaveLength(20);
    // Newest first. Addresses added within one millisecond share a time (PGlite's clock has no finer grain), and the
    // order among them is their ids', so the last one added is among the first page's newest, not always first.
    const times = first.data.map((s) => Date.parse(s.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const lastAdded = first.data.find((s) => s.email === 'waiting24@example.com');
    expect(lastAdded?.createdAt).toBe(first.data[0]!.createdAt);
    expect(first.pagination).toEqual({ next: 2, count });

    const seen = first.data.map((s) => s._id);
    let page = first.pagination.next;
    while (page !== null) {
      const body = await mailingList(`?mail_type=api_wait_list_user&page=${page}`);
      expect(body.pagination.count).toBe(count);
      seen.push(...body.data.map((s) => s._id));
      page = body.pagination.next;
    }
    expect(new Set(seen).size).toBe(count);

    const past = await mailingList('?mail_type=api_wait_list_user&page=99');
    expect(past.data).toEqual([]);
    expect(past.pagination).toEqual({ next: null, count });
  });
});

describe('DELETE admin/remove_email/{id}', () => {
  it('removes the address, then answers 404', async () => {
    await subscribe({ email: 'leaving@example.com' });
    const { _id } = await subscriberNamed('leaving@example.com');

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/remove_email/${_id}`,
      headers: await t.adminHeaders(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null, message: 'Email removed successfully.' });
    expect((await mailingList()).data.map((s) => s.email)).not.toContain('leaving@example.com');

    const again = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/remove_email/${_id}`,
      headers: await t.adminHeaders(),
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Subscriber not found.');
  });
});

describe('admin mailing-list calls without an admin token', () => {
  it.each([
    ['GET', '/v1/admin/fetch_mailing_list'],
    ['DELETE', `/v1/admin/remove_email/${UNKNOWN_ID}`],
    ['POST', '/v1/admin/send_rate_to_mail'],
  ] as const)('%s %s without a token is 401', async (method, url) => {
    const res = await t.app.inject({ method, url });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Authentication required.');
  });
});

describe('POST admin/send_rate_to_mail', () => {
  // A state of its own: the recipient count depends on every subscriber in the database.
  let m: TestApp;
  const active = ['ada@example.com', 'bola@example.com', 'chidi@example.com'];
  const inactive = 'dayo@example.com';
  const RATES_SUBJECT = /^AfroFX rates for /;

  beforeAll(async () => {
    m = await createTestApp();
    for (const email of [...active, inactive]) await subscribe({ email }, m);
    for (const email of active) await confirm((await subscriberNamed(email, m))._id, m);
    // Waiting-list addresses never get the rates mail, even once activated.
    await m.runtime.services.subscribers.subscribe(
      'waiting@fintech.example',
      mailAllowed,
      'api_wait_list_user',
    );
    const [waiting] = (await mailingList('?mail_type=api_wait_list_user', m)).data;
    await m.runtime.services.subscribers.confirm(waiting!._id);
    for (const rate of [
      { market: 'black_market_cash', asset: 'dollar', base: 'naira', buy: 1450.5, sell: 1470.25 },
      { market: 'bank', asset: 'euro', base: 'rand', buy: 20.1, sell: 20.4 },
    ]) {
      await m.createRate(rate);
    }
  });
  afterAll(() => m.close());

  async function ratesMailsPerAddress() {
    const counts = new Map<string, number>();
    for (const mail of await m.outbox()) {
      if (RATES_SUBJECT.test(mail.subject)) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1);
    }
    return counts;
  }

  async function completedMailing() {
    return eventually(async () => {
      const [mailing] = await m.runtime.database.db.select().from(rateMailings);
      expect(mailing?.completedAt).toBeInstanceOf(Date);
      return mailing!;
    });
  }

  it('mails the latest rates once to every active subscriber and to nobody else', async () => {
    const res = await m.app.inject({
      method: 'POST',
      url: '/v1/admin/send_rate_to_mail',
      headers: await m.adminHeaders(),
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({
      data: { recipients: 3 },
      message: 'Rates mail is being sent to 3 subscriber(s).',
    });

    await completedMailing();
    expect(Object.fromEntries(await ratesMailsPerAddress())).toEqual(
      Object.fromEntries(active.map((email) => [email, 1])),
    );
    const [mail] = await m.mailsTo(active[0]!, RATES_SUBJECT);
    expect(mail!.raw).toContain('USD/NGN Cash: buy');
    expect(mail!.raw).toContain('1,450.50');
    expect(mail!.raw).toContain('EURO/ZAR Bank: buy');
  });

  it('sends nobody a second copy when the same mailing job runs again', async () => {
    const mailing = await completedMailing();
    const before = await ratesMailsPerAddress();
    const run = jobRunner({
      config: m.config,
      services: m.runtime.services,
      mailer: m.runtime.mailer,
      log: m.runtime.log,
    });
    await run({ name: 'rates-mail', data: { mailingId: mailing.id } });
    expect(await ratesMailsPerAddress()).toEqual(before);
  });

  it('a retried mailing skips the recipients it already recorded', async () => {
    const db = m.runtime.database.db;
    const [mailing] = await db.insert(rateMailings).values({}).returning();
    const first = await subscriberNamed(active[0]!, m);
    await db.insert(rateMailingRecipients).values({ mailingId: mailing!.id, subscriberId: first._id });
    const before = await ratesMailsPerAddress();

    const run = jobRunner({
      config: m.config,
      services: m.runtime.services,
      mailer: m.runtime.mailer,
      log: m.runtime.log,
    });
    await run({ name: 'rates-mail', data: { mailingId: mailing!.id } });

    const after = await ratesMailsPerAddress();
    expect(after.get(active[0]!)).toBe(before.get(active[0]!));
    expect(after.get(active[1]!)).toBe(before.get(active[1]!)! + 1);
    expect(after.get(active[2]!)).toBe(before.get(active[2]!)! + 1);
    expect(after.has(inactive)).toBe(false);
    const recorded = await db
      .select()
      .from(rateMailingRecipients)
      .where(eq(rateMailingRecipients.mailingId, mailing!.id));
    expect(recorded).toHaveLength(3);
  });
});
