// CI (npm run customer): runs the customer's scripts (quick-start.ts with the SDK, oxr-style.ts and fixer-style.ts
// as Open Exchange Rates' and Fixer's customers write them) against a fresh app after going
// through the README's steps over HTTP: sign up, activate from the e-mail, sign in, create an app, generate a key,
// and (the README's "ask us") an admin makes the account a premium customer and enters two rates.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { ADMIN, createTestApp } from '../../server/test/support/test-app';

async function main() {
  const t = await createTestApp();
  try {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const call = async (method: string, route: string, token?: string, body?: object) => {
      const res = await fetch(`${url}/v1/${route}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as { data: Record<string, unknown> };
      if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    const email = 'customer@example.com';
    const password = 'a-long-customer-password';
    await call('POST', 'account/signup', undefined, {
      email,
      password,
      first_name: 'Ama',
      last_name: 'Mensah',
    });
    const prefix = `${t.config.publicUrl}/developer/activate_account/`;
    let link: string | undefined;
    for (let tries = 0; !link && tries < 100; tries++) {
      link = (await t.outbox()).find((mail) => mail.to === email)?.links.find((l) => l.startsWith(prefix));
      if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!link) throw new Error('no activation mail');
    await call('GET', `account/activate_account/${link.slice(prefix.length)}`);
    const session = await call('POST', 'account/signin', undefined, { email, password });
    const token = session.token as string;
    const app = await call('POST', 'apps/create_app', token, { name: 'Treasury' });
    const key = await call('POST', `account/generate_api_key/${String(app._id)}`, token);
    const admin = (await call('POST', 'admin/authenticate', undefined, ADMIN)).token as string;
    await call(
      'PUT',
      `admin/enable_premium_customer/${String((session.user as { _id: string })._id)}`,
      admin,
    );
    for (const market of ['bank', 'black_market_cash'])
      await call('POST', 'admin/create_rate', admin, {
        market,
        base: 'naira',
        asset: 'dollar',
        buy: 1500,
        sell: 1510,
      });

    // Asynchronously: the API answering the scripts runs in this process. The quick-start's SDK script, then an
    // Open Exchange Rates and a Fixer customer's scripts with only the URL and key changed.
    for (const name of ['quick-start.ts', 'oxr-style.ts', 'fixer-style.ts']) {
      console.log(`\n${name}`);
      const script = spawn(
        path.join(import.meta.dirname, '../../node_modules/.bin/tsx'),
        // @afrofx/sdk's TypeScript source (sdk/package.json exports); scripts/sdk-pack-check.mjs runs its build.
        ['--conditions=@afrofx/source', path.join(import.meta.dirname, name)],
        { env: { ...process.env, AFROFX_URL: url, AFROFX_KEY: String(key.private_key) }, stdio: 'inherit' },
      );
      const [status] = (await once(script, 'exit')) as [number | null];
      if (status !== 0) {
        process.exitCode = status ?? 1;
        return;
      }
    }
  } finally {
    await t.close();
  }
}

void main();
