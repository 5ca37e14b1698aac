// SPEC §2 admin Users, API Customers and Apps, §4 status actions, §8 messages; DESIGN §4 pages of 20 newest first.
// The console must keep an admin who can sign in: nobody disables itself or the last active admin.
import { accounts, apps } from '../src/db/schema';
import { developerFactory, type Developer } from './support/developers';
import { ADMIN, createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let admin: { authorization: string };
let adminId: string;
let dev: Developer;
const signUp = developerFactory(() => t, 'admin-users', 47);
const STRONG = 'violet-granite-harbour-42';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminHeaders();
  adminId = (await findUser(ADMIN.email))!._id;
  dev = await signUp('Amara', 'Eze');
});
afterAll(() => t.close());

const db = () => t.runtime.database.db;
const MINUTE = 60_000;
// Fixtures are dated in the past, each newer than the one before, so "newest first" has one right answer.
let clock = Date.now() - 10_000 * MINUTE;
const tick = () => new Date((clock += MINUTE));

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, headers = admin, payload?: object) =>
  t.app.inject({ method, url: `/v1/admin/${url}`, headers, payload });

async function allUsers(): Promise<
  Array<{ _id: string; email: string; role: string; status: string; state: string }>
> {
  const users = [];
  for (let page: number | null = 1; page !== null;) {
    const res = await inject('GET', `fetch_users?page=${page}`);
    expect(res.statusCode).toBe(200);
    users.push(...res.json().data);
    page = res.json().pagination.next;
  }
  return users;
}
const findUser = async (email: string) => (await allUsers()).find((u) => u.email === email);

async function createAdmin(email: string) {
  const res = await inject('POST', 'create_user', admin, { email, password: STRONG });
  expect(res.statusCode).toBe(201);
  return res.json().data._id as string;
}

async function signIn(email: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/admin/authenticate',
    payload: { email, password: STRONG },
  });
}

describe('access', () => {
  const calls: Array<['GET' | 'POST' | 'PUT', string, object | undefined]> = [
    ['POST', 'create_user', { email: 'nobody@example.com', password: STRONG }],
    ['GET', 'fetch_users?page=1', undefined],
    ['GET', 'fetch_apps?page=1', undefined],
  ];

  test.each(calls)('%s %s: 401 without a token, 403 for a developer', async (method, url, payload) => {
    const anonymous = await t.app.inject({ method, url: `/v1/admin/${url}`, payload });
    expect(anonymous.statusCode).toBe(401);
    const developer = await inject(method, url, { authorization: `Bearer ${dev.token}` }, payload);
    expect(developer.statusCode).toBe(403);
    expect(await findUser('nobody@example.com')).toBeUndefined();
  });
});

