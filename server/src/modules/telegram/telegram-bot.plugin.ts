// Runs the bot beside the HTTP server: Telegram posts updates to /telegram/webhook when PUBLIC_URL is https (the
// only scheme Telegram calls), and the bot polls getUpdates otherwise. Without a token this plugin is not registered.
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { webhookCallback } from 'grammy';
import type { TelegramSettings } from '../../settings';
import { createBot, type BotDeps } from './bot';

export const TELEGRAM_WEBHOOK_PATH = '/telegram/webhook';

export interface TelegramBotOptions extends BotDeps {
  settings: TelegramSettings;
  publicUrl: string;
}

const plugin: FastifyPluginAsync<TelegramBotOptions> = async (app, { settings, publicUrl, ...deps }) => {
  const bot = createBot(settings, deps);
  if (settings.mode === 'webhook') {
    // grammY answers 401 to a request without Telegram's secret token: nobody else can post updates.
    app.post(
      TELEGRAM_WEBHOOK_PATH,
      { schema: { hide: true } },
      webhookCallback(bot, 'fastify', { secretToken: settings.webhookSecret }),
    );
    app.addHook('onReady', async () => {
      try {
        await bot.init();
        await bot.api.setWebhook(`${publicUrl}${TELEGRAM_WEBHOOK_PATH}`, {
          secret_token: settings.webhookSecret,
        });
      } catch (err) {
        app.log.error({ err }, 'telegram webhook could not be set');
      }
    });
    return;
  }
  app.addHook('onReady', async () => {
    void bot
      .start({ drop_pending_updates: false })
      .catch((err) => app.log.error({ err }, 'telegram polling stopped'));
  });
  app.addHook('onClose', async () => {
    if (bot.isRunning()) await bot.stop();
  });
};

export const telegramBot = fp(plugin, { name: 'telegram-bot' });
