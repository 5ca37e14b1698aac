// Every route Fastify serves, fed generated bad input (params, query, body, headers; with and
// without valid admin and developer sessions), answers below 500, and a refused request changes no row. The routes
// are read from the running app, so a route added later is covered without touching this file.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { developerFactory } from './support/developers';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
}

/** The route table as Fastify prints it: a tree whose lines read `├── /segment (GET, HEAD)`. */
function routeTable(printed: string): Route[] {
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of printed.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (stack[depth - 1] ?? '') + match[2]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of match[3]!.split(', '))
      if (['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(method))
        routes.push({ method: method as Route['method'], path });
  }
  return routes;
}

/** Rows of a raw statement (node-postgres and PGlite both answer `{ rows }`). */
async function rowsOf<T>(statement: ReturnType<typeof sql.raw>): Promise<T[]> {
  return ((await t.runtime.database.db.execute(statement)) as unknown as { rows: T[] }).rows;
}

/** Row count of every table of the application schema, in one statement. */
let tableNames: Array<{ table_name: string }> | undefined;

/**
 * The counts as of a write-ahead log position. No table here is unlogged, so a row inserted or deleted moves the
 * position: while it has not moved, the counts have not either, and the thousands of refused requests below (most
 * of which write nothing) are checked without counting every table twice each.
 */
let counted: { wal: string; counts: Record<string, number> } | undefined;

async function rowCounts(): Promise<Record<string, number>> {
  // Read before counting: a write made while counting leaves the stored position behind, so the next call counts.
  const [{ wal }] = (await rowsOf<{ wal: string }>(
    sql.raw('select pg_current_wal_insert_lsn()::text as wal'),
  )) as [{ wal: string }];
  if (counted?.wal === wal) return counted.counts;
  const counts = await countRows();
  counted = { wal, counts };
  return counts;
}

async function countRows(): Promise<Record<string, number>> {
  // No route adds a table: the list is read once.
  const tables = (tableNames ??= await rowsOf<{ table_name: string }>(
    sql.raw(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    ),
  ));
  const [counts] = await rowsOf<Record<string, string>>(
    sql.raw(
      `select ${tables.map(({ table_name: name }) => `(select count(*) from "${name}") as "${name}"`).join(', ')}`,
    ),
  );
  return Object.fromEntries(Object.entries(counts!).map(([name, n]) => [name, Number(n)]));
}

const badStrings = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u001b[31m',
    '%00',
    '../../etc/passwd',
    "' or 1=1 --",
    'urn:uuid:7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c',
    '7D0C0A54-3C57-4D0C-9F0F-0C0C0C0C0C0C',
    '00000000-0000-0000-0000-000000000000',
    '1e20',
    '1e300',
    '-1',
    '0',
    '2147483648',
    '9'.repeat(400),
    'x'.repeat(5000),
    'NaN',
    'null',
    '[]',
    '{}',
    'bank',
    'mailing_list',
    'a@b.c',
    '\ud800',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.uuid(),
);

