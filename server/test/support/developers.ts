// Developers made the way a person makes one: sign up, open the activation link from the outbox, sign in.
import { eventually, type TestApp } from './test-app';

export interface Developer {
  id: string;
  email: string;
  token: string;
}

const PASSWORD = 'correct-horse-battery';

/**
 * Each developer signs up from an address of its own (10.<subnet>.0.<n>): the activation link route is
 * throttled per client address. `tag` keeps the e-mails of one test file apart from another's; `testApp` is read
 * at each call, as test files create their app in beforeAll.
 */
export function developerFactory(testApp: () => TestApp, tag: string, subnet: number) {
  let seq = 0;
  return async function signUpAndActivate(first_name = 'Ada', last_name = 'Okafor'): Promise<Developer> {
    const t = testApp();
    const n = ++seq;
    const email = `${tag}-dev${n}@example.com`;
    const remoteAddress = `10.${subnet}.0.${n}`;
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v1/account/signup',
      payload: { email, password: PASSWORD, first_name, last_name },
      remoteAddress,
    });
    expect(signup.statusCode).toBe(201);
    const prefix = `${t.config.publicUrl}/developer/activate_account/`;
    const link = await eventually(async () => {
      const found = (await t.mailsTo(email))[0]?.links.find((l) => l.startsWith(prefix));
      if (!found) throw new Error(`no activation mail to ${email} yet`);
      return found;
    });
    const activation = await t.app.inject({
      method: 'GET',
      url: `/v1/account/activate_account/${link.slice(prefix.length)}`,
      remoteAddress,
    });
    expect(activation.statusCode).toBe(200);
    const signin = await t.app.inject({
      method: 'POST',
      url: '/v1/account/signin',
      payload: { email, password: PASSWORD },
      remoteAddress,
    });
    expect(signin.statusCode).toBe(200);
    return { id: signin.json().data.user._id, email, token: signin.json().data.token };
  };
}

/**
 * Sign-in attempts each from an address of its own (10.<subnet>.x.y), as a botnet makes them: the limits per client
 * address never apply, only what the app keeps per account and per device.
 */
export function scatteredSignIns(testApp: () => TestApp, subnet: number) {
  let client = 0;
  const freshAddress = () => `10.${subnet}.${Math.floor(++client / 250)}.${(client % 250) + 1}`;
  const signIn = (url: string, email: string, password: unknown, headers: Record<string, string> = {}) =>
    testApp().app.inject({
      method: 'POST',
      url,
      payload: { email, password },
      remoteAddress: freshAddress(),
      headers,
    });
  return { freshAddress, signIn };
}
