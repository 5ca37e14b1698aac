// A local fake of Telegram's Bot API (https://core.telegram.org/bots/api): POST /bot<token>/<method> with a JSON
// body, answered with Telegram's envelope ({ ok, result } or { ok: false, error_code, description, parameters }).
// It speaks getMe, deleteWebhook, setWebhook, getUpdates (long polling), sendMessage, answerCallbackQuery and
// editMessageText; a test queues the updates users send and scripted failures (429 with retry_after, 403).
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentMessage {
  chatId: number;
  text: string;
  replyMarkup?: { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> };
  at: number;
}

interface Failure {
  error_code: number;
  description: string;
  parameters?: { retry_after?: number };
}

const BOT = { id: 7000001, is_bot: true, first_name: 'AfroFX', username: 'afrofx_test_bot' };

export async function startFakeTelegram(token: string) {
  const sent: SentMessage[] = [];
  const calls: Array<{ method: string; body: Record<string, unknown> }> = [];
  const updates: Array<Record<string, unknown> & { update_id: number }> = [];
  const failures = new Map<number, Failure[]>();
  let waiters: Array<() => void> = [];
  let nextUpdateId = 1;
  let nextMessageId = 1;
  let webhook: { url: string; secret: string | undefined } | undefined;

  const reply = (res: ServerResponse, body: unknown, status = 200) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, failure: Failure) =>
    reply(res, { ok: false, ...failure }, failure.error_code);

  async function answer(method: string, body: Record<string, unknown>, res: ServerResponse) {
    calls.push({ method, body });
    switch (method) {
      case 'getMe':
        return reply(res, { ok: true, result: BOT });
      case 'deleteWebhook':
        webhook = undefined;
        return reply(res, { ok: true, result: true });
      case 'setWebhook':
        webhook = { url: String(body.url), secret: body.secret_token as string | undefined };
        return reply(res, { ok: true, result: true });
      case 'getUpdates': {
        const offset = Number(body.offset ?? 0);
        const pending = () => updates.filter((u) => u.update_id >= offset);
        if (pending().length === 0 && Number(body.timeout ?? 0) > 0) {
          // Long polling: held until an update comes, or briefly, so that a stopping bot is not kept waiting.
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 500);
            waiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
        return reply(res, { ok: true, result: pending() });
      }
      case 'sendMessage': {
        const chatId = Number(body.chat_id);
        const failure = failures.get(chatId)?.shift();
        if (failure) return fail(res, failure);
        sent.push({
          chatId,
          text: String(body.text),
          replyMarkup: body.reply_markup as SentMessage['replyMarkup'],
          at: Date.now(),
        });
        return reply(res, {
          ok: true,
          result: {
            message_id: nextMessageId++,
            date: Math.floor(Date.now() / 1000),
            chat: { id: chatId, type: 'private' },
            text: body.text,
          },
        });
      }
      case 'answerCallbackQuery':
        return reply(res, { ok: true, result: true });
      case 'editMessageText':
        sent.push({
          chatId: Number(body.chat_id),
          text: String(body.text),
          replyMarkup: body.reply_markup as SentMessage['replyMarkup'],
          at: Date.now(),
        });
        return reply(res, { ok: true, result: true });
      default:
        return fail(res, { error_code: 404, description: 'Not Found: method not found' });
    }
  }

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      if (!match || match[1] !== token) return fail(res, { error_code: 401, description: 'Unauthorized' });
      void answer(match[2]!, raw ? (JSON.parse(raw) as Record<string, unknown>) : {}, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const wake = () => {
    const woken = waiters;
    waiters = [];
    woken.forEach((w) => w());
  };

  return {
    apiRoot: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    calls,
    webhook: () => webhook,
    /** The update a user's message makes: a bot_command entity when it starts with a slash. */
    messageUpdate(chatId: number, text: string) {
      const command = /^\/\w+/.exec(text)?.[0];
      return {
        update_id: nextUpdateId++,
        message: {
          message_id: nextMessageId++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: 'private', first_name: 'Reader' },
          from: { id: chatId, is_bot: false, first_name: 'Reader' },
          text,
          ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command.length }] } : {}),
        },
      };
    },
    /** A user writes to the bot (delivered by getUpdates). */
    userSays(chatId: number, text: string) {
      updates.push(this.messageUpdate(chatId, text));
      wake();
    },
    /** A user presses an inline button. */
    userPresses(chatId: number, data: string, messageId: number) {
      updates.push({
        update_id: nextUpdateId++,
        callback_query: {
          id: String(nextUpdateId),
          from: { id: chatId, is_bot: false, first_name: 'Reader' },
          chat_instance: String(chatId),
          data,
          message: {
            message_id: messageId,
            date: Math.floor(Date.now() / 1000),
            chat: { id: chatId, type: 'private' },
            text: 'alerts',
          },
        },
      });
      wake();
    },
    /** The next sendMessage calls to a chat fail with these answers, in turn. */
    failNext(chatId: number, ...answers: Failure[]) {
      failures.set(chatId, [...(failures.get(chatId) ?? []), ...answers]);
    },
    sentTo: (chatId: number) => sent.filter((m) => m.chatId === chatId),
    async close() {
      wake();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type FakeTelegram = Awaited<ReturnType<typeof startFakeTelegram>>;
