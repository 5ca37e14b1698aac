// Serves the built web app at / (embedded default); unknown non-API GETs get index.html for client routing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_MARKET } from '@afrofx/shared';

// Vite names every file under assets/ by its content hash: a changed file is a new URL, so these never go stale.
const IMMUTABLE = 'public, max-age=31536000, immutable';
// index.html names the current hashed files, so the browser asks again (a 304 when unchanged) on every visit.
const REVALIDATE = 'no-cache';
// The home page's first rate table (web/src/features/public/public-api.ts, default market): the browser starts
// this call with the HTML instead of after the app's script has run; the app's own fetch then takes the answer.
const HOME_RATES_PRELOAD = `</v1/user/fetch_rates/${DEFAULT_MARKET}>; rel=preload; as=fetch; crossorigin=anonymous`;

export const spaPlugin = fp<{ webDist: string | undefined }>(
  async (app: FastifyInstance, { webDist }) => {
    const hasSpa = webDist !== undefined && existsSync(path.join(webDist, 'index.html'));
    if (hasSpa) {
      const assets = path.join(webDist, 'assets') + path.sep;
      await app.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        index: ['index.html'],
        // The build writes a .br and a .gz beside every file (web/vite.config.ts); no compression per request.
        preCompressed: true,
        setHeaders: (reply, file) => {
          reply.header('cache-control', file.startsWith(assets) ? IMMUTABLE : REVALIDATE);
          // `file` is the one sent: index.html.br to a browser that accepts brotli.
          if (
            /^index\.html(\.br|\.gz)?$/.test(path.basename(file)) &&
            reply.request.url.split('?')[0] === '/'
          ) {
            reply.header('link', HOME_RATES_PRELOAD);
          }
        },
      });
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