/** Percent-encoded; a lone surrogate, which has no UTF-8 form, goes as the invalid bytes a client could send. */
const pathSegment = (value: string) =>
  [...value].map((ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');

const badValue = fc.oneof(
  badStrings,
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e20, 1e300, -0, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
  fc.array(badStrings, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), badStrings, { maxKeys: 3 }),
);

/** The field names the routes take, so generated bodies reach past "not an accepted field" too. */
const FIELDS = [
  'email',
  'password',
  'first_name',
  'last_name',
  'code',
  'oldPassword',
  'newPassword',
  'name',
  'market',
  'asset',
  'base',
  'buy',
  'sell',
  'page',
  'mail_type',
  'from',
  'to',
  'amount',
  'side',
  'role',
] as const;

const fieldsObject = fc.dictionary(fc.constantFrom(...FIELDS), badValue, { maxKeys: 6 });

describe('every route, fed generated bad input', () => {
  it('answers below 500, and a refused request changes no row', async () => {
    const routes = routeTable(t.app.printRoutes({ commonPrefix: false }));
    expect(routes.length).toBeGreaterThan(30);
    const developer = await developerFactory(() => t, 'routes', 9)();
    const ownApp = await t.newApp(developer, 'Property app');
    const sessions = {
      none: undefined,
      admin: `Bearer ${await t.adminToken()}`,
      developer: `Bearer ${developer.token}`,
      forged: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
      garbage: 'Basic \u00ff\u00fe',
    };

    const request = fc.record({
      route: fc.constantFrom(...routes),
      param: fc.oneof(badStrings, fc.constant(ownApp)),
      query: fc.dictionary(fc.constantFrom(...FIELDS, 'x'), badStrings, { maxKeys: 3 }),
      body: fc.oneof(
        fieldsObject,
        fc.jsonValue({ maxDepth: 2 }),
        fc.constantFrom('{"email":', 'not json', '\u0000', '['.repeat(50)),
      ),
      contentType: fc.constantFrom(
        'application/json',
        'application/json; charset=utf-16',
        'text/plain',
        'application/x-www-form-urlencoded',
        undefined,
      ),
      session: fc.constantFrom(...(Object.keys(sessions) as Array<keyof typeof sessions>)),
    });

    await fc.assert(
      fc.asyncProperty(request, async ({ route, param, query, body, contentType, session }) => {
        const path = route.path.replace(/:\w+|\*/g, () => pathSegment(param));
        const search = new URLSearchParams(query as Record<string, string>).toString();
        const headers: Record<string, string> = {};
        if (sessions[session]) headers.authorization = sessions[session]!;
        if (contentType) headers['content-type'] = contentType;
        const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
        const before = await rowCounts();
        const res = await t.app.inject({
          method: route.method,
          url: search ? `${path}?${search}` : path,
          headers,
          ...(hasBody ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
          remoteAddress: '10.90.0.1',
        });
        if (res.statusCode >= 500)
          throw new Error(`${route.method} ${path} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
        if (res.statusCode >= 400) expect(await rowCounts()).toEqual(before);
      }),
      { numRuns: 800 },
    );
  }, 120_000);
});

describe('the admin routes', () => {
  it('answer 403 to a developer token, every one of them, read from the route table', async () => {
    // admin/authenticate is the admin sign-in itself; admin/signout only clears the browser's cookie.
    const admin = routeTable(t.app.printRoutes({ commonPrefix: false })).filter(
      (route) =>
        route.path.startsWith('/v1/admin/') &&
        route.path !== '/v1/admin/authenticate' &&
        route.path !== '/v1/admin/signout',
    );
    expect(admin.length).toBeGreaterThan(20);
    const developer = await developerFactory(() => t, 'admin-routes', 19)();
    const before = await rowCounts();
    const refused: string[] = [];
    for (const route of admin) {
      const res = await t.app.inject({
        method: route.method,
        // Any path parameter gets a well-formed id, so only the role can refuse the call.
        url: route.path.replace(/:[A-Za-z]+/g, '7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c'),
        headers: { authorization: `Bearer ${developer.token}` },
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      if (res.statusCode !== 403) refused.push(`${route.method} ${route.path}: ${res.statusCode}`);
    }
    expect(refused).toEqual([]);
    expect(await rowCounts()).toEqual(before);
  });
});

// The outside probe's cases, replayed on every route with both sessions. Numbers that only look finite
// (Infinity, 1e309), -0, 2^53 + 1, dates out of any calendar a rate has, and values of the wrong JSON type for
// every field. The markers let the last check find a wrongly typed value that was stored as text.
const WRONG_NUMBER = 31337021;
const WRONG_ARRAY_ITEM = 'zq21marker';
const EDGE_QUERIES = [
  'page=Infinity',
  'page=1e309',
  'page=-0',
  'page=9007199254740993',
  'page=NaN',
  'from=0000-01-01&to=0000-12-31',
  'market=bank&asset=dollar&base=naira&from=0000-01-01&to=0000-12-31',
  'from=9999-01-01&to=9999-12-31',
  'from=0000-01-01&to=9999-12-31&interval=day',
  'amount=Infinity&from=dollar&to=naira',
  'amount=1e309&from=dollar&to=naira',
  'amount=-0&from=dollar&to=naira',
  'amount=NaN&from=dollar&to=naira',
];
const WRONG_TYPES: unknown[] = [WRONG_NUMBER, true, [WRONG_ARRAY_ITEM], '\ud800', null, { x: 1 }];

/** A body every field of which is valid for some route, so one wrong field is what a route sees first. */
const VALID_BODY: Record<string, unknown> = {
  email: 'edge@example.com',
  password: 'Edge-password-21!',
  first_name: 'Edge',
  last_name: 'Case',
  name: 'Edge app',
  market: 'bank',
  asset: 'dollar',
  base: 'naira',
  buy: 1000,
  sell: 1001,
  mail_type: 'mailing_list',
};

describe('every route, fed the edge values of the outside probe', () => {
  it('answers below 500, a refused request changes no row, and no wrongly typed value is stored', async () => {
    const routes = routeTable(t.app.printRoutes({ commonPrefix: false }));
    const developer = await developerFactory(() => t, 'edges', 29)();
    const sessions = [`Bearer ${await t.adminToken()}`, `Bearer ${developer.token}`];
    const failures: string[] = [];
    const send = async (route: Route, url: string, authorization: string, payload?: unknown) => {
      // Read right before the request: jobs a request before it started may still be writing.
      const before = await rowCounts();
      const res = await t.app.inject({
        method: route.method,
        url,
        headers: { authorization },
        ...(payload === undefined
          ? {}
          : {
              payload: JSON.stringify(payload),
              headers: { authorization, 'content-type': 'application/json' },
            }),
        remoteAddress: '10.90.0.2',
      });
      const what = `${route.method} ${url} ${payload === undefined ? '' : JSON.stringify(payload)}`;
      if (res.statusCode >= 500) failures.push(`${what}: ${res.statusCode}`);
      else if (res.statusCode >= 400 && JSON.stringify(await rowCounts()) !== JSON.stringify(before))
        failures.push(`${what}: ${res.statusCode} and rows changed`);
    };
    for (const route of routes) {
      const path = route.path.replace(/:\w+|\*/g, '7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c');
      const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
      for (const authorization of sessions) {
        for (const query of EDGE_QUERIES)
          await send(route, `${path}?${query}`, authorization, hasBody ? {} : undefined);
        if (!hasBody) continue;
        for (const field of Object.keys(VALID_BODY))
          for (const wrong of WRONG_TYPES)
            await send(route, path, authorization, { ...VALID_BODY, [field]: wrong });
      }
    }
    expect(failures).toEqual([]);

    const textColumns = await rowsOf<{ table_name: string; column_name: string }>(
      sql.raw(
        "select table_name, column_name from information_schema.columns where table_schema = 'public' and data_type in ('text', 'character varying')",
      ),
    );
    const stored = await rowsOf<{ at: string; value: string }>(
      sql.raw(
        textColumns
          .map(
            ({ table_name: table, column_name: column }) =>
              `select '${table}.${column}' as at, "${column}"::text as value from "${table}" where "${column}" in ('${WRONG_NUMBER}', '${WRONG_ARRAY_ITEM}', 'true') or "${column}" like '%' || chr(65533) || '%'`,
          )
          .join(' union all '),
      ),
    );
    expect(stored).toEqual([]);
  }, 600_000);
});
