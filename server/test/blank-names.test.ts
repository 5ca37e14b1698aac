// Names a person types are stored trimmed, and a name of spaces only is refused with a 400 that says so and stores
// nothing: a blank plan would go on sale, a blank feature or app would list as an empty line.
import { eq } from 'drizzle-orm';
import { planFeatures, plans } from '../src/db/schema';
import { developerFactory } from './support/developers';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let admin: { authorization: string };
const signUp = developerFactory(() => t, 'names', 93);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminHeaders();
});
afterAll(() => t.close());

const BLANKS = [' ', '   ', '\u00a0', ' \u2003 '];

describe('POST admin/create_plan', () => {
  it.each(BLANKS)('refuses a blank name (%j) and puts nothing on sale', async (name) => {
    const res = await t.createPlan({ name }, 400);
    expect(res.json().message).toBe('Name is required.');
    expect(await t.runtime.database.db.select().from(plans)).toHaveLength(0);
  });

  it('stores the name trimmed', async () => {
    const res = await t.createPlan({ name: '  Gold  ' });
    expect(res.json().data.name).toBe('Gold');
  });
});

describe('PUT admin/add_features_to_plan', () => {
  it('refuses a blank title and stores a title trimmed', async () => {
    const plan = (await t.createPlan({ name: 'Silver' })).json().data;
    const add = (title: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/v1/admin/add_features_to_plan/${plan._id}`,
        headers: admin,
        payload: { title },
      });
    for (const blank of BLANKS) {
      const res = await add(blank);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Title is required.');
    }
    expect(await t.runtime.database.db.select().from(planFeatures)).toHaveLength(0);
    expect((await add('  Webhooks ')).statusCode).toBeLessThan(300);
    const stored = await t.runtime.database.db
      .select()
      .from(planFeatures)
      .where(eq(planFeatures.planId, plan._id));
    expect(stored.map((row) => row.title)).toEqual(['Webhooks']);
  });
});

describe('POST apps/create_app', () => {
  it('refuses a blank name with a message', async () => {
    const developer = await signUp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/apps/create_app',
      headers: { authorization: `Bearer ${developer.token}` },
      payload: { name: ' \u00a0 ' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Name is required.');
  });
});
