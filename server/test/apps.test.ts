import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { apiKeys } from '../src/db/schema';
import { developerFactory, type Developer } from './support/developers';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const UNKNOWN_ID = '7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c';

type Method = 'GET' | 'POST';
const call = (method: Method, url: string, token?: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/v1/${url}`,
    payload,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

const signUpAndActivate = developerFactory(() => t, 'apps', 2);

let owner: Developer;
let intruder: Developer;
let ownersApp: string;
beforeAll(async () => {
  owner = await signUpAndActivate('Amina', 'Bello');
  intruder = await signUpAndActivate('Eve', 'Mallory');
  ownersApp = await t.newApp(owner, 'Owner Remittance');
});

describe('POST apps/create_app', () => {
  it('creates an app for the caller and answers 201 with its owner', async () => {
    const res = await call('POST', 'apps/create_app', owner.token, { name: '  Payroll Sync  ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      data: {
        _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Payroll Sync',
        user: { first_name: 'Amina', last_name: 'Bello', email: owner.email },
        createdAt: expect.any(String),
      },
      message: 'App created successfully.',
    });
  });

  it.each([
    ['a missing name', {}, 'Name is required.'],
    ['an empty name', { name: '' }, 'Name is required.'],
    ['a name of spaces only', { name: '    ' }, 'Name is required.'],
    ['a name over 80 characters', { name: 'x'.repeat(81) }, 'Name must be at most 80 characters.'],
    [
      'a smuggled field',
      { name: 'Fine', accountId: UNKNOWN_ID },
      'The field "accountId" is not accepted here.',
    ],
  ])('rejects %s with 400 and creates nothing', async (_name, payload, message) => {
    const before = (await call('GET', 'apps/all_apps', owner.token)).json().data.length;
    const res = await call('POST', 'apps/create_app', owner.token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message });
    expect((await call('GET', 'apps/all_apps', owner.token)).json().data.length).toBe(before);
  });

  it('needs a developer session: none is 401, an admin token is 403', async () => {
    expect((await call('POST', 'apps/create_app', undefined, { name: 'x' })).statusCode).toBe(401);
    expect((await call('POST', 'apps/create_app', await t.adminToken(), { name: 'x' })).statusCode).toBe(403);
  });
});

describe('GET apps/all_apps', () => {
  it("lists only the caller's apps, newest first", async () => {
    const dev = await signUpAndActivate();
    const empty = await call('GET', 'apps/all_apps', dev.token);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ data: [], message: 'Apps fetched.' });

    const first = await t.newApp(dev, 'First');
    const second = await t.newApp(dev, 'Second');
    await t.newApp(intruder, 'Not yours');
    const res = await call('GET', 'apps/all_apps', dev.token);
    expect(res.json().data.map((a: { _id: string }) => a._id)).toEqual([second, first]);
    expect(res.json().data[0].user.email).toBe(dev.email);
  });

  it('needs a developer session: none is 401, an admin token is 403', async () => {
    expect((await call('GET', 'apps/all_apps')).statusCode).toBe(401);
    expect((await call('GET', 'apps/all_apps', await t.adminToken())).statusCode).toBe(403);
  });
});

describe('POST account/generate_api_key/{appId} and GET account/api_key/{appId}', () => {
  it('answers null before any key has been generated', async () => {
    const appId = await t.newApp(owner, 'Keyless');
    const res = await call('GET', `account/api_key/${appId}`, owner.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null, message: 'No API key has been generated for this app yet.' });
  });

  it('returns the private key once and stores only its hash', async () => {
    const appId = await t.newApp(owner, 'Keyed');
    const res = await call('POST', `account/generate_api_key/${appId}`, owner.token);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      data: {
        public_key: expect.stringMatching(/^pk_[0-9a-f]{32}$/),
        private_key: expect.stringMatching(/^sk_[A-Za-z0-9_-]{32}$/),
        createdAt: expect.any(String),
      },
      message: 'API key generated. Copy the private key now: it will not be shown again.',
    });
    const { public_key, private_key } = res.json().data;

    const [row] = await t.runtime.database.db.select().from(apiKeys).where(eq(apiKeys.appId, appId));
    expect(row!.publicKey).toBe(public_key);
    expect(row!.privateKeyHash).toBe(createHash('sha256').update(private_key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(private_key);

    const shown = await call('GET', `account/api_key/${appId}`, owner.token);
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data.public_key).toBe(public_key);
    const masked: string = shown.json().data.private_key;
    expect(masked).not.toContain(private_key);
    expect(masked).not.toContain(private_key.slice(3, 27));
    expect(masked.startsWith('sk_')).toBe(true);
    expect(masked.endsWith(private_key.slice(-4))).toBe(true);
  });

  it('rotates the pair: both keys change and the api_key view follows', async () => {
    const appId = await t.newApp(owner, 'Rotated');
    const first = (await call('POST', `account/generate_api_key/${appId}`, owner.token)).json().data;
    const second = (await call('POST', `account/generate_api_key/${appId}`, owner.token)).json().data;
    expect(second.public_key).not.toBe(first.public_key);
    expect(second.private_key).not.toBe(first.private_key);

    const rows = await t.runtime.database.db.select().from(apiKeys).where(eq(apiKeys.appId, appId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.privateKeyHash).toBe(createHash('sha256').update(second.private_key).digest('hex'));
    const shown = (await call('GET', `account/api_key/${appId}`, owner.token)).json().data;
    expect(shown.public_key).toBe(second.public_key);
    expect(shown.private_key).not.toContain(second.private_key);
  });
});

// DESIGN §4: another developer's app is answered exactly like a missing one, so ids can't be probed.
describe('every {appId} call belongs to the app owner', () => {
  const appRoutes = [
    ['POST', 'account/generate_api_key'],
    ['GET', 'account/api_key'],
    ['GET', 'account/app_request_analytics'],
    ['GET', 'account/app_request'],
    ['GET', 'account/fetch_transactions'],
    ['GET', 'account/fetch_subscription'],
    ['GET', 'account/fetch_upcoming_subscription'],
  ] as const;

  it.each(appRoutes)('%s %s answers the owner with 200 or 201', async (method, route) => {
    const res = await call(method, `${route}/${ownersApp}`, owner.token);
    expect(res.statusCode).toBe(method === 'POST' ? 201 : 200);
  });

  it.each(appRoutes)(
    "%s %s is a 404 on another developer's app, the same as an unknown id",
    async (method, route) => {
      const foreign = await call(method, `${route}/${ownersApp}`, intruder.token);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'App not found.' });
      const unknown = await call(method, `${route}/${UNKNOWN_ID}`, intruder.token);
      expect(unknown.json()).toEqual(foreign.json());
    },
  );

  it.each(appRoutes)('%s %s rejects an appId that is not a uuid with 400', async (method, route) => {
    const res = await call(method, `${route}/12345`, owner.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The appId parameter is not a valid id.');
  });

  it.each(appRoutes)('%s %s without a token is 401, with an admin token 403', async (method, route) => {
    const none = await call(method, `${route}/${ownersApp}`);
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toBe('Authentication required.');
    expect((await call(method, `${route}/${ownersApp}`, await t.adminToken())).statusCode).toBe(403);
  });

  it("does not rotate the owner's key when someone else asks", async () => {
    const before = (await call('GET', `account/api_key/${ownersApp}`, owner.token)).json().data;
    expect((await call('POST', `account/generate_api_key/${ownersApp}`, intruder.token)).statusCode).toBe(
      404,
    );
    expect((await call('GET', `account/api_key/${ownersApp}`, owner.token)).json().data).toEqual(before);
  });

  it("does not list another developer's apps", async () => {
    const ids = (await call('GET', 'apps/all_apps', intruder.token))
      .json()
      .data.map((a: { _id: string }) => a._id);
    expect(ids).not.toContain(ownersApp);
  });
});
