// Sign-ups cannot be used to flood an inbox, collect Free plans, or take the machine: one mailbox is one mailbox
// however it is spelled, sign-ups have a budget for everybody together, and password hashing waits in a bounded
// queue whose overflow is answered 503 with Retry-After.
import { eq, inArray } from 'drizzle-orm';
import { accounts } from '../src/db/schema';
import { createLogger } from '../src/logger';
import { mailboxOf } from '../src/mailbox';
import { createTestApp, eventually, type TestApp } from './support/test-app';

const PASSWORD = 'correct-horse-battery';

describe('mailboxOf', () => {
  it('reads case, +tags, and the dots Gmail ignores as one inbox, and keeps dots elsewhere', () => {
    expect(mailboxOf(' Ada.Okafor+News@Example.com')).toBe('ada.okafor@example.com');
    expect(mailboxOf('a.d.a+x@googlemail.com')).toBe('ada@gmail.com');
    expect(mailboxOf('ADA@gmail.com')).toBe('ada@gmail.com');
    expect(mailboxOf('a.da@example.com')).not.toBe(mailboxOf('ada@example.com'));
  });
});

describe('POST account/signup from 20 spellings of one mailbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const signup = (email: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/account/signup',
      payload: { email, password: PASSWORD, first_name: 'Ada', last_name: 'Okafor' },
      remoteAddress,
    });

  it('sends at most the mailbox budget of mails, keeps each address as typed, and gives one Free plan', async () => {
    const spellings = Array.from({ length: 20 }, (_, n) => `Tagged.Ada+${n}@example.com`);
    const answers = await Promise.all(spellings.map((email, n) => signup(email, `10.94.0.${n + 1}`)));
    expect(answers.every((res) => res.statusCode === 201 || res.statusCode === 429)).toBe(true);
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(3);
    // A sign-up of another mailbox after them: once its mail is out, theirs would be too.
    expect((await signup('sentinel@example.com', '10.94.1.1')).statusCode).toBe(201);
    await eventually(async () => {
      if (!(await t.outbox()).some((mail) => mail.to === 'sentinel@example.com')) throw new Error('not yet');
    });
    const toMailbox = (await t.outbox()).filter((mail) => mailboxOf(mail.to) === 'tagged.ada@example.com');
    expect(toMailbox).toHaveLength(1);

    const created = await t.runtime.database.db
      .select()
      .from(accounts)
      .where(eq(accounts.mailbox, 'tagged.ada@example.com'));
    expect(created).toHaveLength(3);
    expect(created.every((row) => /^tagged\.ada\+\d+@example\.com$/.test(row.email))).toBe(true);
    // Each account activated (by hand: only one link was mailed), signed in, and asks for a Free plan.
    await t.runtime.database.db
      .update(accounts)
      .set({ isActivated: true })
      .where(
        inArray(
          accounts.id,
          created.map((row) => row.id),
        ),
      );
    const plan = await t.createPlan({ name: 'Free', amount: 0, numberOfRequest: 100 });
    const freePlanAnswers: number[] = [];
    for (const [n, row] of created.entries()) {
      const signin = await t.app.inject({
        method: 'POST',
        url: '/v1/account/signin',
        payload: { email: row.email, password: PASSWORD },
        remoteAddress: `10.94.2.${n + 1}`,
      });
      expect(signin.statusCode).toBe(200);
      const { token } = signin.json().data as { token: string };
      const appId = await t.newApp({ token }, `App ${n}`);
      const free = await t.app.inject({
        method: 'POST',
        url: `/v1/account/initialize_payment/${appId}`,
        headers: { authorization: `Bearer ${token}` },
        payload: { plan: plan.json().data._id, currency: 'USD', isUpcoming: false },
      });
      freePlanAnswers.push(free.statusCode);
    }
    expect(freePlanAnswers).toEqual([201, 409, 409]);
  });
});

describe('POST account/signup from everybody together', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SIGNUPS_PER_MINUTE: '5' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once the budget of the minute is spent, whatever the client and mailbox', async () => {
    const answers = [];
    for (let n = 1; n <= 7; n++) {
      answers.push(
        await t.app.inject({
          method: 'POST',
          url: '/v1/account/signup',
          payload: { email: `everyone${n}@example.com`, password: PASSWORD, first_name: 'A', last_name: 'B' },
          remoteAddress: `10.95.0.${n}`,
        }),
      );
    }
    expect(answers.map((res) => res.statusCode)).toEqual([201, 201, 201, 201, 201, 429, 429]);
    expect(Number(answers[5]!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

/** 12 sign-ins at once with wrong passwords, each from an address of its own under `network`. */
function floodOfSignIns(t: TestApp, network: string) {
  return Promise.all(
    Array.from({ length: 12 }, (_, n) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/account/signin',
        payload: { email: `nobody${n}@example.com`, password: 'wrong-password-here' },
        remoteAddress: `${network}.${n + 1}`,
      }),
    ),
  );
}

describe('password hashing under a flood', () => {
  let t: TestApp;
  beforeAll(async () => {
    // One at a time, and no waiting: every sign-in that finds the hasher busy is turned away.
    t = await createTestApp({ PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_MAX_WAIT_MS: '1' });
  });
  afterAll(() => t.close());

  it('answers 503 with Retry-After past the wait limit, and the rest as usual', async () => {
    const answers = await floodOfSignIns(t, '10.96.0');
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.every((status) => status === 401 || status === 503)).toBe(true);
    expect(statuses).toContain(401);
    const busy = answers.find((res) => res.statusCode === 503)!;
    expect(busy).toBeDefined();
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json().message).toBe('We are busy right now. Please try again in 1 second.');
  });

  it('logs the first busy answer with its request, and the rest as one count when the server closes', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logged = await createTestApp(
      { PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_MAX_WAIT_MS: '1' },
      {
        log: createLogger(
          { logLevel: 'warn', logFormat: 'json' },
          { write: (line: string) => void lines.push(JSON.parse(line)) },
        ),
      },
    );
    let busy: number;
    try {
      busy = (await floodOfSignIns(logged, '10.97.0')).filter((res) => res.statusCode === 503).length;
    } finally {
      // Closing writes the count: the assertions read the log after it.
      await logged.close();
    }
    expect(busy).toBeGreaterThan(1);
    expect(lines.filter((line) => line.statusCode === 503)).toEqual([
      expect.objectContaining({
        level: 40,
        reqId: expect.any(String),
        msg: expect.stringMatching(/busy right now/),
      }),
      expect.objectContaining({
        level: 40,
        msg: 'more requests turned away as busy',
        answers: busy - 1,
        routes: { 'POST /v1/account/signin': busy - 1 },
      }),
    ]);
  });
});
