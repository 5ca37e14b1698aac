// The Telegram bot: commands answered from the in-memory rates snapshot, a few commands a second per chat.
import { autoRetry } from '@grammyjs/auto-retry';
import { limit } from '@grammyjs/ratelimiter';
import { Bot, InlineKeyboard, type Context } from 'grammy';
import { describeAlert, type QuoteWithoutAge } from '@afrofx/shared';
import type { TelegramSettings } from '../../settings';
import { DomainError } from '../../errors';
import type { AlertsService } from '../alerts/alerts.service';
import type { RatesSnapshotSource } from '../rates/rates-snapshot';
import { assetOf, baseOf, board, convert, HELP, marketOf, pair } from './bot-replies';
import { isBlockedChat } from './telegram-api';
import type { TelegramChatsService } from './telegram-chats.service';

/** Commands one chat may send per second; more are answered with a request to slow down. */
export const COMMANDS_PER_SECOND = 3;

export interface BotDeps {
  alerts: AlertsService;
  telegramChats: TelegramChatsService;
  snapshot: RatesSnapshotSource;
  log: { warn(obj: object, msg: string): void };
}

const words = (ctx: Context) =>
  typeof ctx.match === 'string' ? ctx.match.trim().split(/\s+/).filter(Boolean) : [];

function alertsList(alerts: Awaited<ReturnType<AlertsService['listForChat']>>) {
  if (alerts.length === 0)
    return { text: 'No alerts. Create one with /alert USD NGN above 1600', keyboard: undefined };
  const keyboard = new InlineKeyboard();
  alerts.forEach((alert, i) => keyboard.text(`Remove ${i + 1}`, `remove:${alert._id}`).row());
  const text = alerts
    .map((alert, i) => `${i + 1}. ${describeAlert(alert)}${alert.paused ? ' (paused)' : ''}`)
    .join('\n');
  return { text, keyboard };
}

/** /rates, /rate and /convert: answered from the rates snapshot. */
function rateCommands(bot: Bot, quotes: () => Promise<QuoteWithoutAge[]>) {
  bot.command('rates', async (ctx) => {
    const [baseWord, marketWord] = words(ctx);
    const base = baseWord ? baseOf(baseWord) : 'naira';
    const market = marketWord ? marketOf(marketWord) : 'black_market_cash';
    if (!base || !market) return ctx.reply('Usage: /rates [NGN|KES|ZAR|GHS] [cash|bank|transfer]');
    return ctx.reply(board(await quotes(), base, market));
  });

  bot.command('rate', async (ctx) => {
    const [assetWord, baseWord, marketWord] = words(ctx);
    const asset = assetOf(assetWord);
    const base = baseOf(baseWord);
    const market = marketWord ? marketOf(marketWord) : 'black_market_cash';
    if (!asset || !base || !market) return ctx.reply('Usage: /rate USD NGN [cash|bank|transfer]');
    return ctx.reply(pair(await quotes(), asset, base, market));
  });

  bot.command('convert', async (ctx) => {
    const [amountWord, fromWord, toWord, marketWord] = words(ctx);
    const amount = Number(amountWord);
    const from = assetOf(fromWord) ?? baseOf(fromWord);
    const to = assetOf(toWord) ?? baseOf(toWord);
    const market = marketWord ? marketOf(marketWord) : 'black_market_cash';
    if (!Number.isFinite(amount) || amount <= 0 || !from || !to || !market)
      return ctx.reply('Usage: /convert 100 USD NGN [cash|bank|transfer]');
    return ctx.reply(convert(await quotes(), amount, from, to, market));
  });
}

/** /alert, /alerts and the remove buttons of the list. */
function alertCommands(bot: Bot, alerts: AlertsService) {
  bot.command('alert', async (ctx) => {
    const [assetWord, baseWord, conditionWord, levelWord, ...rest] = words(ctx);
    const asset = assetOf(assetWord);
    const base = baseOf(baseWord);
    const condition = (['above', 'below', 'move'] as const).find((c) => c === conditionWord?.toLowerCase());
    const level = Number(levelWord);
    const marketWord = rest.find((w) => marketOf(w));
    const side = rest.some((w) => w.toLowerCase() === 'buy') ? 'buy' : 'sell';
    const unknown = rest.filter((w) => !marketOf(w) && !['buy', 'sell'].includes(w.toLowerCase()));
    if (!asset || !base || !condition || !Number.isFinite(level) || level <= 0 || unknown.length > 0)
      return ctx.reply(
        'Usage: /alert USD NGN above 1600 [cash|bank|transfer] [buy|sell], or /alert USD NGN move 2',
      );
    const market = marketOf(marketWord) ?? 'black_market_cash';
    try {
      const alert = await alerts.createForChat(ctx.chat.id, {
        market,
        base,
        asset,
        side,
        condition,
        level,
      });
      return await ctx.reply(`Alert set: ${describeAlert(alert)}. It fires once per crossing.`);
    } catch (err) {
      if (err instanceof DomainError) return ctx.reply(err.message);
      throw err;
    }
  });

  bot.command('alerts', async (ctx) => {
    const { text, keyboard } = alertsList(await alerts.listForChat(ctx.chat.id));
    return ctx.reply(text, { reply_markup: keyboard });
  });

  bot.callbackQuery(/^remove:(.+)$/, async (ctx) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return ctx.answerCallbackQuery();
    await alerts.removeForChat(chatId, ctx.match[1]);
    await ctx.answerCallbackQuery({ text: 'Alert removed.' });
    const { text, keyboard } = alertsList(await alerts.listForChat(chatId));
    return ctx.editMessageText(text, { reply_markup: keyboard });
  });
}

export function createBot(settings: TelegramSettings, deps: BotDeps): Bot {
  const bot = new Bot(settings.token, { client: { apiRoot: settings.apiRoot } });
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 30 }));
  const quotes = async () => (await deps.snapshot.get()).rates;

  // Commands are what a chat may send only a few of a second; a press of a remove button is not counted.
  bot.on(
    'message',
    limit({
      timeFrame: 1000,
      limit: COMMANDS_PER_SECOND,
      keyGenerator: (ctx) => ctx.chat?.id.toString(),
      onLimitExceeded: (ctx) =>
        void ctx.reply('Too many commands at once: please wait a second.').catch(() => {}),
    }),
  );

  bot.command(['start', 'help'], (ctx) => ctx.reply(HELP));

  rateCommands(bot, quotes);

  bot.command('daily', async (ctx) => {
    await deps.telegramChats.setDaily(ctx.chat.id, true);
    return ctx.reply(
      'Subscribed: this chat gets one message with the rates at every publication. /stop to end.',
    );
  });

  alertCommands(bot, deps.alerts);

  bot.command('stop', async (ctx) => {
    await deps.alerts.removeForChat(ctx.chat.id);
    await deps.telegramChats.forget(ctx.chat.id);
    return ctx.reply('Unsubscribed: no more daily messages or alerts in this chat.');
  });

  bot.on('message:text', (ctx) =>
    ctx.reply(`I don't know "${ctx.message.text.slice(0, 40)}". Send /start for the commands.`),
  );

  bot.catch(async ({ ctx, error }) => {
    const chatId = ctx.chat?.id;
    if (chatId !== undefined && isBlockedChat(error)) {
      await deps.alerts.removeForChat(chatId);
      await deps.telegramChats.forget(chatId);
      return;
    }
    deps.log.warn({ err: error, update: ctx.update.update_id }, 'telegram update failed');
  });
  return bot;
}
