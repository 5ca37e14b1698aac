import { eq, sql } from 'drizzle-orm';
import { accounts, signInFailures } from '../src/db/schema';
import { ADMIN, createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function authenticate(payload: Record<string, unknown>, app: TestApp = t) {
  return app.app.inject({ method: 'POST', url: '/v1/admin/authenticate', payload });
}

function fetchRates(token: string) {
  return t.app.inject({
    method: 'GET',
    url: '/v1/admin/fetch_all_rates',
    headers: { authorization: `Bearer ${token}` },
  });
}

/** A second admin of its own, so that disabling or revoking it leaves the file's admin signed in. */
async function otherAdmin(email: string) {
  const password = 'another-admin-password';
  await t.runtime.services.adminUsers.ensureAdmin(email, password);
  const res = await authenticate({ email, password });
  expect(res.statusCode).toBe(200);
  const { token, user } = res.json().data as { token: string; user: { _id: string } };
  return { id: user._id, email, password, token };
}

describe('POST admin/authenticate', () => {
  it('signs in with the right credentials and answers a token and the admin', async () => {
    const res = await authenticate(ADMIN);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Signed in successfully.',
      data: { token: expect.any(String), user: { _id: expect.any(String), email: ADMIN.email } },
    });
  });

  it('gives a token that opens the admin calls', async () => {
    const { token } = (await authenticate(ADMIN)).json().data;
    const res = await fetchRates(token);
    expect(res.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail alike, so addresses cannot be probed', async () => {
    const { email } = await otherAdmin('probe-target@example.com');
    const wrongPassword = await authenticate({ email, password: 'not-the-password' });
    const unknownEmail = await authenticate({ email: 'nobody@example.com', password: 'not-the-password' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Invalid email or password.',
    });
    expect(unknownEmail.json()).toEqual(wrongPassword.json());
  });

  it.each([
    ['a missing password', { email: 'someone@example.com' }, 'Password is required.'],
    ['an empty password', { email: 'someone@example.com', password: '' }, 'Password is required.'],
    [
      'a bad e-mail',
      { email: 'someone', password: 'whatever-it-is' },
      'Please enter a valid e-mail address, like name@example.com.',
    ],
    [
      'a smuggled field',
      { email: 'someone@example.com', password: 'whatever-it-is', role: 'admin' },
      'The field "role" is not accepted here.',
    ],
  ])('rejects %s with 400', async (_name, payload, message) => {
    const res = await authenticate(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });
});

describe('admin sessions', () => {
  it('a disabled admin cannot sign in and its existing token stops working', async () => {
    const other = await otherAdmin('disabled-admin@example.com');
    expect((await fetchRates(other.token)).statusCode).toBe(200);

    await t.runtime.database.db.update(accounts).set({ status: 'disabled' }).where(eq(accounts.id, other.id));

    const signIn = await authenticate({ email: other.email, password: other.password });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().message).toBe('This account has been disabled.');
    const call = await fetchRates(other.token);
    expect(call.statusCode).toBe(401);
    expect(call.json().message).toBe('Your session has expired. Please sign in again.');
  });

  it('bumping the token version ends every existing token', async () => {
    const other = await otherAdmin('revoked-admin@example.com');
    await t.runtime.database.db
      .update(accounts)
      .set({ tokenVersion: sql`${accounts.tokenVersion} + 1` })
      .where(eq(accounts.id, other.id));

    expect((await fetchRates(other.token)).statusCode).toBe(401);
    const fresh = (await authenticate({ email: other.email, password: other.password })).json().data.token;
    expect((await fetchRates(fresh)).statusCode).toBe(200);
  });
});

describe('admin console sessions (the admin session cookie)', () => {
  it('sign-in sets an httpOnly, SameSite=Strict cookie scoped to /v1/admin/ that opens admin calls alone', async () => {
    const res = await authenticate(ADMIN);
    const cookie = res.cookies.find((c) => c.name === 'afrofx_admin_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/admin/' });
    const rates = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/fetch_all_rates',
      cookies: { afrofx_admin_session: cookie!.value },
    });
    expect(rates.statusCode).toBe(200);
  });

  it('a developer session cookie does not open admin calls', async () => {
    const admin = await authenticate(ADMIN);
    const rates = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/fetch_all_rates',
      cookies: { afrofx_session: admin.json().data.token },
    });
    expect(rates.statusCode).toBe(401);
  });

  it('sign-out clears the admin cookie', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/admin/signout' });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'afrofx_admin_session')).toMatchObject({
      value: '',
      path: '/v1/admin/',
    });
  });
});