describe('create_user', () => {
  test('creates an admin who can sign in, listed with its role', async () => {
    const res = await inject('POST', 'create_user', admin, {
      email: ' New.Admin@Example.com ',
      password: STRONG,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('Account successfully created.');
    expect(res.json().data).toMatchObject({
      email: 'new.admin@example.com',
      role: 'admin',
      status: 'active',
    });
    expect((await signIn('new.admin@example.com')).statusCode).toBe(200);
  });

  test('409 for an address that is taken, by an admin or a developer, whatever its case', async () => {
    for (const email of [ADMIN.email.toUpperCase(), dev.email]) {
      const res = await inject('POST', 'create_user', admin, { email, password: STRONG });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('An account with this e-mail address already exists.');
    }
    expect((await findUser(dev.email))!.role).toBe('developer');
  });

  test.each([
    ['a weak password', 'weak.admin@example.com', 'password1'],
    ['a password made of the address', 'kofi.mensah@example.com', 'kofi.mensah@example.com'],
    ['a missing password', 'blank.admin@example.com', ''],
  ])('400 for %s, and nothing is created', async (_case, email, password) => {
    const res = await inject('POST', 'create_user', admin, { email, password });
    expect(res.statusCode).toBe(400);
    expect(res.json().message.length).toBeGreaterThan(0);
    expect(await findUser(email)).toBeUndefined();
  });

  test('400 for a malformed address or an extra field', async () => {
    expect(
      (await inject('POST', 'create_user', admin, { email: 'not-an-address', password: STRONG })).statusCode,
    ).toBe(400);
    const extra = await inject('POST', 'create_user', admin, {
      email: 'extra.admin@example.com',
      password: STRONG,
      role: 'developer',
    });
    expect(extra.statusCode).toBe(400);
    expect(await findUser('extra.admin@example.com')).toBeUndefined();
  });
});

describe('fetch_users', () => {
  test('every account, admins and developers, newest first, 20 a page', async () => {
    const before = (await inject('GET', 'fetch_users')).json().pagination.count as number;
    // Dated in the future: these 25 are the newest accounts, in this order.
    const future = Date.now() + 1000 * MINUTE;
    const made = Array.from({ length: 25 }, (_, n) => ({
      email: `listed${String(n).padStart(2, '0')}@example.com`,
      passwordHash: 'not-a-hash',
      role: n % 2 === 0 ? ('developer' as const) : ('admin' as const),
      createdAt: new Date(future + n * MINUTE),
    }));
    await db().insert(accounts).values(made);

    const first = await inject('GET', 'fetch_users?page=1');
    expect(first.statusCode).toBe(200);
    expect(first.json().pagination).toEqual({ next: 2, count: before + 25 });
    const page1 = first.json().data as Array<{ email: string; role: string }>;
    expect(page1).toHaveLength(20);
    expect(page1.map((u) => u.email)).toEqual(
      made
        .slice(5)
        .reverse()
        .map((u) => u.email),
    );
    expect(page1[0]).toMatchObject({ role: 'developer', status: 'active', state: 'normal_customer' });
    expect(page1[1]).toMatchObject({ role: 'admin' });

    const second = (await inject('GET', 'fetch_users?page=2')).json();
    expect(second.data.slice(0, 5).map((u: { email: string }) => u.email)).toEqual(
      made
        .slice(0, 5)
        .reverse()
        .map((u) => u.email),
    );
    const all = await allUsers();
    expect(all).toHaveLength(before + 25);
    expect(new Set(all.map((u) => u._id)).size).toBe(all.length);
    expect(all.some((u) => u.email === dev.email && u.role === 'developer')).toBe(true);
  });

  test('400 for a page that is not a positive number', async () => {
    for (const page of ['0', '-1', 'two']) {
      expect((await inject('GET', `fetch_users?page=${page}`)).statusCode).toBe(400);
    }
  });
});

describe('status and super customer actions', () => {
  test('disable and enable a developer, with the SPEC §8 messages', async () => {
    const disabled = await inject('PUT', `disable_account/${dev.id}`);
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().message).toBe('Account successfully disabled.');
    expect((await findUser(dev.email))!.status).toBe('disabled');
    const enabled = await inject('PUT', `enable_account/${dev.id}`);
    expect(enabled.json().message).toBe('Account successfully enabled.');
    expect((await findUser(dev.email))!.status).toBe('active');
  });

  test('the super customer toggle sets and clears premium_customer', async () => {
    // The toast says what happened (SPEC §8's 'Account successfully enabled.' did not).
    const premium = await inject('PUT', `enable_premium_customer/${dev.id}`);
    expect(premium.json().message).toBe('The account is now a super customer.');
    expect((await findUser(dev.email))!.state).toBe('premium_customer');
    const normal = await inject('PUT', `enable_normal_customer/${dev.id}`);
    expect(normal.json().message).toBe('The account is no longer a super customer.');
    expect((await findUser(dev.email))!.state).toBe('normal_customer');
  });

  test('an admin cannot disable itself', async () => {
    const res = await inject('PUT', `disable_account/${adminId}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('You cannot disable your own account.');
    expect((await findUser(ADMIN.email))!.status).toBe('active');
    expect((await inject('GET', 'fetch_users')).statusCode).toBe(200);
  });

  test('the last active admin cannot be disabled, even by two admins disabling each other at once', async () => {
    const others = (await allUsers()).filter((u) => u.role === 'admin' && u._id !== adminId);
    for (const other of others) {
      if (other.status === 'active')
        expect((await inject('PUT', `disable_account/${other._id}`)).statusCode).toBe(200);
    }
    const last = await t.runtime.services.adminUsers
      .setStatus(adminId, 'disabled')
      .catch((err: Error) => err);
    expect(last).toBeInstanceOf(Error);
    expect((last as Error).message).toBe('The last active admin cannot be disabled.');
    expect((await findUser(ADMIN.email))!.status).toBe('active');

    const partner = await createAdmin('partner.admin@example.com');
    const partnerAuth = {
      authorization: `Bearer ${(await signIn('partner.admin@example.com')).json().data.token}`,
    };
    const [mine, theirs] = await Promise.all([
      inject('PUT', `disable_account/${partner}`),
      inject('PUT', `disable_account/${adminId}`, partnerAuth),
    ]);
    // The loser is refused by the rule (400), or, when the winner went first, by its ended session (401).
    expect([mine.statusCode, theirs.statusCode].filter((code) => code === 200)).toHaveLength(1);
    expect([mine.statusCode, theirs.statusCode].every((code) => [200, 400, 401].includes(code))).toBe(true);
    const stillActive = (
      await t.runtime.services.adminUsers.list({ page: 1, limit: 10_000, offset: 0 })
    ).rows.filter((u) => u.role === 'admin' && u.status === 'active');
    expect(stillActive).toHaveLength(1);
    // Put the suite's admin back in charge for the tests that follow.
    if (stillActive[0]!._id !== adminId) {
      await t.runtime.services.adminUsers.setStatus(adminId, 'active');
      admin = {
        authorization: `Bearer ${(await t.app.inject({ method: 'POST', url: '/v1/admin/authenticate', payload: ADMIN })).json().data.token}`,
      };
    }
  });

  test('404 for an unknown account, 400 for a malformed id', async () => {
    const unknown = await inject('PUT', 'disable_account/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect((await inject('PUT', 'enable_premium_customer/not-an-id')).statusCode).toBe(400);
  });
});

describe('API customers', () => {
  test('a developer who signs up joins the API waiting list, activated, once', async () => {
    const other = await signUp('Thabo', 'Nkosi');
    const again = await t.app.inject({
      method: 'POST',
      url: '/v1/account/signup',
      payload: {
        email: other.email,
        password: 'correct-horse-battery',
        first_name: 'Thabo',
        last_name: 'Nkosi',
      },
      remoteAddress: '10.47.1.1',
    });
    expect(again.statusCode).toBe(201);
    const res = await inject('GET', 'fetch_mailing_list?mail_type=api_wait_list_user');
    expect(res.statusCode).toBe(200);
    const listed = (res.json().data as Array<{ email: string; isActivated: boolean }>).filter((s) =>
      [dev.email, other.email].includes(s.email),
    );
    expect(listed.map((s) => s.email)).toEqual([other.email, dev.email]);
    expect(listed.every((s) => s.isActivated)).toBe(true);
    const mailingList = await inject('GET', 'fetch_mailing_list');
    expect(mailingList.json().data.some((s: { email: string }) => s.email === dev.email)).toBe(false);
  });
});

describe('fetch_apps', () => {
  test('every app with its creator, newest first, 20 a page', async () => {
    const future = Date.now() + 5000 * MINUTE;
    const made = Array.from({ length: 23 }, (_, n) => ({
      accountId: dev.id,
      name: `Ledger ${n}`,
      createdAt: new Date(future + n * MINUTE),
    }));
    await db().insert(apps).values(made);
    await db().insert(apps).values({ accountId: dev.id, name: 'Oldest app', createdAt: tick() });

    const first = await inject('GET', 'fetch_apps?page=1');
    expect(first.statusCode).toBe(200);
    expect(first.json().pagination).toEqual({ next: 2, count: 24 });
    expect(first.json().data.map((a: { name: string }) => a.name)).toEqual(
      made
        .slice(3)
        .reverse()
        .map((a) => a.name),
    );
    expect(first.json().data[0]).toMatchObject({
      name: 'Ledger 22',
      user: { first_name: 'Amara', last_name: 'Eze', email: dev.email },
    });
    const second = (await inject('GET', 'fetch_apps?page=2')).json();
    expect(second.pagination.next).toBeNull();
    expect(second.data.map((a: { name: string }) => a.name)).toEqual([
      'Ledger 2',
      'Ledger 1',
      'Ledger 0',
      'Oldest app',
    ]);
  });
});
