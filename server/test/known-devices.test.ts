// OWASP device cookies: a stranger guessing a password from many addresses slows down unknown devices only. The
// owner on a browser that signed in before gets in at once; admins too, and a second admin can lift a lock.
import { developerFactory, scatteredSignIns } from './support/developers';
import { ADMIN, createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
const signUpAndActivate = developerFactory(() => t, 'devices', 97);
const PASSWORD = 'correct-horse-battery';
const attempts = scatteredSignIns(() => t, 98);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const URLS = { developer: '/v1/account/signin', admin: '/v1/admin/authenticate' } as const;
const COOKIES = { developer: 'afx_device', admin: 'afx_admin_device' } as const;
type Role = keyof typeof URLS;

const signIn = (role: Role, email: string, password: string, device?: string) =>
  attempts.signIn(URLS[role], email, password, device ? { cookie: `${COOKIES[role]}=${device}` } : {});

/** Signs in from a new browser and answers the device cookie it was given. */
async function knownBrowser(role: Role, email: string, password: string): Promise<string> {
  const res = await signIn(role, email, password);
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name === COOKIES[role]);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: URLS[role] });
  return cookie!.value;
}

async function fiftyWrongGuesses(role: Role, email: string) {
  const statuses = [];
  for (let i = 0; i < 50; i++) statuses.push((await signIn(role, email, `wrong-guess-${i}`)).statusCode);
  // Slowed down after the free failures: most guesses are refused before their password is checked.
  expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(40);
}

describe('POST account/signin', () => {
  it('lets the owner in at once from their known browser after 50 wrong passwords from 50 addresses', async () => {
    const dev = await signUpAndActivate();
    const browser = await knownBrowser('developer', dev.email, PASSWORD);
    await fiftyWrongGuesses('developer', dev.email);
    // An unknown device waits, even with the right password.
    expect((await signIn('developer', dev.email, PASSWORD)).statusCode).toBe(429);
    const owner = await signIn('developer', dev.email, PASSWORD, browser);
    expect(owner.statusCode).toBe(200);
  });

  it('treats a forged cookie, or one of another login, as an unknown device', async () => {
    const owner = await signUpAndActivate();
    const other = await signUpAndActivate();
    const othersBrowser = await knownBrowser('developer', other.email, PASSWORD);
    await fiftyWrongGuesses('developer', owner.email);
    const [device] = othersBrowser.split('.');
    for (const cookie of [othersBrowser, `${device}.forged`, 'nonsense']) {
      expect((await signIn('developer', owner.email, PASSWORD, cookie)).statusCode).toBe(429);
    }
  });

  it("slows down a known device's own failures, and only that device", async () => {
    const dev = await signUpAndActivate();
    const guessing = await knownBrowser('developer', dev.email, PASSWORD);
    const other = await knownBrowser('developer', dev.email, PASSWORD);
    const statuses = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await signIn('developer', dev.email, `wrong-${i}`, guessing)).statusCode);
    expect(statuses).toContain(429);
    expect((await signIn('developer', dev.email, PASSWORD, guessing)).statusCode).toBe(429);
    expect((await signIn('developer', dev.email, PASSWORD, other)).statusCode).toBe(200);
    // Unknown devices were never slowed down by it.
    expect((await signIn('developer', dev.email, PASSWORD)).statusCode).toBe(200);
  });
});

describe('POST admin/authenticate and admin/lift_sign_in_lock', () => {
  it('lets an admin in from a known browser, and a second admin lifts the lock for a new one', async () => {
    const browser = await knownBrowser('admin', ADMIN.email, ADMIN.password);
    const adminToken = (await signIn('admin', ADMIN.email, ADMIN.password, browser)).json().data.token;
    const second = { email: 'second-admin@example.com', password: 'another admin passphrase 42' };
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/create_user',
      headers: { authorization: `Bearer ${adminToken}` },
      payload: second,
    });
    expect(created.statusCode).toBe(201);
    const secondToken = (await signIn('admin', second.email, second.password)).json().data.token;

    await fiftyWrongGuesses('admin', ADMIN.email);
    expect((await signIn('admin', ADMIN.email, ADMIN.password, browser)).statusCode).toBe(200);
    expect((await signIn('admin', ADMIN.email, ADMIN.password)).statusCode).toBe(429);

    const lift = (authorization: string | undefined, email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/admin/lift_sign_in_lock',
        headers: authorization ? { authorization } : {},
        payload: { email },
      });
    expect((await lift(undefined, ADMIN.email)).statusCode).toBe(401);
    const lifted = await lift(`Bearer ${secondToken}`, ` ${ADMIN.email.toUpperCase()} `);
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json().message).toBe('The sign-in lock on this address is lifted.');
    expect((await signIn('admin', ADMIN.email, ADMIN.password)).statusCode).toBe(200);
  });
});
