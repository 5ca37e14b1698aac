// The support address is configuration (SUPPORT_EMAIL), and the site reads it from the server.
import { loadConfig } from '../src/config';
import { createTestApp, type TestApp } from './support/test-app';

const env = (vars: Record<string, string>) => ({ NODE_ENV: 'test', JWT_SECRET: 'a'.repeat(32), ...vars });

describe('GET /v1/user/site_contact', () => {
  let t: TestApp;
  afterEach(() => t?.close());

  it('answers the configured SUPPORT_EMAIL, without a session', async () => {
    t = await createTestApp({ SUPPORT_EMAIL: 'help@afrofx.example' });
    const res = await t.app.inject({ method: 'GET', url: '/v1/user/site_contact' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ supportEmail: 'help@afrofx.example', demo: true, telegramBot: null });
  });

  it('answers the development default when none is configured', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/v1/user/site_contact' });
    expect(res.json().data).toEqual({ supportEmail: 'support@afrofx.local', demo: true, telegramBot: null });
  });
});

describe('SUPPORT_EMAIL', () => {
  it.each(['support', 'support@', 'a b@example.com', '<x@example.com>'])('refuses "%s"', (value) => {
    expect(() => loadConfig(env({ SUPPORT_EMAIL: value }))).toThrow(
      'SUPPORT_EMAIL must be an e-mail address such as support@example.com',
    );
  });
});
