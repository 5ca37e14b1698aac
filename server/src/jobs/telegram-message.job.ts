// One bot message, in the telegram lane: a 429 waits its retry_after inside the Bot API client (auto-retry), and a
// chat that blocked the bot (403) is unsubscribed from everything instead of being retried.
import type { JobContext } from './job-context';
import type { JobData } from '../queue/job-types';
import { alertFiredMessage } from '../modules/telegram/bot-replies';
import { isBlockedChat } from '../modules/telegram/telegram-api';

export async function telegramMessageJob(
  ctx: JobContext<'alerts' | 'telegramChats'>,
  { chatId, text, firingId }: JobData<'telegram-message'>,
): Promise<void> {
  if (!ctx.telegram) return;
  let message = text;
  if (firingId) {
    const pending = await ctx.services.alerts.pendingFiring(firingId);
    // Sent already, or the alert was removed since.
    if (!pending) return;
    message = alertFiredMessage(pending.alert, pending.firing.figure, pending.firing.publishedAt);
  }
  try {
    await ctx.telegram.sendMessage(chatId, message);
  } catch (err) {
    if (!isBlockedChat(err)) throw err;
    await ctx.services.alerts.removeForChat(chatId);
    await ctx.services.telegramChats.forget(chatId);
    return;
  }
  if (firingId) await ctx.services.alerts.recordSent(firingId);
}
