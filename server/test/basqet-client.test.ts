// DESIGN §4: the real Basqet client against a local fake of Basqet's HTTP API (the edge of the world) answering in
// the shapes Basqet's client libraries show (shared/providers/basqet.md): what each answer means, that nothing is
// decided on an answer it cannot trust, and that a transaction id never shapes the URL.
// Then the product on that fake: a provider that cannot answer leaves the order pending (503 to the browser and the
// webhook), and the reconcile job completes it once the provider answers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { paymentOrders, subscriptions, transactions } from '../src/db/schema';
import {
  PROVIDER_TRANSACTION_ID,
  ProviderUnavailable,
  createBasqetClient,
  signWebhook,
  type PaymentProvider,
} from '../src/modules/payments/payment-provider';
import { developerFactory } from './support/developers';
import { createListeningTestApp, createTestApp, eventually, type TestApp } from './support/test-app';

const SECRET = 'sk_test_basqet_fake';
const PUBLIC = 'pk_test_basqet_fake';
const REFERENCE = `afx_${'A1b2C3d4'.repeat(3)}`;
const TRANSACTION = 'bq_txn_5f2a9c';

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

/** Basqet's `GET /v1/transaction/{reference}/status`, answering whatever the test sets. */
class FakeBasqet {
  readonly requests: Array<{
    method?: string;
    url: string;
    authorization: string | undefined;
    body?: unknown;
  }> = [];
  answer: Answer = () => {};
  private readonly server: Server;
  private readonly hanging = new Set<ServerResponse>();

  constructor() {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        this.requests.push({
          url: request.url ?? '',
          authorization: request.headers.authorization,
          ...(request.method === 'POST' ? { method: 'POST', body: JSON.parse(body) as unknown } : {}),
        });
        this.answer(request, response);
      });
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

/** Verify's answer as the SDKs show it: the envelope, and a `data` that holds only a status. */
const paid = (status = 'SUCCESSFUL') => ({ status: 'success', data: { status }, meta: {} });

/** Initialize's answer in the Python client's field names. */
const initialized = (fields: Record<string, unknown> = {}) => ({
  status: 'success',
  data: {
    id: TRANSACTION,
    reference: 'BQ-REF-1',
    amount_paid: '0',
    status: 'PENDING',
    description: 'AfroFX Growth plan',
    initialized_amount: '50.20',
    payment_amount: null,
    payment_address: null,
    payment_currency: null,
    initialized_currency: 'USD',
    ...fields,
  },
  meta: {},
});

const order = {
  reference: REFERENCE,
  amountMinor: 5020,
  currency: 'USD' as const,
  customer: { name: 'Ada Okafor', email: 'ada@example.com' },
};

