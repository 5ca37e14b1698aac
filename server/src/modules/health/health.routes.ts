import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, Health } from '@afrofx/shared';
import type { RouteOptions } from '../../route-options';

async function check(driver: string, probe: () => Promise<void>) {
  try {
    await probe();
    return { ok: true, driver };
  } catch (err) {
    return { ok: false, driver, detail: err instanceof Error ? err.message : String(err) };
  }
}

export const healthRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { runtime, health }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['Status'],
        summary: 'Database and queue status',
        response: { 200: Envelope(Health), 503: Envelope(Health) },
      },
    },
    async (_request, reply) => {
      const [database, queue] = await Promise.all([
        check(runtime.database.driver, runtime.database.ping),
        check(runtime.queue.driver, runtime.queue.ping),
      ]);
      const log = health.requestLog?.();
      const requestLog = log && {
        ...log,
        ok:
          !log.failingSince ||
          Date.now() - Date.parse(log.failingSince) < runtime.config.requestLogUnhealthyAfterMs,
      };
      const healthy = database.ok && queue.ok && (requestLog?.ok ?? true);
      return reply.status(healthy ? 200 : 503).send({
        data: { status: healthy ? 'ok' : 'degraded', database, queue, requestLog },
        message: healthy ? 'All systems go.' : 'Degraded.',
      });
    },
  );
};
