import { eq } from 'drizzle-orm';
import { ALERT_REARM_MARGIN } from '@afrofx/shared';
import { rateAlerts, telegramChats } from '../src/db/schema';
import { COMMANDS_PER_SECOND } from '../src/modules/telegram/bot';
import { startFakeTelegram, type FakeTelegram } from './support/fake-telegram';
import { alertEvaluations } from './support/alert-evaluations';
import { createTestApp, eventually, type TestApp } from './support/test-app';

const TOKEN = '123456:TEST-token';
let telegram: FakeTelegram;
let t: TestApp;
beforeAll(async () => {
  telegram = await startFakeTelegram(TOKEN);
  t = await createTestApp({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: telegram.apiRoot });
  await publish({ market: 'black_market_cash', base: 'naira', asset: 'dollar', buy: 1500, sell: 1520 });
  await publish({ market: 'bank', base: 'kenyan-shilling', asset: 'dollar', buy: 129.1, sell: 130.4 });
});
afterAll(async () => {
  await t.close();
  await telegram.close();
});

const db = () => t.runtime.database.db;
let nextChat = 1000;
const newChat = () => ++nextChat;

async function publish(rate: { market: string; base: string; asset: string; buy: number; sell: number }) {
  await t.createRate(rate);
}
const publishUsdNgn = (sell: number) =>
  publish({ market: 'black_market_cash', base: 'naira', asset: 'dollar', buy: sell - 20, sell });

/** Sends a message as a user and waits for the bot's answer number `n` (1-based) in that chat. */
async function ask(chatId: number, text: string, n = telegram.sentTo(chatId).length + 1) {
  telegram.userSays(chatId, text);
  return eventually(async () => {
    const answers = telegram.sentTo(chatId);
    expect(answers.length).toBeGreaterThanOrEqual(n);
    return answers[n - 1]!;
  });
}

const { watchEvaluations, evaluatedAt: waitForEvaluation } = alertEvaluations(() => t);

