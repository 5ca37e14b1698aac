// Guessing one account's password from many addresses is slowed down per account (the limits per
// client address do not see it), without locking the owner out: the wait is capped, a successful sign-in or a
// password reset clears it, and the reset by mail is never slowed.
import { and, eq, sql } from 'drizzle-orm';
import { signInFailures } from '../src/db/schema';
import { FREE_FAILURES, MAX_WAIT_SECONDS } from '../src/modules/accounts/sign-in-slowdown';
import { developerFactory, scatteredSignIns } from './support/developers';
import { ADMIN, createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
const signUpAndActivate = developerFactory(() => t, 'slowdown', 73);
const PASSWORD = 'correct-horse-battery';
const attempts = scatteredSignIns(() => t, 74);
const { freshAddress } = attempts;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const signIn = (email: string, password: unknown, url = '/v1/account/signin') =>
  attempts.signIn(url, email, password);

/** The wait the account has now, moved into the past: what the clock does when the owner waits it out. */
const waitOut = (email: string) =>
  t.runtime.database.db
    .update(signInFailures)
    .set({ blockedUntil: sql`now() - interval '1 second'` })
    .where(eq(signInFailures.email, email.toLowerCase()));

const failuresOf = async (email: string, role: 'developer' | 'admin' = 'developer') =>
  (
    await t.runtime.database.db
      .select()
      .from(signInFailures)
      .where(and(eq(signInFailures.email, email.toLowerCase()), eq(signInFailures.role, role)))
  )[0];

it('slows down 120 wrong passwords from 120 addresses, and lets the owner in once the wait is over', async () => {
  const dev = await signUpAndActivate();
  const statuses: number[] = [];
  for (let i = 0; i < 120; i++) {
    const res = await signIn(dev.email, `wrong-guess-${i}`);
    statuses.push(res.statusCode);
    if (res.statusCode === 429) {
      const wait = Number(res.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(MAX_WAIT_SECONDS);
      expect(res.json().message).toBe(
        `Too many failed sign-ins for this account. Try again in ${wait} ${wait === 1 ? 'second' : 'seconds'}, or reset your password by e-mail.`,
      );
    }
  }
  // The first five are checked; after that each checked guess doubles the wait, so in the seconds this loop takes
  // only a few more are checked (2^k seconds apart), and every other one is refused before its password is.
  expect(statuses.slice(0, FREE_FAILURES)).toEqual(Array(FREE_FAILURES).fill(401));
  expect(statuses[FREE_FAILURES]).toBe(429);
  expect(statuses.filter((s) => s === 401).length).toBeLessThan(FREE_FAILURES + 10);
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(100);

  // During the wait the right password is refused too (it is not even checked) ...
  expect((await signIn(dev.email, PASSWORD)).statusCode).toBe(429);
  // ... and once the wait is over it gets in, and the count starts again.
  await waitOut(dev.email);
  expect((await signIn(dev.email, PASSWORD)).statusCode).toBe(200);
  expect(await failuresOf(dev.email)).toBeUndefined();
  expect((await signIn(dev.email, 'wrong-again')).statusCode).toBe(401);
});

it('caps the wait at five minutes however many guesses came before', async () => {
  const dev = await signUpAndActivate();
  for (let i = 0; i < 40; i++) {
    await waitOut(dev.email);
    expect((await signIn(dev.email, `guess-${i}`)).statusCode).toBe(401);
  }
  const res = await signIn(dev.email, PASSWORD);
  expect(res.statusCode).toBe(429);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(MAX_WAIT_SECONDS - 60);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(MAX_WAIT_SECONDS);
  expect((await failuresOf(dev.email))!.failures).toBe(40);
});

it('clears the wait when the owner resets the password by mail', async () => {
  const dev = await signUpAndActivate();
  for (let i = 0; i < FREE_FAILURES; i++)
    expect((await signIn(dev.email, `guess-${i}`)).statusCode).toBe(401);
  expect((await signIn(dev.email, PASSWORD)).statusCode).toBe(429);

  // The reset by mail is not slowed down.
  const request = await t.app.inject({
    method: 'POST',
    url: '/v1/account/request_reset_password',
    payload: { email: dev.email },
    remoteAddress: freshAddress(),
  });
  expect(request.statusCode).toBe(200);
  const prefix = `${t.config.publicUrl}/developer/reset_password/`;
  const code = await eventually(async () => {
    const link = (await t.outbox())
      .filter((m) => m.to === dev.email)
      .flatMap((m) => m.links)
      .find((l) => l.startsWith(prefix));
    if (!link) throw new Error('no reset mail yet');
    return link.slice(prefix.length);
  });
  const newPassword = 'a-brand-new-horse-staple';
  const reset = await t.app.inject({
    method: 'POST',
    url: '/v1/account/reset_password',
    payload: { code, password: newPassword },
    remoteAddress: freshAddress(),
  });
  expect(reset.statusCode).toBe(200);
  expect(await failuresOf(dev.email)).toBeUndefined();
  expect((await signIn(dev.email, newPassword)).statusCode).toBe(200);
});

it('counts an address with no account the same way, so the answers tell nothing', async () => {
  const nobody = 'nobody-here@example.com';
  for (let i = 0; i < FREE_FAILURES; i++) expect((await signIn(nobody, `guess-${i}`)).statusCode).toBe(401);
  expect((await signIn(nobody, 'guess')).statusCode).toBe(429);
});

it('slows down the admin sign-in per account too, and spelling the address otherwise does not escape it', async () => {
  for (let i = 0; i < FREE_FAILURES; i++)
    expect((await signIn(ADMIN.email, `guess-${i}`, '/v1/admin/authenticate')).statusCode).toBe(401);
  const res = await signIn(` ${ADMIN.email.toUpperCase()} `, ADMIN.password, '/v1/admin/authenticate');
  expect(res.statusCode).toBe(429);
  expect(res.headers['retry-after']).toBeDefined();
  expect(res.json().message).toMatch(
    /^Too many failed sign-ins for this account\. Try again in \d+ seconds?\.$/,
  );
  // A developer account of the same address is another account.
  expect(await failuresOf(ADMIN.email, 'developer')).toBeUndefined();
  await waitOut(ADMIN.email);
  expect((await signIn(ADMIN.email, ADMIN.password, '/v1/admin/authenticate')).statusCode).toBe(200);
  expect(await failuresOf(ADMIN.email, 'admin')).toBeUndefined();
});

it('answers bad input with 400 and counts nothing', async () => {
  const dev = await signUpAndActivate();
  for (const payload of [
    { email: dev.email },
    { email: dev.email, password: 12345 },
    { email: ['a'], password: 'x' },
    { email: dev.email, password: '' },
  ]) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/account/signin',
      payload,
      remoteAddress: freshAddress(),
    });
    expect([payload, res.statusCode]).toEqual([payload, 400]);
  }
  expect(await failuresOf(dev.email)).toBeUndefined();
});
