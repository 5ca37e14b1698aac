// DESIGN §4: the real Basqet client against a local fake of Basqet's HTTP API (the edge of the world): what each
// answer means, that nothing is decided on an answer it cannot trust, and that a reference never shapes the URL.
// Then the product on that fake: a provider that cannot answer leaves the order pending (503 to the browser and the
// webhook), and the reconcile job completes it once the provider answers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { paymentOrders, subscriptions, transactions } from '../src/db/schema';
import {
  ProviderUnavailable,
  createBasqetClient,
  signWebhook,
  type PaymentProvider,
} from '../src/modules/payments/payment-provider';
import { developerFactory } from './support/developers';
import { createTestApp, eventually, type TestApp } from './support/test-app';

const SECRET = 'sk_test_basqet_fake';
const REFERENCE = `afx_${'A1b2C3d4'.repeat(3)}`;

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

/** Basqet's `GET /v1/transaction/{reference}/status`, answering whatever the test sets. */
class FakeBasqet {
  readonly requests: Array<{ url: string; authorization: string | undefined }> = [];
  answer: Answer = () => {};
  private readonly server: Server;
  private readonly hanging = new Set<ServerResponse>();

  constructor() {
    this.server = createServer((request, response) => {
      this.requests.push({ url: request.url ?? '', authorization: request.headers.authorization });
      this.answer(request, response);
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  json(status: number, body: unknown): Answer {
    return (_request, response) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  /** Takes the request and never answers. */
  silent(): Answer {
    return (_request, response) => {
      this.hanging.add(response);
    };
  }

  async stop() {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const paid = (fields: Record<string, unknown> = {}) => ({
  status: 'success',
  message: 'Transaction status fetched',
  data: { reference: REFERENCE, status: 'SUCCESSFUL', amount: '50.20', currency: 'usd', ...fields },
});

describe('the Basqet client', () => {
  const fake = new FakeBasqet();
  let client: PaymentProvider;

  beforeAll(async () => {
    client = createBasqetClient({
      name: 'basqet',
      apiUrl: await fake.start(),
      publicKey: 'pk_test',
      secretKey: SECRET,
      scriptUrl: 'https://checkout.example/checkout.js',
      // Well above a loaded CI machine's first request to the local fake (300 ms timed out there once), well below
      // the 10 s of the tests that wait for it to give up.
      timeoutMs: 2_000,
    });
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('asks for the status with the secret key and reads a successful payment in minor units', async () => {
    fake.answer = fake.json(200, paid());
    await expect(client.verify(REFERENCE)).resolves.toEqual({
      status: 'successful',
      amountMinor: 5020,
      currency: 'USD',
      providerStatus: 'SUCCESSFUL',
    });
    expect(fake.requests).toEqual([
      { url: `/v1/transaction/${REFERENCE}/status`, authorization: `Bearer ${SECRET}` },
    ]);
  });

  it.each(['DECLINED', 'failed', 'CANCELLED', 'EXPIRED'])('reads %s as a failed payment', async (status) => {
    fake.answer = fake.json(200, paid({ status }));
    await expect(client.verify(REFERENCE)).resolves.toMatchObject({
      status: 'failed',
      providerStatus: status.toUpperCase(),
    });
  });

  it('reads a payment still in progress as pending', async () => {
    fake.answer = fake.json(200, paid({ status: 'PROCESSING', amount: null }));
    await expect(client.verify(REFERENCE)).resolves.toEqual({
      status: 'pending',
      amountMinor: null,
      currency: 'USD',
      providerStatus: 'PROCESSING',
    });
  });

  it('reads an unknown reference (404) as not paid yet', async () => {
    fake.answer = fake.json(404, { status: 'error', message: 'Transaction not found' });
    await expect(client.verify(REFERENCE)).resolves.toEqual({
      status: 'pending',
      amountMinor: null,
      currency: null,
      providerStatus: 'NOT_FOUND',
    });
  });

  it.each([
    ['a 500', () => fake.json(500, { status: 'error', message: 'Internal server error' })],
    ['a 502 without a body', (): Answer => (_q, r) => r.writeHead(502).end()],
    ['a 401 (wrong secret key)', () => fake.json(401, { status: 'error', message: 'Invalid secret key' })],
    [
      'malformed JSON',
      (): Answer => (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"data": {"sta'),
    ],
    ['a body without a status', () => fake.json(200, { status: 'success', data: { reference: REFERENCE } })],
    ['an answer about another reference', () => fake.json(200, paid({ reference: `afx_${'Z'.repeat(24)}` }))],
    ['a connection cut mid-answer', (): Answer => (_q, r) => r.socket?.destroy()],
    [
      'a redirect elsewhere',
      (): Answer => (_q, r) => r.writeHead(302, { location: 'http://127.0.0.1:9/steal' }).end(),
    ],
  ])('decides nothing on %s: the provider is unavailable', async (_case, answer) => {
    fake.answer = answer();
    await expect(client.verify(REFERENCE)).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it('gives up on a provider that never answers, within its configured timeout', async () => {
    fake.answer = fake.silent();
    // The client's timeout (2 s) is far below the test's own (10 s): a client that waited would fail the test.
    await expect(client.verify(REFERENCE)).rejects.toThrow(ProviderUnavailable);
    expect(fake.requests).toHaveLength(1);
  }, 10_000);

  it('gives up on an answer whose body stops half-way, within its configured timeout', async () => {
    fake.answer = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).write('{"status":"success","data":');
      fake.silent()(_request, response);
    };
    await expect(client.verify(REFERENCE)).rejects.toThrow(ProviderUnavailable);
  }, 10_000);

  it.each([
    ['a path', 'afx_../../admin/plans'],
    ['a URL', 'https://evil.example/pay'],
    ['an encoded slash', `afx_${'a'.repeat(20)}%2F..`],
    ['a query', `afx_${'a'.repeat(22)}?x`],
    ['a reference one character long', 'afx_a'],
    ['an empty reference', ''],
  ])('refuses %s for a reference before any request', async (_case, reference) => {
    await expect(client.verify(reference)).rejects.toThrow(RangeError);
    expect(fake.requests).toEqual([]);
  });

  it('accepts a webhook signed with the secret key over the exact raw body, and nothing else', () => {
    const body = Buffer.from(
      JSON.stringify({ event: 'transaction.successful', data: { reference: REFERENCE } }),
    );
    const signature = signWebhook(body, SECRET);
    expect(client.signatureIsValid(body, signature)).toBe(true);
    expect(client.signatureIsValid(body, signature.toUpperCase())).toBe(true);
    expect(client.signatureIsValid(Buffer.concat([body, Buffer.from(' ')]), signature)).toBe(false);
    expect(client.signatureIsValid(body, signWebhook(body, 'sk_other'))).toBe(false);
    expect(client.signatureIsValid(body, undefined)).toBe(false);
    expect(client.signatureIsValid(body, signature.slice(0, 64))).toBe(false);
  });
});

describe('payments while the provider cannot answer', () => {
  const fake = new FakeBasqet();
  let t: TestApp;
  const signUp = developerFactory(() => t, 'basqet-fake', 44);

  beforeAll(async () => {
    t = await createTestApp({ BASQET_API_URL: await fake.start() });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it('keeps the order pending (503 to the browser and to the webhook), then the reconcile job completes it', async () => {
    const dev = await signUp();
    const as = { authorization: `Bearer ${dev.token}` };
    const plan = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/admin/create_plan',
        headers: { authorization: `Bearer ${await t.adminToken()}` },
        payload: { name: 'Growth', amount: 50, numberOfRequest: 1000 },
      })
    ).json().data;
    const appId = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/apps/create_app',
        headers: as,
        payload: { name: 'Shop' },
      })
    ).json().data._id;
    const checkout = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/account/initialize_payment/${appId}`,
        headers: as,
        payload: { plan: plan._id, currency: 'USD' },
      })
    ).json().data;
    const reference: string = checkout.reference;

    // The provider fails its first three answers: the webhook's, the browser's, and the reconcile job's first try.
    let failures = 3;
    const success = fake.json(200, {
      status: 'success',
      data: { reference, status: 'SUCCESSFUL', amount: checkout.amount, currency: 'USD' },
    });
    const broken = fake.json(503, { status: 'error', message: 'Service unavailable' });
    fake.answer = (request, response) => (failures-- > 0 ? broken : success)(request, response);

    const state = async () => {
      const db = t.runtime.database.db;
      const [[order], [subs], [txs]] = await Promise.all([
        db
          .select({ status: paymentOrders.status })
          .from(paymentOrders)
          .where(eq(paymentOrders.reference, reference)),
        db.select({ n: count() }).from(subscriptions).where(eq(subscriptions.appId, appId)),
        db.select({ n: count() }).from(transactions).where(eq(transactions.appId, appId)),
      ]);
      return { order: order?.status, subscriptions: subs!.n, transactions: txs!.n };
    };

    const event = JSON.stringify({ event: 'transaction.successful', data: { reference } });
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/v1/payments/basqet/webhook',
      headers: {
        'content-type': 'application/json',
        'x-basqet-signature': signWebhook(event, t.config.payment.secretKey),
      },
      payload: event,
    });
    expect(webhook.statusCode).toBe(503);
    expect(webhook.json().message).toBe(
      'The payment provider could not be reached; send the event again later.',
    );
    expect(await state()).toEqual({ order: 'pending', subscriptions: 0, transactions: 0 });

    const confirm = await t.app.inject({
      method: 'POST',
      url: `/v1/account/create_transaction/${appId}`,
      headers: as,
      payload: { plan: plan._id, currency: 'USD', isUpcoming: false, reference, status: 'SUCCESSFUL' },
    });
    expect(confirm.statusCode).toBe(503);
    expect(confirm.json().message).toBe(
      'The payment provider could not be reached to confirm your payment. Nothing is lost: it will be confirmed shortly.',
    );

    // The reconcile job the browser's call queued retries until the provider answers, and completes the order.
    await eventually(async () =>
      expect(await state()).toEqual({ order: 'paid', subscriptions: 1, transactions: 1 }),
    );
    expect(failures).toBeLessThan(0);
    expect(fake.requests.every((r) => r.url === `/v1/transaction/${reference}/status`)).toBe(true);

    // The browser's retry now answers the recorded purchase.
    const again = await t.app.inject({
      method: 'POST',
      url: `/v1/account/create_transaction/${appId}`,
      headers: as,
      payload: { plan: plan._id, currency: 'USD', isUpcoming: false, reference },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.subscription).toMatchObject({ status: 'active', limit: 1000 });
    expect(await state()).toEqual({ order: 'paid', subscriptions: 1, transactions: 1 });
  });
});