describe('Telegram bot commands (long polling against a fake Bot API)', () => {
  it('/start answers the help', async () => {
    const answer = await ask(newChat(), '/start');
    expect(answer.text).toContain('/rate USD NGN [cash]');
    expect(answer.text).toContain('/alert USD NGN above 1600');
  });

  it('/rates answers the board of a base and market', async () => {
    const answer = await ask(newChat(), '/rates KES bank');
    expect(answer.text).toContain('KES · Bank market');
    expect(answer.text).toContain('USD: buy KSh129.10 · sell KSh130.40');
  });

  it('/rate USD NGN cash answers the published figures', async () => {
    const answer = await ask(newChat(), '/rate USD NGN cash');
    expect(answer.text).toContain('USD/NGN · Cash: buy ₦1,500.00 · sell ₦1,520.00');
    expect(answer.text).toMatch(/Published \w{3}-\d{2}-\d{4} .* UTC/);
  });

  it('/convert uses the buy price into the base and the sell price out of it', async () => {
    const chat = newChat();
    const into = await ask(chat, '/convert 100 USD NGN');
    expect(into.text).toContain('100.00 USD = ₦150,000.00 NGN');
    expect(into.text).toContain('buy rate ₦1,500.00');
    const out = await ask(chat, '/convert 152000 NGN USD cash');
    expect(out.text).toContain('152,000.00 NGN = $100.00 USD');
    expect(out.text).toContain('sell rate ₦1,520.00');
  });

  it('answers a bad command and bad arguments with their usage', async () => {
    const chat = newChat();
    expect((await ask(chat, '/fly me')).text).toContain('Send /start');
    expect((await ask(chat, '/rate USD XYZ')).text).toContain('Usage: /rate USD NGN');
    expect((await ask(chat, '/alert USD NGN sideways 5')).text).toContain('Usage: /alert');
  });

  it(`limits a chat to ${COMMANDS_PER_SECOND} commands a second`, async () => {
    const chat = newChat();
    // Ten at once: however slowly a busy machine answers them, more than the limit fall within one second.
    const sent = 10;
    for (let i = 0; i < sent; i++) telegram.userSays(chat, '/start');
    // Past the limit a chat is told once per second to slow down; the commands beyond are dropped.
    await eventually(async () => {
      const texts = telegram.sentTo(chat).map((m) => m.text);
      expect(texts.some((text) => text.startsWith('Too many commands'))).toBe(true);
      const answered = texts.filter((text) => text.startsWith('AfroFX rates bot')).length;
      expect(answered).toBeGreaterThanOrEqual(COMMANDS_PER_SECOND);
      expect(answered).toBeLessThan(sent);
    });
  });

  it('/alert fires once per crossing, not again above the line, and again after a fall past the margin', async () => {
    const chat = newChat();
    await watchEvaluations();
    await publishUsdNgn(1540);
    const created = await ask(chat, '/alert USD NGN above 1560 cash sell');
    expect(created.text).toContain('Alert set: USD/NGN Cash sell above ₦1,560.00');
    const [alert] = await db().select().from(rateAlerts).where(eq(rateAlerts.chatId, chat));

    const before = telegram.sentTo(chat).length;
    await publishUsdNgn(1570);
    const fired = await eventually(async () => {
      const messages = telegram.sentTo(chat).slice(before);
      expect(messages).toHaveLength(1);
      return messages[0]!;
    });
    expect(fired.text).toContain('The sell figure is now ₦1,570.00');

    await publishUsdNgn(1580);
    await waitForEvaluation(alert!.id, 1580);
    await publishUsdNgn(1560 * (1 - ALERT_REARM_MARGIN * 2));
    await waitForEvaluation(alert!.id, 1560 * (1 - ALERT_REARM_MARGIN * 2));
    await publishUsdNgn(1575);
    await eventually(async () => expect(telegram.sentTo(chat).slice(before)).toHaveLength(2));
    expect(telegram.sentTo(chat).at(-1)!.text).toContain('₦1,575.00');
  });

  it('/alerts lists alerts with a remove button each, which removes it', async () => {
    const chat = newChat();
    await ask(chat, '/alert EUR GHS below 14 bank buy');
    await ask(chat, '/alert USD NGN move 2');
    const list = await ask(chat, '/alerts');
    expect(list.text).toContain('1. EURO/GHS Bank buy below GH₵14.00');
    expect(list.text).toContain('2. USD/NGN Cash sell moves more than 2.00 %');
    const button = list.replyMarkup!.inline_keyboard[0]![0]!;
    expect(button.text).toBe('Remove 1');
    const sentBefore = telegram.sentTo(chat).length;
    telegram.userPresses(chat, button.callback_data, 1);
    await eventually(async () => {
      expect(telegram.sentTo(chat).length).toBe(sentBefore + 1);
      expect(await db().select().from(rateAlerts).where(eq(rateAlerts.chatId, chat))).toHaveLength(1);
    });
    expect(telegram.sentTo(chat).at(-1)!.text).toContain('1. USD/NGN Cash sell moves');
  });

  it('/daily sends one message per publication, /stop ends it and removes the alerts', async () => {
    const chat = newChat();
    expect((await ask(chat, '/daily')).text).toContain('Subscribed');
    await ask(chat, '/alert USD NGN above 99999');
    const before = telegram.sentTo(chat).length;
    await publishUsdNgn(1590);
    const daily = await eventually(async () => {
      const messages = telegram.sentTo(chat).slice(before);
      expect(messages).toHaveLength(1);
      return messages[0]!;
    });
    expect(daily.text).toContain('AfroFX rates published');
    expect(daily.text).toContain('USD/NGN Cash: buy ₦1,570.00 · sell ₦1,590.00');

    expect((await ask(chat, '/stop')).text).toContain('Unsubscribed');
    expect(await db().select().from(telegramChats).where(eq(telegramChats.chatId, chat))).toEqual([]);
    expect(await db().select().from(rateAlerts).where(eq(rateAlerts.chatId, chat))).toEqual([]);
  });

  it("honours a 429's retry_after in the middle of a fan-out, and unsubscribes a chat that blocked the bot", async () => {
    const [first, throttled, blocked, last] = [newChat(), newChat(), newChat(), newChat()];
    for (const chat of [first, throttled, blocked, last]) await ask(chat, '/daily');
    await ask(blocked, '/alert USD NGN above 99999');
    telegram.failNext(throttled, {
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      parameters: { retry_after: 1 },
    });
    telegram.failNext(blocked, { error_code: 403, description: 'Forbidden: bot was blocked by the user' });
    const before = new Map([first, throttled, last].map((chat) => [chat, telegram.sentTo(chat).length]));
    const refusedAt = Date.now();
    await publishUsdNgn(1595);

    await eventually(async () => {
      for (const [chat, count] of before) expect(telegram.sentTo(chat).length).toBe(count + 1);
    }, 20_000);
    // The throttled chat's message went out once, after the wait Telegram asked for.
    expect(telegram.sentTo(throttled).at(-1)!.at - refusedAt).toBeGreaterThanOrEqual(1000);
    await eventually(async () => {
      expect(await db().select().from(telegramChats).where(eq(telegramChats.chatId, blocked))).toEqual([]);
      expect(await db().select().from(rateAlerts).where(eq(rateAlerts.chatId, blocked))).toEqual([]);
    });
  });
});

describe('Telegram bot in webhook mode', () => {
  let hooked: TestApp;
  let fake: FakeTelegram;
  beforeAll(async () => {
    fake = await startFakeTelegram(TOKEN);
    hooked = await createTestApp({
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake.apiRoot,
      PUBLIC_URL: 'https://afrofx.example',
    });
  });
  afterAll(async () => {
    await hooked.close();
    await fake.close();
  });

  it('sets its webhook with a secret token, refuses an update with a wrong one and answers one with the right one', async () => {
    const webhook = await eventually(async () => {
      expect(fake.webhook()).toBeDefined();
      return fake.webhook()!;
    });
    expect(webhook.url).toBe('https://afrofx.example/telegram/webhook');
    expect(webhook.secret).toMatch(/^[0-9a-f]{64}$/);
    const chat = 42;

    const refused = await hooked.app.inject({
      method: 'POST',
      url: '/telegram/webhook',
      headers: { 'x-telegram-bot-api-secret-token': 'not-the-secret' },
      payload: fake.messageUpdate(chat, '/start'),
    });
    expect(refused.statusCode).toBe(401);
    expect(fake.sentTo(chat)).toEqual([]);

    const accepted = await hooked.app.inject({
      method: 'POST',
      url: '/telegram/webhook',
      headers: { 'x-telegram-bot-api-secret-token': webhook.secret! },
      payload: fake.messageUpdate(chat, '/start'),
    });
    expect(accepted.statusCode).toBe(200);
    await eventually(async () => expect(fake.sentTo(chat)).toHaveLength(1));
    expect(fake.sentTo(chat)[0]!.text).toContain('AfroFX rates bot');
  });
});
