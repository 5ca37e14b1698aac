// The chats that talk to the bot, and which of them take the message of each publication (/daily). This module
// owns telegram_chats.
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { telegramChats } from '../../db/schema';
import type { Enqueue } from '../../queue/enqueue';

export function createTelegramChatsService(db: Database, enqueue: Enqueue) {
  return {
    async setDaily(chatId: number, daily: boolean): Promise<void> {
      await db
        .insert(telegramChats)
        .values({ chatId, daily })
        .onConflictDoUpdate({ target: telegramChats.chatId, set: { daily } });
    },

    /** Queues one message per daily chat for a publication; a retried run queues none twice. */
    async queuePublication(publishedAt: string, text: string): Promise<number> {
      const rows = await db
        .select({ chatId: telegramChats.chatId })
        .from(telegramChats)
        .where(eq(telegramChats.daily, true));
      for (const { chatId } of rows)
        await enqueue('telegram-message', { chatId, text }, { jobId: `daily-${chatId}-${publishedAt}` });
      return rows.length;
    },

    async forget(chatId: number): Promise<void> {
      await db.delete(telegramChats).where(eq(telegramChats.chatId, chatId));
    },
  };
}

export type TelegramChatsService = ReturnType<typeof createTelegramChatsService>;
