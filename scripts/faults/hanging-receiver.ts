// The seventh fault: a customer's webhook receiver that never answers, sent 50 test events, must not
// delay the platform's own work. A sign-up right after them gets its activation mail within 2 s.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import type { SmtpSink } from '../../server/test/support/smtp-sink';
import { waitUntil } from './processes';

export const TEST_EVENTS = 50;
export const ACTIVATION_MAIL_LIMIT_MS = 2000;

interface Target {
  apiUrl: string;
  smtp: SmtpSink;
  db: pg.Pool;
}

/** The links of the mails the sink received for `email` (quoted-printable undone). */
const linksTo = (smtp: SmtpSink, email: string) =>
  smtp.delivered
    .filter((mail) => mail.to.includes(email))
    .flatMap(
      (mail) =>
        mail.raw
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '=')
          .match(/https?:\/\/[^\s"'<>]+/g) ?? [],
    );

async function json(apiUrl: string, method: string, url: string, body?: object, token?: string) {
  const res = await fetch(`${apiUrl}/v1/${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as { data: Record<string, unknown> };
}

/** A developer signed up, activated and signed in through the API, with an app on a plan. */
async function developerWithApp({ apiUrl, smtp, db }: Target, email: string) {
  const password = 'hanging-receiver-fault';
  await json(apiUrl, 'POST', 'account/signup', {
    email,
    password,
    first_name: 'Hanging',
    last_name: 'Receiver',
  });
  const prefix = `${apiUrl}/developer/activate_account/`;
  if (!(await waitUntil(async () => linksTo(smtp, email).some((l) => l.startsWith(prefix)), 30_000)))
    throw new Error(`no activation mail to ${email}`);
  const token = linksTo(smtp, email)
    .find((l) => l.startsWith(prefix))!
    .slice(prefix.length);
  await json(apiUrl, 'GET', `account/activate_account/${token}`);
  const session = (await json(apiUrl, 'POST', 'account/signin', { email, password })).data.token as string;
  const appId = (await json(apiUrl, 'POST', 'apps/create_app', { name: 'Hanging receiver' }, session)).data
    ._id as string;
  await db.query(
    `INSERT INTO subscriptions (app_id, plan_name, status, request_limit, starts_at, expire_at)
     VALUES ($1, 'Hanging receiver plan', 'active', 1000, now() - interval '1 day', now() + interval '30 days')`,
    [appId],
  );
  return { session, appId };
}

/** Sends the test events, then signs up; answers how long the activation mail took, or a problem. */
export async function hangingReceiver(target: Target): Promise<{ mailMs?: number; problem?: string }> {
  const held: ServerResponse[] = [];
  const receiver = createServer((_req, res) => void held.push(res));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const { session, appId } = await developerWithApp(target, 'hanging-owner@faults.example');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const endpoint = await json(
      target.apiUrl,
      'POST',
      `account/webhooks/${appId}`,
      { url, events: ['rate.updated'] },
      session,
    );
    for (let i = 0; i < TEST_EVENTS; i++)
      await json(
        target.apiUrl,
        'POST',
        `account/webhooks/${appId}/${String(endpoint.data._id)}/test`,
        {},
        session,
      );
    if (!(await waitUntil(async () => held.length > 0, 10_000)))
      return { problem: 'the receiver got no test event: the fault did not happen' };

    const email = 'after-the-hanging-receiver@faults.example';
    const started = Date.now();
    await json(target.apiUrl, 'POST', 'account/signup', {
      email,
      password: 'hanging-receiver-fault',
      first_name: 'Next',
      last_name: 'Customer',
    });
    const arrived = await waitUntil(
      async () => linksTo(target.smtp, email).length > 0,
      ACTIVATION_MAIL_LIMIT_MS,
      20,
    );
    const mailMs = Date.now() - started;
    return arrived
      ? { mailMs }
      : {
          problem: `the activation mail of a sign-up was not in the sink within ${ACTIVATION_MAIL_LIMIT_MS} ms`,
        };
  } finally {
    held.forEach((res) => res.destroy());
    receiver.closeAllConnections();
    receiver.close();
  }
}
