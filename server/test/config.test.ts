import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'afrofx-config-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const load = (env: Record<string, string | undefined> = {}) => loadConfig({ DATA_DIR: dataDir, ...env });
const SECRET = 'a-production-secret-of-at-least-32-chars';
const BASQET = { PAYMENT_PROVIDER: 'basqet', BASQET_PUBLIC_KEY: 'pk_live_x', BASQET_SECRET_KEY: 'sk_live_x' };

describe('loadConfig', () => {
  it('defaults to port 3000, links to localhost and demo data in the embedded mode', () => {
    const config = load();
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      publicUrl: 'http://localhost:3000',
      dataDir,
      databaseUrl: undefined,
      redisUrl: undefined,
      smtpUrl: undefined,
      paymentProvider: 'sandbox',
      twitter: undefined,
      demoData: true,
      adminEmail: 'admin@example.com',
      adminPassword: 'afrofx-admin',
    });
  });

  it('listens on this machine only unless HOST says otherwise', () => {
    expect(load().host).toBe('127.0.0.1');
    expect(load({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('writes readable logs in development and JSON lines elsewhere, unless LOG_FORMAT says otherwise', () => {
    expect(load().logFormat).toBe('pretty');
    expect(load({ NODE_ENV: 'test' }).logFormat).toBe('json');
    expect(load({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => load({ LOG_FORMAT: 'colour' })).toThrow('LOG_FORMAT must be pretty or json, got "colour"');
  });

  it.each(['afrofx-admin', 'afrofx-developer'])(
    'refuses the published password %s in production',
    (password) => {
      const env = { NODE_ENV: 'production', JWT_SECRET: SECRET, ADMIN_EMAIL: 'ops@example.com', ...BASQET };
      expect(() => load({ ...env, ADMIN_PASSWORD: password })).toThrow(
        'ADMIN_PASSWORD is the published demo password',
      );
      expect(load({ ...env, ADMIN_PASSWORD: 'a-password-of-our-own' }).adminPassword).toBe(
        'a-password-of-our-own',
      );
    },
  );

  it('refuses the demo data in production: its developer has a published password', () => {
    const env = { NODE_ENV: 'production', JWT_SECRET: SECRET, ...BASQET };
    expect(() => load({ ...env, DEMO_DATA: 'true' })).toThrow('DEMO_DATA seeds a developer');
    expect(load(env).demoData).toBe(false);
  });

  it('leaves demo data off with a database server unless DEMO_DATA asks for it', () => {
    expect(load({ DATABASE_URL: 'postgres://afrofx@db:5432/afrofx' }).demoData).toBe(false);
    expect(load({ DATABASE_URL: 'postgres://afrofx@db:5432/afrofx', DEMO_DATA: 'true' }).demoData).toBe(true);
    expect(load({ DEMO_DATA: 'off' }).demoData).toBe(false);
  });

  it('allows webhook targets on private addresses only in the embedded demo, unless told otherwise', () => {
    expect(load().webhooks).toEqual({
      allowPrivateTargets: true,
      timeoutMs: 10_000,
      retryBaseMs: 30_000,
      appInFlight: 2,
      accountInFlight: 4,
      parkAfterFailures: 5,
      parkCooldownMs: 600_000,
    });
    expect(load({ DATABASE_URL: 'postgres://afrofx@db:5432/afrofx' }).webhooks.allowPrivateTargets).toBe(
      false,
    );
    expect(load({ NODE_ENV: 'production', JWT_SECRET: SECRET, ...BASQET }).webhooks.allowPrivateTargets).toBe(
      false,
    );
    expect(load({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).webhooks.allowPrivateTargets).toBe(false);
    expect(
      load({ DATABASE_URL: 'postgres://afrofx@db:5432/afrofx', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })
        .webhooks.allowPrivateTargets,
    ).toBe(true);
  });

  it('builds e-mail links from PUBLIC_URL without a trailing slash, and from PORT otherwise', () => {
    expect(load({ PUBLIC_URL: 'https://afrofx.example/' }).publicUrl).toBe('https://afrofx.example');
    expect(load({ PORT: '8080' })).toMatchObject({ port: 8080, publicUrl: 'http://localhost:8080' });
  });

  it.each([
    ['PORT is not a number', { PORT: 'eighty' }, 'PORT must be a whole number from 0 to 65535, got "eighty"'],
    ['PORT is out of range', { PORT: '70000' }, 'PORT must be a whole number from 0 to 65535, got "70000"'],
    [
      'DATABASE_URL is not PostgreSQL',
      { DATABASE_URL: 'mysql://db/afrofx' },
      'DATABASE_URL must start with postgres:// or postgresql://',
    ],
    [
      'DATABASE_URL is not a URL',
      { DATABASE_URL: 'db:5432' },
      'DATABASE_URL must start with postgres:// or postgresql://',
    ],
    [
      'REDIS_URL is not Redis',
      { REDIS_URL: 'http://cache:6379' },
      'REDIS_URL must start with redis:// or rediss://',
    ],
    [
      'TRUST_PROXY is negative',
      { TRUST_PROXY: '-1' },
      'TRUST_PROXY must be a whole number from 0 up, got "-1"',
    ],
    [
      'RUN_WORKER_IN_API is not a boolean',
      { RUN_WORKER_IN_API: 'sometimes' },
      'RUN_WORKER_IN_API must be true or false, got "sometimes"',
    ],
    ['DEMO_DATA is not a boolean', { DEMO_DATA: 'maybe' }, 'DEMO_DATA must be true or false, got "maybe"'],
    [
      'WEBHOOK_ALLOW_PRIVATE_TARGETS is not a boolean',
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'perhaps' },
      'WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false, got "perhaps"',
    ],
    [
      'WEBHOOK_TIMEOUT_MS is zero',
      { WEBHOOK_TIMEOUT_MS: '0' },
      'WEBHOOK_TIMEOUT_MS must be a whole number above 0, got "0"',
    ],
    [
      'JWT_SECRET is too short',
      { JWT_SECRET: 'short-secret' },
      'JWT_SECRET must be at least 32 characters long',
    ],
    [
      'production has no JWT_SECRET',
      { NODE_ENV: 'production' },
      'JWT_SECRET is required when NODE_ENV=production',
    ],
    [
      'ADMIN_PASSWORD is too short',
      { ADMIN_PASSWORD: 'short' },
      'ADMIN_PASSWORD must be at least 8 characters long',
    ],
    [
      'only some Twitter credentials are set',
      { TWITTER_APP_KEY: 'key', TWITTER_APP_SECRET: 'secret' },
      'TWITTER_APP_KEY, TWITTER_APP_SECRET, TWITTER_ACCESS_TOKEN and TWITTER_ACCESS_SECRET go together',
    ],
    [
      'PAYMENT_PROVIDER is unknown',
      { PAYMENT_PROVIDER: 'other' },
      'PAYMENT_PROVIDER must be sandbox or basqet, got "other"',
    ],
    [
      'production is left on the sandbox payment provider',
      { NODE_ENV: 'production', JWT_SECRET: SECRET },
      'PAYMENT_PROVIDER=sandbox takes no real payments',
    ],
    [
      'the webhook signature check is unknown',
      { BASQET_WEBHOOK_SIGNATURE: 'md5' },
      'BASQET_WEBHOOK_SIGNATURE must be none or hmac-sha512, got "md5"',
    ],
    [
      'basqet has no keys',
      { PAYMENT_PROVIDER: 'basqet' },
      'PAYMENT_PROVIDER=basqet needs BASQET_PUBLIC_KEY and BASQET_SECRET_KEY',
    ],
  ])('fails with a clear ConfigError when %s', (_name, env, message) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });

  it("points at Basqet's API and basqet.js with keys, and at the sandbox (SANDBOX_PAY_URL, else PUBLIC_URL) without", () => {
    expect(load({ NODE_ENV: 'production', JWT_SECRET: SECRET, ...BASQET }).payment).toMatchObject({
      apiUrl: 'https://api.basqet.com/v1',
      scriptUrl: 'https://checkout.basqet.com/static/prod/basqet.js',
      publicKey: 'pk_live_x',
      webhookSignature: 'none',
    });
    expect(load().payment).toMatchObject({
      apiUrl: 'http://localhost:3000/sandbox-pay/v1',
      scriptUrl: '/sandbox-pay/basqet.js',
    });
    expect(load({ SANDBOX_PAY_URL: 'http://api:3000/sandbox-pay' }).payment.apiUrl).toBe(
      'http://api:3000/sandbox-pay/v1',
    );
    expect(load({ ...BASQET, SANDBOX_PAY_URL: 'http://api:3000/sandbox-pay' }).payment.apiUrl).toBe(
      'https://api.basqet.com/v1',
    );
  });

  it('has no default admin password and no demo data in production', () => {
    const config = load({ NODE_ENV: 'production', JWT_SECRET: SECRET, ...BASQET });
    expect(config).toMatchObject({
      env: 'production',
      jwtSecret: SECRET,
      adminEmail: undefined,
      adminPassword: undefined,
      demoData: false,
    });
  });

  it('takes all four Twitter credentials together', () => {
    const config = load({
      TWITTER_APP_KEY: 'k',
      TWITTER_APP_SECRET: 's',
      TWITTER_ACCESS_TOKEN: 't',
      TWITTER_ACCESS_SECRET: 'a',
    });
    expect(config.twitter).toEqual({ appKey: 'k', appSecret: 's', accessToken: 't', accessSecret: 'a' });
  });

  it('generates a JWT secret once, keeps it in DATA_DIR and reuses it', () => {
    const first = load().jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(first);
    expect(load().jwtSecret).toBe(first);
  });

  it('accepts TRUST_PROXY=0, the documented default, and a number of hops', () => {
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(0);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load().trustProxy).toBe(0);
  });

  it('runs the job worker in the API process only when RUN_WORKER_IN_API asks for it', () => {
    expect(load().runWorkerInApi).toBe(false);
    expect(load({ RUN_WORKER_IN_API: 'true' }).runWorkerInApi).toBe(true);
  });

  it('prefers JWT_SECRET to the generated one', () => {
    expect(load({ JWT_SECRET: SECRET }).jwtSecret).toBe(SECRET);
  });
});
