// The Bot API client both the bot and the queued sends use: grammY's, pointed at TELEGRAM_API_ROOT, with its
// auto-retry plugin, which waits out a 429's retry_after (and retries 5xx) before the job sees an error.
import { autoRetry } from '@grammyjs/auto-retry';
import { Api, GrammyError } from 'grammy';
import type { TelegramSettings } from '../../settings';

export function createTelegramApi(settings: Pick<TelegramSettings, 'token' | 'apiRoot'>): Api {
  const api = new Api(settings.token, { apiRoot: settings.apiRoot });
  api.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 120 }));
  return api;
}

/** Telegram's 403: the user blocked the bot or the chat is gone; nothing more may be sent there. */
export const isBlockedChat = (err: unknown) => err instanceof GrammyError && err.error_code === 403;