describe('POST admin/change_password', () => {
  const NEW_PASSWORD = 'violet harbour lantern 42';
  const WEAK_PASSWORD =
    'This password is too easy to guess: choose a longer one, such as three or four unrelated words.';

  function changePassword(token: string | undefined, payload: Record<string, unknown>) {
    return t.app.inject({
      method: 'POST',
      url: '/v1/admin/change_password',
      payload,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });
  }

  it("changes the admin's password and answers a fresh token and session cookie", async () => {
    const admin = await otherAdmin('changes-own@example.com');
    const res = await changePassword(admin.token, { oldPassword: admin.password, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { token: expect.any(String) },
      message: 'Your password has been changed.',
    });
    expect(res.cookies.find((c) => c.name === 'afrofx_admin_session')?.value).toBe(res.json().data.token);
    expect((await authenticate({ email: admin.email, password: NEW_PASSWORD })).statusCode).toBe(200);
    expect((await authenticate({ email: admin.email, password: admin.password })).statusCode).toBe(401);
  });

  it("signs the admin's other sessions out and keeps the one that made the change", async () => {
    const admin = await otherAdmin('other-sessions@example.com');
    const otherTab = (await authenticate({ email: admin.email, password: admin.password })).json().data
      .token as string;
    const res = await changePassword(admin.token, { oldPassword: admin.password, newPassword: NEW_PASSWORD });
    const fresh = res.json().data.token as string;
    expect((await fetchRates(otherTab)).statusCode).toBe(401);
    expect((await fetchRates(admin.token)).statusCode).toBe(401);
    expect((await fetchRates(fresh)).statusCode).toBe(200);
  });

  it('leaves the other admins signed in', async () => {
    const bystander = await otherAdmin('bystander@example.com');
    const admin = await otherAdmin('changer@example.com');
    await changePassword(admin.token, { oldPassword: admin.password, newPassword: NEW_PASSWORD });
    expect((await fetchRates(bystander.token)).statusCode).toBe(200);
  });

  it.each([
    [
      'a wrong current password',
      (current: string) => ({ oldPassword: `${current}-not`, newPassword: NEW_PASSWORD }),
      'Your current password is not correct.',
    ],
    [
      'a new password equal to the current one',
      (current: string) => ({ oldPassword: current, newPassword: current }),
      'Passwords can not be the same.',
    ],
    [
      'an easily guessed new password',
      (current: string) => ({ oldPassword: current, newPassword: 'qwerty123456' }),
      WEAK_PASSWORD,
    ],
    [
      'a new password shorter than 10 characters',
      (current: string) => ({ oldPassword: current, newPassword: 'short' }),
      'New password must be at least 10 characters.',
    ],
    ['a missing current password', () => ({ newPassword: NEW_PASSWORD }), 'Current password is required.'],
  ])('refuses %s with 400 and keeps the password and the session', async (name, payload, message) => {
    const admin = await otherAdmin(`refused-${name.replace(/\W+/g, '-')}@example.com`);
    const res = await changePassword(admin.token, payload(admin.password));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect((await fetchRates(admin.token)).statusCode).toBe(200);
    expect((await authenticate({ email: admin.email, password: admin.password })).statusCode).toBe(200);
  });

  it('needs an admin session: none is 401 and the password stays', async () => {
    const none = await changePassword(undefined, { oldPassword: ADMIN.password, newPassword: NEW_PASSWORD });
    expect(none.statusCode).toBe(401);
    expect((await authenticate(ADMIN)).statusCode).toBe(200);
  });
});

describe('admin sign-in throttling', () => {
  // A fresh app, so the throttled address leaves the other tests' sign-ins alone.
  let fresh: TestApp;
  beforeAll(async () => {
    fresh = await createTestApp();
    // On Redis the limiter lets requests through uncounted until its own connection is up: wait until it counts.
    let probe = 0;
    await eventually(async () => {
      const res = await authenticate(
        { email: `probe${probe++}@example.com`, password: 'not-the-password' },
        fresh,
      );
      expect(String(res.headers['x-ratelimit-remaining'])).toBe('9');
    });
  });
  afterAll(() => fresh.close());

  it('refuses the 11th rapid attempt for one address with 429, even with the right password', async () => {
    for (let i = 1; i <= 10; i++) {
      // The per-account slow-down (sign-in-slowdown.test.ts) is waited out: this is the limit per client and address.
      await fresh.runtime.database.db.delete(signInFailures);
      const attempt = await authenticate({ email: ADMIN.email, password: `wrong-${i}` }, fresh);
      expect(attempt.statusCode).toBe(401);
      expect(String(attempt.headers['x-ratelimit-remaining'])).toBe(String(10 - i));
    }
    const eleventh = await authenticate(ADMIN, fresh);
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Too many attempts\. Try again in \d+ seconds?\.$/),
    });
  });

  it('keeps counting attempts for the address whatever its case', async () => {
    const res = await authenticate({ email: ADMIN.email.toUpperCase(), password: ADMIN.password }, fresh);
    expect(res.statusCode).toBe(429);
  });

  it('still lets another address sign in from the same client', async () => {
    await fresh.runtime.services.adminUsers.ensureAdmin('second-admin@example.com', 'second-admin-password');
    const res = await authenticate(
      { email: 'second-admin@example.com', password: 'second-admin-password' },
      fresh,
    );
    expect(res.statusCode).toBe(200);
  });
});
