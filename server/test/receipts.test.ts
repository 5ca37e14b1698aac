// A receipt for every payment. Each sandbox payment leaves one receipt mail (text and HTML) however often
// its settlement is reported, a receipt in the portal's list and on its own page; and a receipt owed while the mail
// server is down is delivered once it is back, neither lost nor doubled.
import { eq } from 'drizzle-orm';
import { transactions } from '../src/db/schema';
import { paymentSweepJob } from '../src/jobs/payment-sweep.job';
import { RECEIPT_RESEND_AFTER_MS } from '../src/modules/payments/receipts.service';
import { developerFactory, type Developer } from './support/developers';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink';
import { createListeningTestApp, eventually, type TestApp } from './support/test-app';

const as = (d: { token: string }) => ({ authorization: `Bearer ${d.token}` });

/** Buys `planId` for a new app of `dev` in the sandbox: the modal's Pay, then the webhook and the browser's verify. */
async function buy(t: TestApp, base: string, dev: { token: string }, planId: string) {
  const appId = await t.newApp(dev);
  const checkout = (
    await t.app.inject({
      method: 'POST',
      url: `/v1/account/initialize_payment/${appId}`,
      headers: as(dev),
      payload: { plan: planId, currency: 'USD', isUpcoming: false },
    })
  ).json().data;
  // The sandbox tells this server's webhook over HTTP as well, as the provider does: settlement is reported twice.
  const paid = await fetch(`${base}/sandbox-pay/v1/transaction/${checkout.transactionId}/trigger`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${checkout.publicKey}` },
    body: JSON.stringify({ status: 'SUCCESSFUL' }),
  });
  expect(paid.status).toBe(200);
  const confirm = () =>
    t.app.inject({
      method: 'POST',
      url: `/v1/account/create_transaction/${appId}`,
      headers: as(dev),
      payload: { plan: planId, currency: 'USD', isUpcoming: false, reference: checkout.reference },
    });
  const answers = await Promise.all([confirm(), confirm()]);
  expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
  return { appId, reference: checkout.reference as string };
}

describe('the receipt of a sandbox payment', () => {
  let t: TestApp;
  let base: string;
  let dev: Developer;
  let planId: string;
  const signUp = developerFactory(() => t, 'receipts', 43);
  beforeAll(async () => {
    ({ t, base } = await createListeningTestApp({ COMPANY_ADDRESS: '12 Marina Road, Lagos, Nigeria' }));
    planId = (await t.createPlan({ name: 'Growth', amount: 50 })).json().data._id;
    dev = await signUp();
  });
  afterAll(() => t.close());

  const receiptMails = async (reference: string) =>
    (await t.outbox()).filter(
      (mail) => mail.subject.startsWith('Your AfroFX receipt') && mail.raw.includes(reference),
    );

  it('mails one receipt (text and HTML) with amount, currency, fee, plan, period, reference and address', async () => {
    const { reference } = await buy(t, base, dev, planId);
    await eventually(async () => expect(await receiptMails(reference)).toHaveLength(1));
    await t.runtime.queue.drain();
    const [mail] = await receiptMails(reference);
    expect(mail!.to).toBe(dev.email);
    expect(mail!.subject).toBe('Your AfroFX receipt: USD 50.20');
    expect(mail!.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail!.raw).toMatch(/Content-Type: text\/html/);
    const text = mail!.raw;
    expect(text).toContain(`Reference: ${reference}`);
    expect(text).toContain('Growth plan, 12 months: USD 50.00');
    expect(text).toContain('Payment fee (0.4%): USD 0.20');
    expect(text).toContain('Total paid: USD 50.20');
    expect(text).toMatch(/Period: [A-Z][a-z]{2}-\d{2}-\d{4} to [A-Z][a-z]{2}-\d{2}-\d{4} \(UTC\)/);
    expect(text).toContain('AfroFX, 12 Marina Road, Lagos, Nigeria');
    expect(mail!.links).toContain(`${base}/developer/receipts/${reference}`);

    // Reported again (the order sweep, another verify): still the one mail.
    await paymentSweepJob(
      { services: t.runtime.services, log: { info: () => {}, error: () => {} } },
      new Date(Date.now() + RECEIPT_RESEND_AFTER_MS * 2),
    );
    await t.runtime.queue.drain();
    expect(await receiptMails(reference)).toHaveLength(1);
    const [row] = await t.runtime.database.db
      .select({ due: transactions.receiptMailDue, mailedAt: transactions.receiptMailedAt })
      .from(transactions)
      .where(eq(transactions.reference, reference));
    expect(row!.due).toBe(false);
    expect(row!.mailedAt).toBeInstanceOf(Date);
  });

  it("lists the account's receipts newest first, paged, and serves each; another account's is 404", async () => {
    const buyer = await signUp('Chidi', 'Eze');
    const empty = await t.app.inject({ method: 'GET', url: '/v1/account/receipts', headers: as(buyer) });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ data: [], pagination: { next: null, count: 0 } });

    const first = await buy(t, base, buyer, planId);
    const second = await buy(t, base, buyer, planId);
    const list = await t.app.inject({
      method: 'GET',
      url: '/v1/account/receipts?page=1',
      headers: as(buyer),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((r: { reference: string }) => r.reference)).toEqual([
      second.reference,
      first.reference,
    ]);
    expect(list.json().pagination).toEqual({ next: null, count: 2 });

    const one = await t.app.inject({
      method: 'GET',
      url: `/v1/account/receipts/${first.reference}`,
      headers: as(buyer),
    });
    expect(one.statusCode).toBe(200);
    const receipt = one.json().data;
    expect(receipt).toMatchObject({
      reference: first.reference,
      amount: 50.2,
      currency: 'USD',
      fee: 0.2,
      lines: [
        { label: 'Growth plan, 12 months', amount: 50 },
        { label: 'Payment fee (0.4%)', amount: 0.2 },
      ],
      plan: { name: 'Growth', requestLimit: 1000 },
      app: { _id: first.appId },
      isUpcoming: false,
      billedTo: { name: 'Chidi Eze', email: buyer.email },
      seller: { name: 'AfroFX', address: '12 Marina Road, Lagos, Nigeria' },
    });
    expect(new Date(receipt.period.end).getUTCFullYear()).toBe(
      new Date(receipt.period.start).getUTCFullYear() + 1,
    );

    for (const [who, reference, status] of [
      [dev, first.reference, 404],
      [buyer, `afx_${'Z'.repeat(24)}`, 404],
      [buyer, 'afx_../../admin', 400],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/account/receipts/${reference}`,
        headers: as(who),
      });
      expect(res.statusCode).toBe(status);
      expect(typeof res.json().message).toBe('string');
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/account/receipts' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('a receipt owed while the mail server is down', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    sink = await startSmtpSink();
    ({ t, base } = await createListeningTestApp({ SMTP_URL: sink.url }));
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  /** Sign-up with the activation link read from what the mail server received. */
  async function signUpOverSmtp(): Promise<{ token: string; email: string }> {
    const email = 'smtp-buyer@example.com';
    const password = 'correct-horse-battery';
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v1/account/signup',
      payload: { email, password, first_name: 'Ngozi', last_name: 'Obi' },
      remoteAddress: '10.44.0.1',
    });
    expect(signup.statusCode).toBe(201);
    const prefix = `${base}/developer/activate_account/`;
    const token = await eventually(async () => {
      const raw = sink.delivered.find((m) => m.to.includes(email))?.raw.replace(/=\r?\n/g, '');
      const link = raw?.match(/https?:\/\/[^\s"'<>]+/g)?.find((l) => l.startsWith(prefix));
      if (!link) throw new Error('no activation mail yet');
      return link.slice(prefix.length);
    });
    await t.app.inject({
      method: 'GET',
      url: `/v1/account/activate_account/${token}`,
      remoteAddress: '10.44.0.1',
    });
    const signin = await t.app.inject({
      method: 'POST',
      url: '/v1/account/signin',
      payload: { email, password },
      remoteAddress: '10.44.0.1',
    });
    return { token: signin.json().data.token, email };
  }

  it('is delivered once the server is back, not lost and not twice', async () => {
    const planId = (await t.createPlan({ name: 'Starter', amount: 10 })).json().data._id;
    const buyer = await signUpOverSmtp();
    await sink.stop();
    const { reference } = await buy(t, base, buyer, planId);
    // The queue's own retries all meet a refused connection.
    await t.runtime.queue.drain();
    const receipts = () => sink.delivered.filter((m) => m.raw.includes(`receipt-${reference}@afrofx`));
    expect(receipts()).toHaveLength(0);
    const owed = await t.runtime.database.db
      .select({ due: transactions.receiptMailDue })
      .from(transactions)
      .where(eq(transactions.reference, reference));
    expect(owed).toEqual([{ due: true }]);

    await sink.start();
    const sweep = () =>
      paymentSweepJob(
        { services: t.runtime.services, log: { info: () => {}, error: () => {} } },
        new Date(Date.now() + RECEIPT_RESEND_AFTER_MS * 2),
      );
    await sweep();
    await t.runtime.queue.drain();
    await eventually(async () => expect(receipts()).toHaveLength(1));
    expect(receipts()[0]!.to).toEqual([buyer.email]);

    // A second sweep, and the settlement reported again, send nothing more.
    await sweep();
    await t.app.inject({
      method: 'POST',
      url: '/v1/payments/basqet/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ data: { reference } }),
    });
    await t.runtime.queue.drain();
    expect(receipts()).toHaveLength(1);
    const portal = await t.app.inject({
      method: 'GET',
      url: `/v1/account/receipts/${reference}`,
      headers: as(buyer),
    });
    expect(portal.json().data.mailedAt).not.toBeNull();
  });
});