describe('the Basqet client', () => {
  const fake = new FakeBasqet();
  let client: PaymentProvider;

  beforeAll(async () => {
    client = createBasqetClient({
      name: 'basqet',
      apiUrl: await fake.start(),
      publicKey: PUBLIC,
      secretKey: SECRET,
      scriptUrl: 'https://checkout.example/basqet.js',
      webhookSignature: 'hmac-sha512',
      // Well above a loaded CI machine's first request to the local fake (300 ms timed out there once), well below
      // the 10 s of the tests that wait for it to give up.
      timeoutMs: 2_000,
    });
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('initializes the order at its price with the public key, and answers the provider id', async () => {
    fake.answer = fake.json(201, initialized());
    await expect(client.initialize(order)).resolves.toBe(TRANSACTION);
    expect(fake.requests).toEqual([
      {
        method: 'POST',
        url: '/v1/transaction',
        authorization: `Bearer ${PUBLIC}`,
        body: {
          customer: { name: 'Ada Okafor', email: 'ada@example.com' },
          amount: '50.20',
          currency: 'USD',
          meta: { reference: REFERENCE },
        },
      },
    ]);
  });

  it.each([
    ['another amount', { initialized_amount: '1.00' }],
    ['another currency', { initialized_currency: 'NGN' }],
    ['no id', { id: undefined }],
    ['an id that is a path', { id: '../admin' }],
  ])('refuses an initialized transaction with %s', async (_case, fields) => {
    fake.answer = fake.json(201, initialized(fields));
    await expect(client.initialize(order)).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it('asks for the status with the public key (as both official clients do) and reads SUCCESSFUL as paid', async () => {
    fake.answer = fake.json(200, paid());
    await expect(client.verify(TRANSACTION)).resolves.toEqual({
      status: 'successful',
      providerStatus: 'SUCCESSFUL',
    });
    expect(fake.requests).toEqual([
      { url: `/v1/transaction/${TRANSACTION}/status`, authorization: `Bearer ${PUBLIC}` },
    ]);
  });

  it.each(['DECLINED', 'failed', 'CANCELLED', 'EXPIRED'])('reads %s as a failed payment', async (status) => {
    fake.answer = fake.json(200, paid(status));
    await expect(client.verify(TRANSACTION)).resolves.toEqual({
      status: 'failed',
      providerStatus: status.toUpperCase(),
    });
  });

  it('reads a status it does not know as still pending', async () => {
    fake.answer = fake.json(200, paid('PROCESSING'));
    await expect(client.verify(TRANSACTION)).resolves.toEqual({
      status: 'pending',
      providerStatus: 'PROCESSING',
    });
  });

  it('reads an unknown transaction (404) as not paid yet', async () => {
    fake.answer = fake.json(404, { status: 'error', message: 'Transaction not found' });
    await expect(client.verify(TRANSACTION)).resolves.toEqual({
      status: 'pending',
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
    ['a body without a status', () => fake.json(200, { status: 'success', data: {}, meta: {} })],
    ['a body without the envelope', () => fake.json(200, { status: 'SUCCESSFUL' })],
    ['a connection cut mid-answer', (): Answer => (_q, r) => r.socket?.destroy()],
    [
      'a redirect elsewhere',
      (): Answer => (_q, r) => r.writeHead(302, { location: 'http://127.0.0.1:9/steal' }).end(),
    ],
  ])('decides nothing on %s: the provider is unavailable', async (_case, answer) => {
    fake.answer = answer();
    await expect(client.verify(TRANSACTION)).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it('gives up on a provider that never answers, within its configured timeout', async () => {
    fake.answer = fake.silent();
    // The client's timeout (2 s) is far below the test's own (10 s): a client that waited would fail the test.
    await expect(client.verify(TRANSACTION)).rejects.toThrow(ProviderUnavailable);
    expect(fake.requests).toHaveLength(1);
  }, 10_000);

  it('gives up on an answer whose body stops half-way, within its configured timeout', async () => {
    fake.answer = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).write('{"status":"success","data":');
      fake.silent()(_request, response);
    };
    await expect(client.verify(TRANSACTION)).rejects.toThrow(ProviderUnavailable);
  }, 10_000);

  it.each([
    ['a path', 'afx_../../admin/plans'],
    ['a URL', 'https://evil.example/pay'],
    ['an encoded slash', `afx_${'a'.repeat(20)}%2F..`],
    ['a query', `afx_${'a'.repeat(22)}?x`],
    ['an empty id', ''],
  ])('refuses %s for a transaction id before any request', async (_case, reference) => {
    await expect(client.verify(reference)).rejects.toThrow(RangeError);
    expect(fake.requests).toEqual([]);
  });

  it('with BASQET_WEBHOOK_SIGNATURE=hmac-sha512, accepts a webhook signed over the exact raw body, and nothing else', () => {
    const body = Buffer.from(
      JSON.stringify({ event: 'transaction.successful', data: { reference: REFERENCE } }),
    );
    const signature = signWebhook(body, SECRET);
    expect(client.webhookIsAuthentic(body, signature)).toBe(true);
    expect(client.webhookIsAuthentic(body, signature.toUpperCase())).toBe(true);
    expect(client.webhookIsAuthentic(Buffer.concat([body, Buffer.from(' ')]), signature)).toBe(false);
    expect(client.webhookIsAuthentic(body, signWebhook(body, 'sk_other'))).toBe(false);
    expect(client.webhookIsAuthentic(body, undefined)).toBe(false);
    expect(client.webhookIsAuthentic(body, signature.slice(0, 64))).toBe(false);
    const unchecked = createBasqetClient({
      name: 'basqet',
      apiUrl: 'http://127.0.0.1:9/v1',
      publicKey: PUBLIC,
      secretKey: SECRET,
      scriptUrl: 'https://checkout.example/basqet.js',
      webhookSignature: 'none',
    });
    expect(unchecked.webhookIsAuthentic(body, undefined)).toBe(true);
  });
});

describe('payments while the provider cannot answer', () => {
  const fake = new FakeBasqet();
  let t: TestApp;
  const signUp = developerFactory(() => t, 'basqet-fake', 44);

  beforeAll(async () => {
    t = await createTestApp({ BASQET_API_URL: await fake.start() });
    fake.answer = fake.json(201, initialized());
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it('keeps the order pending (503 to the browser and to the webhook), then the reconcile job completes it', async () => {
    const dev = await signUp();
    const as = { authorization: `Bearer ${dev.token}` };
    const plan = (await t.createPlan({ name: 'Growth' })).json().data;
    const appId = await t.newApp(dev, 'Shop');
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
    const broken = fake.json(503, { status: 'error', message: 'Service unavailable' });
    fake.answer = (request, response) =>
      (failures-- > 0 ? broken : fake.json(200, paid()))(request, response);

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

    const event = JSON.stringify({ event: 'transaction.updated', data: { id: TRANSACTION } });
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/v1/payments/basqet/webhook',
      headers: { 'content-type': 'application/json' },
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
    expect(fake.requests.slice(1).every((r) => r.url === `/v1/transaction/${TRANSACTION}/status`)).toBe(true);

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

describe('an upgrade while the provider cannot answer', () => {
  const fake = new FakeBasqet();
  let t: TestApp;
  const signUp = developerFactory(() => t, 'basqet-upgrade', 45);
  const UPGRADE_TRANSACTION = 'bq_txn_upgrade1';

  beforeAll(async () => {
    t = await createTestApp({ BASQET_API_URL: await fake.start() });
    fake.answer = fake.json(201, initialized({ id: UPGRADE_TRANSACTION, initialized_amount: '394.45' }));
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it('ends the old plan and starts the new one once, however many times and ways the payment is settled', async () => {
    const dev = await signUp();
    const as = { authorization: `Bearer ${dev.token}` };
    const basic = (await t.createPlan({ name: 'Basic', amount: 120, numberOfRequest: 1000 })).json().data;
    const pro = (await t.createPlan({ name: 'Pro', amount: 480, numberOfRequest: 5000 })).json().data;
    const appId = await t.newApp(dev, 'Shop');
    const db = t.runtime.database.db;
    const startsAt = new Date(Date.now() - 100 * 86_400_000);
    await db.insert(subscriptions).values({
      appId,
      planId: basic._id,
      planName: 'Basic',
      status: 'active',
      requestLimit: 1000,
      amount: 120,
      startsAt,
      expireAt: new Date(startsAt.getTime() + 365 * 86_400_000),
    });
    const checkout = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/account/initialize_payment/${appId}`,
        headers: as,
        payload: { plan: pro._id, currency: 'USD' },
      })
    ).json().data;
    expect(checkout.upgrade).toEqual({ from: 'Basic', price: 480, credit: 87.12, due: 392.88 });
    expect(fake.requests.at(-1)?.body).toMatchObject({ amount: '394.45', currency: 'USD' });

    // The provider fails the webhook's and the browser's questions; the reconcile job's retry gets through.
    let failures = 2;
    const broken = fake.json(503, { status: 'error', message: 'Service unavailable' });
    fake.answer = (request, response) =>
      (failures-- > 0 ? broken : fake.json(200, paid()))(request, response);
    const webhook = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/payments/basqet/webhook',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ event: 'transaction.updated', data: { id: UPGRADE_TRANSACTION } }),
      });
    const confirm = () =>
      t.app.inject({
        method: 'POST',
        url: `/v1/account/create_transaction/${appId}`,
        headers: as,
        payload: { plan: pro._id, currency: 'USD', isUpcoming: false, reference: checkout.reference },
      });
    expect((await webhook()).statusCode).toBe(503);
    expect((await confirm()).statusCode).toBe(503);
    const plans = async () =>
      (
        await db
          .select({
            planName: subscriptions.planName,
            status: subscriptions.status,
            expireAt: subscriptions.expireAt,
          })
          .from(subscriptions)
          .where(eq(subscriptions.appId, appId))
      ).sort((a, b) => a.planName.localeCompare(b.planName));
    // Nothing changed while the payment was unconfirmed: Basic still serves.
    expect((await plans()).map((p) => [p.planName, p.status])).toEqual([['Basic', 'active']]);

    await eventually(async () =>
      expect((await plans()).map((p) => [p.planName, p.status])).toEqual([
        ['Basic', 'upgraded'],
        ['Pro', 'active'],
      ]),
    );
    const settled = await plans();
    // Settled again by every path: nothing more happens.
    expect((await confirm()).statusCode).toBe(200);
    expect((await webhook()).statusCode).toBeLessThan(300);
    expect(await t.runtime.services.payments.reconcile(checkout.reference)).toEqual({ kind: 'paid' });
    expect(await plans()).toEqual(settled);
    const [recorded] = await db
      .select({ n: count() })
      .from(transactions)
      .where(eq(transactions.appId, appId));
    expect(recorded!.n).toBe(1);
  });
});

/**
 * The same adapter run against the sandbox's fake and against Basqet's answers as the SDKs record them: the two
 * must agree, or the sandbox would be testing a contract of its own.
 */
describe.each([
  [
    'the sandbox fake',
    async () => {
      const { t, base } = await createListeningTestApp();
      return {
        apiUrl: `${base}/sandbox-pay/v1`,
        publicKey: t.config.payment.publicKey,
        stop: () => t.close(),
      };
    },
  ],
  [
    'recorded answers',
    async () => {
      const recorded = new FakeBasqet();
      let status = 'PENDING';
      recorded.answer = (request, response) => {
        const url = request.url ?? '';
        if (request.headers.authorization !== `Bearer ${PUBLIC}`) {
          return recorded.json(401, { status: 'error', message: 'Invalid public key' })(request, response);
        }
        if (request.method === 'POST' && url === '/v1/transaction') {
          return recorded.json(201, initialized())(request, response);
        }
        if (request.method === 'POST' && url === `/v1/transaction/${TRANSACTION}/trigger`) {
          status = (recorded.requests.at(-1)!.body as { status: string }).status;
          return recorded.json(200, paid(status))(request, response);
        }
        if (url === `/v1/transaction/${TRANSACTION}/status`) {
          return recorded.json(200, paid(status))(request, response);
        }
        return recorded.json(404, { status: 'error', message: 'Transaction not found' })(request, response);
      };
      return { apiUrl: await recorded.start(), publicKey: PUBLIC, stop: () => recorded.stop() };
    },
  ],
])('the adapter against %s', (_backend, start) => {
  let backend: Awaited<ReturnType<typeof start>>;
  const adapter = (publicKey = backend.publicKey) =>
    createBasqetClient({
      name: 'basqet',
      apiUrl: backend.apiUrl,
      publicKey,
      secretKey: SECRET,
      scriptUrl: 'https://checkout.example/basqet.js',
      webhookSignature: 'none',
    });
  const trigger = async (id: string, status: string) => {
    const res = await fetch(`${backend.apiUrl}/transaction/${id}/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${backend.publicKey}` },
      body: JSON.stringify({ status }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'success', data: { status }, meta: {} });
  };

  beforeAll(async () => {
    backend = await start();
  });
  afterAll(() => backend.stop());

  it('initializes at the price, reads it pending, then paid once the test-mode trigger says SUCCESSFUL', async () => {
    const id = await adapter().initialize(order);
    expect(id).toMatch(PROVIDER_TRANSACTION_ID);
    await expect(adapter().verify(id)).resolves.toEqual({ status: 'pending', providerStatus: 'PENDING' });
    await trigger(id, 'SUCCESSFUL');
    await expect(adapter().verify(id)).resolves.toEqual({
      status: 'successful',
      providerStatus: 'SUCCESSFUL',
    });
  });

  it('reads an unknown transaction as not paid yet', async () => {
    await expect(adapter().verify('txn_never_made')).resolves.toEqual({
      status: 'pending',
      providerStatus: 'NOT_FOUND',
    });
  });

  it('decides nothing when the public key is wrong (401)', async () => {
    await expect(adapter('pk_wrong').initialize(order)).rejects.toBeInstanceOf(ProviderUnavailable);
    await expect(adapter('pk_wrong').verify(TRANSACTION)).rejects.toBeInstanceOf(ProviderUnavailable);
  });
});
