import { DEFAULT_ADMIN_SETTINGS } from '@afrofx/shared';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminHeaders();
});
afterAll(() => t.close());

const read = () => t.app.inject({ method: 'GET', url: '/v1/admin/settings', headers: admin });
const change = (payload: unknown) =>
  t.app.inject({ method: 'PUT', url: '/v1/admin/settings', headers: admin, payload: payload as object });

describe('admin/settings', () => {
  it('answers the defaults before anyone sets anything', async () => {
    const res = await read();
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(DEFAULT_ADMIN_SETTINGS);
  });

  it('changes only the settings given and keeps them', async () => {
    const res = await change({ deskMovePercent: 35, publicationTimeZone: 'Africa/Nairobi' });
    expect(res.statusCode).toBe(200);
    expect((await read()).json().data).toEqual({
      ...DEFAULT_ADMIN_SETTINGS,
      deskMovePercent: 35,
      publicationTimeZone: 'Africa/Nairobi',
    });
  });

  it.each([
    [{ deskMovePercent: 0 }, 'Desk move percent'],
    [
      { publicationDeadlines: { bank: '25:00', black_market_cash: '10:00', black_market_transfer: '10:00' } },
      'Bank',
    ],
    [{ publicationTimeZone: 'Mars/Olympus' }, 'not a time zone'],
    [{ somethingElse: 1 }, 'somethingElse'],
  ])('refuses %j with a 400 naming the problem, and changes nothing', async (payload, named) => {
    const before = (await read()).json().data;
    const res = await change(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(named);
    expect((await read()).json().data).toEqual(before);
  });

  it('is for admins only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/admin/settings' });
    expect(res.statusCode).toBe(401);
  });
});
