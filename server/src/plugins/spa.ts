// Serves the built web app at / (embedded default); unknown non-API GETs get index.html for client routing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const spaPlugin = fp<{ webDist: string | undefined }>(
  async (app: FastifyInstance, { webDist }) => {
    const hasSpa = webDist !== undefined && existsSync(path.join(webDist, 'index.html'));
    if (hasSpa) {
      await app.register(fastifyStatic, { root: webDist, wildcard: false, index: ['index.html'] });
    } else if (webDist !== undefined) {
      app.log.warn({ webDist }, 'no built web app found: serving the API only (run npm run build)');
    }
    app.setNotFoundHandler((request, reply) => {
      const wantsPage =
        request.method === 'GET' &&
        !request.url.startsWith('/v1/') &&
        (request.headers.accept ?? '').includes('text/html');
      if (hasSpa && wantsPage) return reply.type('text/html').sendFile('index.html');
      return reply.status(404).send({
        message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
        statusCode: 404,
        error: 'Not Found',
      });
    });
  },
  { name: 'spa' },
);
