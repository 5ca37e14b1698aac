import { eq, sql } from 'drizzle-orm';
import { createSigner } from 'fast-jwt';
import { accounts, accountTokens, signInFailures } from '../src/db/schema';
import { hashPassword } from '../src/passwords';
import { ADMIN, createTestApp, eventually, type OutboxMail, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PASSWORD = 'correct-horse-battery';
const NEW_PASSWORD = 'staple-paper-clip-42';
const INVALID_CREDENTIALS = 'Invalid email or password.';
const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';
const RESET_LINK_INVALID = 'This password reset link is invalid, expired or already used.';
const ACTIVATION_LINK_INVALID = 'This activation link is invalid or has expired.';
const SIGNED_UP = { data: null, message: 'Thanks for signing up. Kindly check your mail for activation.' };
const WEAK_PASSWORD =
  'This password is too easy to guess: choose a longer one, such as three or four unrelated words.';

// Each developer comes from an address of its own: the link routes are throttled per client address.
let seq = 0;
const nextIp = () => `10.1.${Math.floor(seq / 250)}.${(seq % 250) + 1}`;
const signupBody = (overrides: Record<string, unknown> = {}) => ({
  email: `dev${++seq}@example.com`,
  password: PASSWORD,
  first_name: 'Ada',
  last_name: 'Okafor',
  ...overrides,
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(
  method: Method,
  url: string,
  options: { payload?: object; token?: string; ip?: string; app?: TestApp } = {},
) {
  return (options.app ?? t).app.inject({
    method,
    url: `/v1/${url}`,
    payload: options.payload,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    remoteAddress: options.ip,
  });
}

/** Waits for the job-written mail to `email` and returns the code at the end of its `/developer/{page}/` link. */
async function codeFromMail(
  email: string,
  page: 'activate_account' | 'reset_password',
  nth = 1,
): Promise<string> {
  const subject =
    page === 'activate_account' ? 'Activate your AfroFX developer account' : 'Reset your AfroFX password';
  const mail: OutboxMail = await eventually(async () => {
    const found = (await t.mailsTo(email, subject))[nth - 1];
    if (!found) throw new Error(`no ${page} mail #${nth} to ${email} yet`);
    return found;
  });
  const prefix = `${t.config.publicUrl}/developer/${page}/`;
  const link = mail.links.find((l) => l.startsWith(prefix));
  expect(link).toMatch(new RegExp(`^${prefix}[A-Za-z0-9_-]{20,}$`));
  return link!.slice(prefix.length);
}

interface Developer {
  id: string;
  email: string;
  password: string;
  token: string;
  ip: string;
}

async function signUpAndActivate(overrides: Record<string, unknown> = {}): Promise<Developer> {
  const body = signupBody(overrides);
  const ip = nextIp();
  const signup = await call('POST', 'account/signup', { payload: body, ip });
  expect(signup.statusCode).toBe(201);
  const code = await codeFromMail(body.email, 'activate_account');
  expect((await call('GET', `account/activate_account/${code}`, { ip })).statusCode).toBe(200);
  const signin = await call('POST', 'account/signin', {
    payload: { email: body.email, password: body.password },
    ip,
  });
  expect(signin.statusCode).toBe(200);
  return {
    id: signin.json().data.user._id,
    email: body.email,
    password: body.password as string,
    token: signin.json().data.token,
    ip,
  };
}

const signin = (email: string, password: string, ip?: string) =>
  call('POST', 'account/signin', { payload: { email, password }, ip });
const accountRow = async (id: string) =>
  (await t.runtime.database.db.select().from(accounts).where(eq(accounts.id, id)))[0]!;
const accountIdOf = async (email: string) =>
  (await t.runtime.database.db.select().from(accounts).where(eq(accounts.email, email)))[0]!.id;

describe('POST account/signup', () => {
  it('creates an inactive account with an argon2id hash and answers 201 without any secret', async () => {
    const body = signupBody({ first_name: 'Chioma', last_name: 'Eze' });
    const res = await call('POST', 'account/signup', { payload: body, ip: nextIp() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual(SIGNED_UP);
    const row = await accountRow(await accountIdOf(body.email));
    expect(row).toMatchObject({ role: 'developer', status: 'active', isActivated: false });
    expect(row).toMatchObject({ firstName: 'Chioma', lastName: 'Eze' });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain(PASSWORD);
  });

  it('mails an activation link to /developer/activate_account/{token} that activates once and then says so', async () => {
    const body = signupBody({ first_name: 'Kwame' });
    const ip = nextIp();
    await call('POST', 'account/signup', { payload: body, ip });
    const code = await codeFromMail(body.email, 'activate_account');
    const [mail] = await t.mailsTo(body.email, 'Activate your AfroFX developer account');
    expect(mail!.raw).toContain('Hello Kwame');

    const first = await call('GET', `account/activate_account/${code}`, { ip });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      data: null,
      message: 'Your account has been activated. You can now sign in.',
    });
    expect((await signin(body.email, PASSWORD, ip)).statusCode).toBe(200);

    // Opened again (a second click, a mail client's preview), the link says the account is active.
    const again = await call('GET', `account/activate_account/${code}`, { ip });
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe('Your account is already activated. You can sign in.');

    const unknown = await call(
      'GET',
      `account/activate_account/${code.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`,
      {
        ip,
      },
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(ACTIVATION_LINK_INVALID);
  });

  it('stores the address in lower case', async () => {
    const body = signupBody();
    const mixed = body.email.replace('dev', 'DeV').replace('example', 'Example');
    const res = await call('POST', 'account/signup', { payload: { ...body, email: mixed }, ip: nextIp() });
    expect(res.statusCode).toBe(201);
    const [row] = await t.runtime.database.db
      .select()
      .from(accounts)
      .where(sql`lower(${accounts.email}) = ${body.email}`);
    expect(row!.email).toBe(body.email);
  });

  describe('with an address that already has an account', () => {
    /** An account made before this sign-up (and its mail window), the way an older sign-up left it. */
    async function existingAccount(isActivated: boolean) {
      const body = signupBody({ first_name: 'Femi' });
      const [row] = await t.runtime.database.db
        .insert(accounts)
        .values({
          email: body.email,
          passwordHash: await hashPassword(body.password),
          firstName: 'Femi',
          lastName: 'Okafor',
          role: 'developer',
          isActivated,
        })
        .returning();
      return { body, row: row! };
    }

    it('answers exactly like a new address, and changes nothing', async () => {
      const fresh = await call('POST', 'account/signup', { payload: signupBody(), ip: nextIp() });
      for (const activated of [true, false]) {
        const { body, row } = await existingAccount(activated);
        const again = await call('POST', 'account/signup', {
          payload: { ...body, password: 'another-long-passphrase', first_name: 'Mallory' },
          ip: nextIp(),
        });
        expect(again.statusCode).toBe(fresh.statusCode);
        expect(again.json()).toEqual(fresh.json());
        expect(await accountRow(row.id)).toEqual(row);
      }
      expect(fresh.statusCode).toBe(201);
      expect(fresh.json()).toEqual(SIGNED_UP);
    });

    it('mails an activated owner that the account exists, with the sign-in and reset links', async () => {
      const { body } = await existingAccount(true);
      await call('POST', 'account/signup', { payload: body, ip: nextIp() });
      const mail = await eventually(async () => {
        const [found] = await t.mailsTo(body.email, 'You already have an AfroFX account');
        if (!found) throw new Error('no account-exists mail yet');
        return found;
      });
      expect(mail.raw).toContain('Hello Femi');
      expect(mail.links).toEqual(
        expect.arrayContaining([
          `${t.config.publicUrl}/developer/signin`,
          `${t.config.publicUrl}/developer/request_password_reset`,
        ]),
      );
    });

    it('sends a never-activated owner a fresh activation link that works', async () => {
      const { body, row } = await existingAccount(false);
      await call('POST', 'account/signup', { payload: body, ip: nextIp() });
      const code = await codeFromMail(body.email, 'activate_account');
      expect((await call('GET', `account/activate_account/${code}`, { ip: nextIp() })).statusCode).toBe(200);
      expect((await accountRow(row.id)).isActivated).toBe(true);
    });
  });

  it.each([
    [
      'a bad e-mail',
      { email: 'not-an-email' },
      'Please enter a valid e-mail address, like name@example.com.',
    ],
    [
      'a password shorter than 10 characters',
      { password: 'nine-9999' },
      'Password must be at least 10 characters.',
    ],
    ['a common password', { password: 'password1234' }, WEAK_PASSWORD],
    [
      'a password made of the own names',
      { first_name: 'Chukwuemeka', last_name: 'Eze', password: 'Chukwuemeka-Eze' },
      WEAK_PASSWORD,
    ],
    ['a missing first_name', { first_name: undefined }, 'First name is required.'],
    ['a first_name of spaces only', { first_name: '   ' }, 'First name is required.'],
    ['an empty last_name', { last_name: '' }, 'Last name is required.'],
    ['a missing password', { password: undefined }, 'Password is required.'],
    ['a smuggled field', { role: 'admin' }, 'The field "role" is not accepted here.'],
  ])('rejects %s with 400 and creates no account', async (_name, overrides, message) => {
    const body = signupBody(overrides);
    const res = await call('POST', 'account/signup', { payload: body, ip: nextIp() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringContaining(message),
    });
    const [found] = await t.runtime.database.db.select().from(accounts).where(eq(accounts.email, body.email));
    expect(found).toBeUndefined();
  });

  it('accepts a hard to guess password of exactly 10 characters', async () => {
    const res = await call('POST', 'account/signup', {
      payload: signupBody({ password: 'tq7#mRb2xZ' }),
      ip: nextIp(),
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('GET account/activate_account/{token}', () => {
  it('refuses an expired activation link', async () => {
    const body = signupBody();
    const ip = nextIp();
    await call('POST', 'account/signup', { payload: body, ip });
    const code = await codeFromMail(body.email, 'activate_account');
    const accountId = await accountIdOf(body.email);
    await t.runtime.database.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.accountId, accountId));
    const activation = await call('GET', `account/activate_account/${code}`, { ip });
    expect(activation.statusCode).toBe(400);
    expect(activation.json().message).toBe(ACTIVATION_LINK_INVALID);
    expect((await accountRow(accountId)).isActivated).toBe(false);
  });

  it('refuses an unknown token with 400 and a malformed one with 400', async () => {
    const ip = nextIp();
    const unknown = await call('GET', `account/activate_account/${'a'.repeat(43)}`, { ip });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(ACTIVATION_LINK_INVALID);
    const malformed = await call('GET', `account/activate_account/${encodeURIComponent("x' or 1=1 --")}`, {
      ip,
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('does not accept a password reset code as an activation link', async () => {
    const dev = await signUpAndActivate();
    await call('POST', 'account/request_reset_password', { payload: { email: dev.email }, ip: dev.ip });
    const code = await codeFromMail(dev.email, 'reset_password');
    const res = await call('GET', `account/activate_account/${code}`, { ip: dev.ip });
    expect(res.statusCode).toBe(400);
    // The reset code is still good for what it was made for.
    expect(
      (
        await call('POST', 'account/reset_password', {
          payload: { code, password: NEW_PASSWORD },
          ip: dev.ip,
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('POST account/resend_activation', () => {
  const RESENT = {
    data: null,
    message: 'If this address has an account waiting for activation, a new activation link is on its way.',
  };
  const activationMails = (email: string) => t.mailsTo(email, 'Activate your AfroFX developer account');

  it('mails a fresh activation link to an account not yet activated, once per window, and the link works', async () => {
    const body = signupBody();
    const ip = nextIp();
    await call('POST', 'account/signup', { payload: body, ip });
    await codeFromMail(body.email, 'activate_account');
    const res = await call('POST', 'account/resend_activation', { payload: { email: body.email }, ip });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(RESENT);
    const code = await codeFromMail(body.email, 'activate_account', 2);
    const again = await call('POST', 'account/resend_activation', { payload: { email: body.email }, ip });
    expect(again.json()).toEqual(RESENT);
    await t.runtime.queue.drain();
    expect((await call('GET', `account/activate_account/${code}`, { ip })).statusCode).toBe(200);
    expect((await signin(body.email, PASSWORD, ip)).statusCode).toBe(200);
    expect(await activationMails(body.email)).toHaveLength(2);
  });

  it('answers the same, and mails nothing, for an activated account and an unknown address', async () => {
    const dev = await signUpAndActivate();
    const unknown = `nobody${++seq}@example.com`;
    for (const email of [dev.email, unknown]) {
      const res = await call('POST', 'account/resend_activation', { payload: { email }, ip: dev.ip });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(RESENT);
    }
    await t.runtime.queue.drain();
    expect(await activationMails(dev.email)).toHaveLength(1);
    expect(await activationMails(unknown)).toHaveLength(0);
  });

  it('rejects a bad e-mail with 400', async () => {
    const res = await call('POST', 'account/resend_activation', { payload: { email: 'not-an-address' } });
    expect(res.statusCode).toBe(400);
  });
});

describe('POST account/signin', () => {
  it('returns data.token and data.user for an activated account, and the token opens developer calls', async () => {
    const body = signupBody({ first_name: 'Thandi', last_name: 'Nkosi' });
    const ip = nextIp();
    await call('POST', 'account/signup', { payload: body, ip });
    await call('GET', `account/activate_account/${await codeFromMail(body.email, 'activate_account')}`, {
      ip,
    });
    const res = await signin(body.email, PASSWORD, ip);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        token: expect.any(String),
        user: { _id: expect.any(String), email: body.email, first_name: 'Thandi', last_name: 'Nkosi' },
      },
      message: 'Signed in successfully.',
    });
    const apps = await call('GET', 'apps/all_apps', { token: res.json().data.token });
    expect(apps.statusCode).toBe(200);
  });

  it('matches the e-mail whatever its case', async () => {
    const dev = await signUpAndActivate();
    const res = await signin(dev.email.toUpperCase(), PASSWORD, dev.ip);
    expect(res.statusCode).toBe(200);
  });

  it('answers an unknown e-mail and a wrong password with the same status and message', async () => {
    const dev = await signUpAndActivate();
    const unknown = await signin('nobody-here@example.com', PASSWORD, dev.ip);
    const wrong = await signin(dev.email, 'not-the-password', dev.ip);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: INVALID_CREDENTIALS });
  });

  it('refuses an account that has not been activated', async () => {
    const body = signupBody();
    const ip = nextIp();
    await call('POST', 'account/signup', { payload: body, ip });
    const res = await signin(body.email, PASSWORD, ip);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Kindly activate your account with the link sent to your e-mail.');
  });

  it('refuses a disabled account', async () => {
    const dev = await signUpAndActivate();
    await t.runtime.database.db.update(accounts).set({ status: 'disabled' }).where(eq(accounts.id, dev.id));
    const res = await signin(dev.email, PASSWORD, dev.ip);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This account has been disabled. Kindly reach out to support.');
  });

  it('does not sign an admin in as a developer', async () => {
    const res = await signin(ADMIN.email, ADMIN.password, nextIp());
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(INVALID_CREDENTIALS);
  });

  it.each([
    [
      'a bad e-mail',
      { email: 'nope', password: PASSWORD },
      'Please enter a valid e-mail address, like name@example.com.',
    ],
    ['a missing password', { email: 'someone@example.com' }, 'Password is required.'],
    [
      'a smuggled field',
      { email: 'someone@example.com', password: PASSWORD, role: 'admin' },
      'The field "role" is not accepted here.',
    ],
  ])('rejects %s with 400', async (_name, payload, message) => {
    const res = await call('POST', 'account/signin', { payload, ip: nextIp() });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('throttles the 11th rapid attempt on one address with 429, without blocking other addresses', async () => {
    const fresh = await createTestApp();
    try {
      // The per-account slow-down (sign-in-slowdown.test.ts) is waited out before each attempt: this is the limit
      // per client and address.
      const attempt = async (email: string, password: string) => {
        await fresh.runtime.database.db.delete(signInFailures);
        return call('POST', 'account/signin', { payload: { email, password }, app: fresh });
      };
      for (let i = 1; i <= 10; i++)
        expect((await attempt('victim@example.com', `wrong-${i}`)).statusCode).toBe(401);
      const eleventh = await attempt('victim@example.com', 'wrong-11');
      expect(eleventh.statusCode).toBe(429);
      expect(eleventh.json()).toEqual({
        statusCode: 429,
        error: 'Too Many Requests',
        message: expect.stringMatching(/^Too many attempts\. Try again in \d+ seconds?\.$/),
      });
      // The limiter keys on the client and the address tried: the same address in another case is the same key.
      expect((await attempt('VICTIM@example.com', 'wrong-12')).statusCode).toBe(429);
      expect((await attempt('someone-else@example.com', 'wrong')).statusCode).toBe(401);
    } finally {
      await fresh.close();
    }
  });
});

describe('POST account/request_reset_password', () => {
  it('answers a known and an unknown address the same, and mails only the known one', async () => {
    const dev = await signUpAndActivate();
    const unknownEmail = `unknown-${seq}@example.com`;
    const unknown = await call('POST', 'account/request_reset_password', {
      payload: { email: unknownEmail },
      ip: dev.ip,
    });
    const known = await call('POST', 'account/request_reset_password', {
      payload: { email: dev.email },
      ip: dev.ip,
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(known.json()).toEqual({
      data: null,
      message: 'If an account exists for this e-mail, a password reset link has been sent to it.',
    });

    await codeFromMail(dev.email, 'reset_password');
    await t.runtime.queue.drain();
    expect(await t.mailsTo(unknownEmail)).toEqual([]);
  });

  it('mails nothing to a disabled account, with the same answer', async () => {
    const dev = await signUpAndActivate();
    await t.runtime.database.db.update(accounts).set({ status: 'disabled' }).where(eq(accounts.id, dev.id));
    const res = await call('POST', 'account/request_reset_password', {
      payload: { email: dev.email },
      ip: dev.ip,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(
      'If an account exists for this e-mail, a password reset link has been sent to it.',
    );
    // A later request for another account proves the queue has moved past this one.
    const other = await signUpAndActivate();
    await call('POST', 'account/request_reset_password', { payload: { email: other.email }, ip: other.ip });
    await codeFromMail(other.email, 'reset_password');
    expect(await t.mailsTo(dev.email, 'Reset your AfroFX password')).toEqual([]);
  });

  it('rejects a bad e-mail with 400', async () => {
    const res = await call('POST', 'account/request_reset_password', {
      payload: { email: 'nope' },
      ip: nextIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please enter a valid e-mail address, like name@example.com.');
  });
});

describe('GET account/reset_password/{token}', () => {
  it('says a live link is good without using it up, and refuses it once used', async () => {
    const dev = await signUpAndActivate();
    await call('POST', 'account/request_reset_password', { payload: { email: dev.email }, ip: dev.ip });
    const code = await codeFromMail(dev.email, 'reset_password');
    for (let check = 0; check < 2; check++) {
      const live = await call('GET', `account/reset_password/${code}`, { ip: dev.ip });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ data: null, message: 'This link is good: choose a new password.' });
    }
    const reset = await call('POST', 'account/reset_password', {
      payload: { code, password: NEW_PASSWORD },
      ip: dev.ip,
    });
    expect(reset.statusCode).toBe(200);
    const used = await call('GET', `account/reset_password/${code}`, { ip: dev.ip });
    expect(used.statusCode).toBe(400);
    expect(used.json().message).toBe(RESET_LINK_INVALID);
  });

  it('refuses an expired, an unknown and a malformed code with the link message', async () => {
    const dev = await signUpAndActivate();
    await call('POST', 'account/request_reset_password', { payload: { email: dev.email }, ip: dev.ip });
    const code = await codeFromMail(dev.email, 'reset_password');
    await t.runtime.database.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.accountId, dev.id));
    for (const dead of [code, 'a'.repeat(43), encodeURIComponent("x' or 1=1 --")]) {
      const res = await call('GET', `account/reset_password/${dead}`, { ip: dev.ip });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(RESET_LINK_INVALID);
    }
  });
});

describe('POST account/reset_password', () => {
  it('sets a new password from the mailed link: the new one signs in, the old one and the old session stop working', async () => {
    const dev = await signUpAndActivate();
    expect((await call('GET', 'apps/all_apps', { token: dev.token })).statusCode).toBe(200);

    await call('POST', 'account/request_reset_password', { payload: { email: dev.email }, ip: dev.ip });
    const code = await codeFromMail(dev.email, 'reset_password');
    const res = await call('POST', 'account/reset_password', {
      payload: { code, password: NEW_PASSWORD },
      ip: dev.ip,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: null,
      message: 'Your password has been reset. You can now sign in with it.',
    });

    expect((await signin(dev.email, NEW_PASSWORD, dev.ip)).statusCode).toBe(200);
    const old = await signin(dev.email, PASSWORD, dev.ip);
    expect(old.statusCode).toBe(401);
    expect(old.json().message).toBe(INVALID_CREDENTIALS);

    const stale = await call('GET', 'apps/all_apps', { token: dev.token });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toBe(SESSION_EXPIRED);
  });

  it('refuses the same link a second time with the server message', async () => {
    const dev = await signUpAndActivate();
    await call('POST', 'account/request_reset_password', { payload: { email: dev.email }, ip: dev.ip });
    const code = await codeFromMail(dev.email, 'reset_password');
    expect(
      (
        await call('POST', 'account/reset_password', {
          payload: { code, password: NEW_PASSWORD },
          ip: dev.ip,
        })
      ).statusCode,
    ).toBe(200);
    const again = await call('POST', 'account/reset_password', {
      payload: { code, password: 'a-third-password' },
      ip: dev.ip,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: RESET_LINK_INVALID });
    expect((await signin(dev.email, NEW_PASSWORD, dev.ip)).statusCode).toBe(200);
  });

  it('voids every other reset link of the account once one has been used', async () => {
    const dev = await signUpAndActivate();
    await call('POST', 'account/request_reset_password', { payload: { email: dev.email }, ip: dev.ip });
    const older = await codeFromMail(dev.email, 'reset_password', 1);
    // A second mail would wait out the per-address window: the job's own step makes the newer link.
    const newer = (await t.runtime.services.accounts.issueLinkToken(dev.id, 'password_reset'))!.token;
    expect(newer).not.toBe(older);
    expect(
      (
        await call('POST', 'account/reset_password', {
          payload: { code: newer, password: NEW_PASSWORD },
          ip: dev.ip,
        })
      ).statusCode,
    ).toBe(200);
    const res = await call('POST', 'account/reset_password', {
      payload: { code: older, password: 'a-third-password' },
      ip: dev.ip,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(RESET_LINK_INVALID);
    expect((await signin(dev.email, NEW_PASSWORD, dev.ip)).statusCode).toBe(200);
  });

  it('refuses an expired code and leaves the password as it was', async () => {
    const dev = await signUpAndActivate();
    await call('POST', 'account/request_reset_password', { payload: { email: dev.email }, ip: dev.ip });
    const code = await codeFromMail(dev.email, 'reset_password');
    await t.runtime.database.db
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(accountTokens.accountId, dev.id));
    const res = await call('POST', 'account/reset_password', {
      payload: { code, password: NEW_PASSWORD },
      ip: dev.ip,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(RESET_LINK_INVALID);
    expect((await signin(dev.email, PASSWORD, dev.ip)).statusCode).toBe(200);
  });

  it('gives reset links a lifetime of one hour', async () => {
    const dev = await signUpAndActivate();
    await call('POST', 'account/request_reset_password', { payload: { email: dev.email }, ip: dev.ip });
    await codeFromMail(dev.email, 'reset_password');
    const [token] = await t.runtime.database.db
      .select()
      .from(accountTokens)
      .where(sql`${accountTokens.accountId} = ${dev.id} and ${accountTokens.kind} = 'password_reset'`);
    const lifetime = token!.expiresAt.getTime() - token!.createdAt.getTime();
    expect(lifetime).toBeGreaterThan(59 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(61 * 60_000);
  });

  it('refuses an activation link used as a reset code', async () => {
    const body = signupBody();
    const ip = nextIp();
    await call('POST', 'account/signup', { payload: body, ip });
    const code = await codeFromMail(body.email, 'activate_account');
    const res = await call('POST', 'account/reset_password', {
      payload: { code, password: NEW_PASSWORD },
      ip,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(RESET_LINK_INVALID);
  });

  it.each([
    [
      'a new password shorter than 10 characters',
      { code: 'a'.repeat(43), password: 'short' },
      'Password must be at least 10 characters.',
    ],
    ['a missing code (a broken link)', { password: NEW_PASSWORD }, RESET_LINK_INVALID],
    [
      'a smuggled field',
      { code: 'a'.repeat(43), password: NEW_PASSWORD, email: 'x@example.com' },
      'The field "email" is not accepted here.',
    ],
  ])('rejects %s with 400', async (_name, payload, message) => {
    const res = await call('POST', 'account/reset_password', { payload, ip: nextIp() });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });
});

describe('POST account/change_password', () => {
  it('changes the password when the old one is right', async () => {
    const dev = await signUpAndActivate();
    const res = await call('POST', 'account/change_password', {
      token: dev.token,
      payload: { oldPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { token: expect.any(String) },
      message: 'Your password has been changed.',
    });
    expect((await signin(dev.email, NEW_PASSWORD, dev.ip)).statusCode).toBe(200);
    expect((await signin(dev.email, PASSWORD, dev.ip)).statusCode).toBe(401);
  });

  it('ends every other session of the account and answers a fresh token for this one', async () => {
    const dev = await signUpAndActivate();
    const other = (await signin(dev.email, PASSWORD, dev.ip)).json().data.token as string;
    const res = await call('POST', 'account/change_password', {
      token: dev.token,
      payload: { oldPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    const fresh = res.json().data.token as string;
    expect((await call('GET', 'apps/all_apps', { token: other })).statusCode).toBe(401);
    expect((await call('GET', 'apps/all_apps', { token: dev.token })).statusCode).toBe(401);
    expect((await call('GET', 'apps/all_apps', { token: fresh })).statusCode).toBe(200);
  });

  it('refuses a wrong old password and keeps the current one', async () => {
    const dev = await signUpAndActivate();
    const res = await call('POST', 'account/change_password', {
      token: dev.token,
      payload: { oldPassword: 'not-my-password', newPassword: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Your current password is not correct.');
    expect((await signin(dev.email, PASSWORD, dev.ip)).statusCode).toBe(200);
  });

  it('refuses a new password equal to the old one (SPEC §5)', async () => {
    const dev = await signUpAndActivate();
    const res = await call('POST', 'account/change_password', {
      token: dev.token,
      payload: { oldPassword: PASSWORD, newPassword: PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Passwords can not be the same.');
  });

  it.each([
    [
      'a new password shorter than 10 characters',
      { oldPassword: PASSWORD, newPassword: 'short' },
      'New password must be at least 10 characters.',
    ],
    ['an easily guessed new password', { oldPassword: PASSWORD, newPassword: 'qwerty123456' }, WEAK_PASSWORD],
    ['a missing old password', { newPassword: NEW_PASSWORD }, 'Current password is required.'],
    [
      'a smuggled field',
      { oldPassword: PASSWORD, newPassword: NEW_PASSWORD, email: 'x@example.com' },
      'The field "email" is not accepted here.',
    ],
  ])('rejects %s with 400', async (_name, payload, message) => {
    const dev = await signUpAndActivate();
    const res = await call('POST', 'account/change_password', { token: dev.token, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('needs a developer session: none is 401, an admin token is 403', async () => {
    const payload = { oldPassword: PASSWORD, newPassword: NEW_PASSWORD };
    const none = await call('POST', 'account/change_password', { payload });
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toBe('Authentication required.');
    const admin = await call('POST', 'account/change_password', { payload, token: await t.adminToken() });
    expect(admin.statusCode).toBe(403);
  });
});

describe('browser sessions (the session cookie)', () => {
  const COOKIE = 'afrofx_session';
  const sessionCookie = (res: { cookies: Array<{ name: string; value: string; expires?: Date }> }) =>
    res.cookies.find((c) => c.name === COOKIE);
  const withCookie = (
    method: Method,
    url: string,
    cookie: string,
    options: { payload?: object; csrfHeader?: boolean } = {},
  ) =>
    t.app.inject({
      method,
      url: `/v1/${url}`,
      payload: options.payload,
      cookies: { [COOKIE]: cookie },
      headers: options.csrfHeader === false ? {} : { 'x-requested-with': 'fetch' },
    });

  it('sign-in sets an httpOnly, SameSite=Strict cookie scoped to /v1/ that opens developer calls alone', async () => {
    const dev = await signUpAndActivate();
    const res = await signin(dev.email, PASSWORD, dev.ip);
    expect(sessionCookie(res)).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/v1/',
      maxAge: 12 * 60 * 60,
    });
    // PUBLIC_URL is http in the tests: a Secure cookie would never come back over plain http.
    expect(sessionCookie(res)).not.toHaveProperty('secure');
    const cookie = sessionCookie(res)!.value;
    expect((await withCookie('GET', 'apps/all_apps', cookie, { csrfHeader: false })).statusCode).toBe(200);
  });

  it('refuses a change made with the cookie but without the X-Requested-With header, changing nothing', async () => {
    const dev = await signUpAndActivate();
    const cookie = sessionCookie(await signin(dev.email, PASSWORD, dev.ip))!.value;
    const res = await withCookie('POST', 'account/change_password', cookie, {
      payload: { oldPassword: PASSWORD, newPassword: NEW_PASSWORD },
      csrfHeader: false,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      'A change made with the session cookie needs the x-requested-with header.',
    );
    expect((await signin(dev.email, PASSWORD, dev.ip)).statusCode).toBe(200);
  });

  it('a password change renews this cookie and signs every other session out', async () => {
    const dev = await signUpAndActivate();
    const thisBrowser = sessionCookie(await signin(dev.email, PASSWORD, dev.ip))!.value;
    const otherBrowser = sessionCookie(await signin(dev.email, PASSWORD, dev.ip))!.value;
    const res = await withCookie('POST', 'account/change_password', thisBrowser, {
      payload: { oldPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const renewed = sessionCookie(res);
    expect(renewed).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/' });
    expect((await withCookie('GET', 'apps/all_apps', renewed!.value)).statusCode).toBe(200);
    const other = await withCookie('GET', 'apps/all_apps', otherBrowser);
    expect(other.statusCode).toBe(401);
    expect(other.json().message).toBe(SESSION_EXPIRED);
    expect((await withCookie('GET', 'apps/all_apps', thisBrowser)).statusCode).toBe(401);
  });

  it('sign-out clears the cookie, even an expired one', async () => {
    const res = await withCookie('POST', 'account/signout', 'no-longer-valid');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null, message: 'You are signed out.' });
    const cleared = sessionCookie(res);
    expect(cleared).toMatchObject({ value: '', path: '/v1/' });
    expect(cleared!.expires!.getTime()).toBeLessThan(Date.now());
  });
});

describe('developer sessions', () => {
  it('stop working once the account is disabled (401), and a new sign-in is refused', async () => {
    const dev = await signUpAndActivate();
    expect((await call('GET', 'apps/all_apps', { token: dev.token })).statusCode).toBe(200);
    await t.runtime.database.db.update(accounts).set({ status: 'disabled' }).where(eq(accounts.id, dev.id));
    const res = await call('GET', 'apps/all_apps', { token: dev.token });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(SESSION_EXPIRED);
    expect((await signin(dev.email, PASSWORD, dev.ip)).statusCode).toBe(403);
  });

  it.each([
    ['an expired token', 'expired'],
    ['a token signed with another secret', 'foreign'],
    ['a token of an account that does not exist', 'unknown'],
    ['a token of an account not yet activated', 'inactive'],
  ])('refuses %s with 401', async (_name, kind) => {
    let token: string;
    if (kind === 'expired') {
      const dev = await signUpAndActivate();
      token = createSigner({ key: t.config.jwtSecret, expiresIn: 1, clockTimestamp: Date.now() - 60_000 })({
        sub: dev.id,
        role: 'developer',
        ver: 0,
      });
    } else if (kind === 'foreign') {
      const dev = await signUpAndActivate();
      token = createSigner({ key: 'y'.repeat(40) })({ sub: dev.id, role: 'developer', ver: 0 });
    } else if (kind === 'unknown') {
      token = t.app.issueToken({ sub: '7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c', role: 'developer', ver: 0 });
    } else {
      const body = signupBody();
      await call('POST', 'account/signup', { payload: body, ip: nextIp() });
      token = t.app.issueToken({ sub: await accountIdOf(body.email), role: 'developer', ver: 0 });
    }
    const res = await call('GET', 'apps/all_apps', { token });
    expect(res.statusCode).toBe(401);
  });

  it('cannot open admin calls (403)', async () => {
    const dev = await signUpAndActivate();
    for (const url of ['admin/fetch_all_rates', 'admin/fetch_mailing_list']) {
      const res = await call('GET', url, { token: dev.token });
      expect(res.statusCode).toBe(403);
    }
    const create = await call('POST', 'admin/create_rate', {
      token: dev.token,
      payload: { market: 'bank', asset: 'dollar', base: 'naira', buy: 1, sell: 2 },
    });
    expect(create.statusCode).toBe(403);
  });

  it('are not made by the admin sign-in: an admin token on a developer call is 403', async () => {
    const res = await call('GET', 'apps/all_apps', { token: await t.adminToken() });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'You are not allowed to do this.',
    });
  });
});
