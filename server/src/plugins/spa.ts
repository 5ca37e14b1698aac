// Serves the built web app at / (embedded default); unknown non-API GETs get index.html for client routing.
// The public pages with rates (`/`, the calculator, the history and one page per pair) are rendered with today's
// rates in them (modules/site/public-pages.ts), beside the sitemap and robots.txt that point crawlers at them.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_MARKET, pairOfAlias, pairOfSlugs, pairPath, PAIRS, type Pair } from '@afrofx/shared';
import { createPublicPages, SITE_PAGE_PATHS, type RenderedPage } from '../modules/site/public-pages';
import { createRatesSnapshot } from '../modules/paid-api/rates-snapshot';
import type { Runtime } from '../runtime';

// Vite names every file under assets/ by its content hash: a changed file is a new URL, so these never go stale.
const IMMUTABLE = 'public, max-age=31536000, immutable';
// index.html names the current hashed files, so the browser asks again (a 304 when unchanged) on every visit.
const REVALIDATE = 'no-cache';
// The home page's first rate table (web/src/features/public/public-api.ts, default market): the browser starts
// this call with the HTML instead of after the app's script has run; the app's own fetch then takes the answer.
const HOME_RATES_PRELOAD = `</v1/user/fetch_rates/${DEFAULT_MARKET}>; rel=preload; as=fetch; crossorigin=anonymous`;

/** Public pages that are not the app's own: the consoles and the API stay out of search results. */
const CRAWLER_EXCLUDED = ['/admin', '/developer', '/v1/', '/sandbox-pay/'];
// The calls the public pages make for their rates: a crawler that runs the app's script sees the page a visitor sees.
const CRAWLER_ALLOWED = ['/v1/user/fetch_rates/', '/v1/user/rates/', '/v1/user/site_contact'];
/** Pages the app shows without rates in them that still belong in the sitemap. */
const STATIC_PUBLIC_PATHS = ['/api', '/status', '/company/privacy', '/company/terms_of_use'];

function sendPage(request: FastifyRequest, reply: FastifyReply, page: RenderedPage) {
  reply
    .header('cache-control', REVALIDATE)
    .header('vary', 'accept-encoding')
    .type('text/html; charset=utf-8');
  if (/\bbr\b/.test(request.headers['accept-encoding'] ?? '')) {
    return reply.header('content-encoding', 'br').send(page.brotli);
  }
  return reply.send(page.html);
}

export const spaPlugin = fp<{ webDist: string | undefined; runtime: Runtime }>(
  async (app: FastifyInstance, { webDist, runtime }) => {
    const hasSpa = webDist !== undefined && existsSync(path.join(webDist, 'index.html'));
    if (hasSpa) {
      const assets = path.join(webDist, 'assets') + path.sep;
      const { publicUrl } = runtime.config;
      const pages = createPublicPages({
        template: readFileSync(path.join(webDist, 'index.html'), 'utf8'),
        snapshot: createRatesSnapshot(runtime.services.rates, runtime.changes),
        publicUrl,
      });
      for (const sitePath of SITE_PAGE_PATHS) {
        app.get(sitePath, { schema: { hide: true } }, async (request, reply) => {
          if (sitePath === '/') reply.header('link', HOME_RATES_PRELOAD);
          return sendPage(request, reply, await pages.render({ path: sitePath }));
        });
      }
      /** A route of a pair's URL; an unknown pair is not found (or an alias, redirected there). */
      const pairRoute = (
        url: string,
        answer: (pair: Pair, reply: FastifyReply, request: FastifyRequest) => unknown,
      ) =>
        app.get<{ Params: { base: string; asset: string } }>(
          url,
          { schema: { hide: true } },
          async (request, reply) => {
            const pair = pairOfSlugs(request.params.base, request.params.asset);
            return pair ? answer(pair, reply, request) : reply.callNotFound();
          },
        );
      pairRoute('/rates/:base/:asset', async (pair, reply, request) =>
        sendPage(request, reply, await pages.render({ pair })),
      );
      // Link previews fetch the image again now and then; an hour keeps a day's card roughly current.
      pairRoute('/rates/:base/:asset/card.png', async (pair, reply) =>
        reply
          .type('image/png')
          .header('cache-control', 'public, max-age=3600')
          .send(await pages.card(pair)),
      );
      app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
        const changed = await pages.lastChanged();
        const entry = (pagePath: string, lastmod?: string) =>
          `<url><loc>${publicUrl}${pagePath}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;
        const urls = [
          ...SITE_PAGE_PATHS.map((pagePath) => entry(pagePath)),
          ...PAIRS.map((pair) => entry(pairPath(pair), changed.get(pairPath(pair)))),
          ...STATIC_PUBLIC_PATHS.map((pagePath) => entry(pagePath)),
        ];
        return reply
          .type('application/xml; charset=utf-8')
          .header('cache-control', REVALIDATE)
          .send(
            `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
          );
      });
      app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
        reply
          .type('text/plain; charset=utf-8')
          .send(
            [
              'User-agent: *',
              ...CRAWLER_ALLOWED.map((prefix) => `Allow: ${prefix}`),
              ...CRAWLER_EXCLUDED.map((prefix) => `Disallow: ${prefix}`),
              '',
              `Sitemap: ${publicUrl}/sitemap.xml`,
              '',
            ].join('\n'),
          ),
      );
      await app.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        // `/` is the rendered home page above.
        index: false,
        // The build writes a .br and a .gz beside every file (web/vite.config.ts); no compression per request.
        preCompressed: true,
        setHeaders: (reply, file) => {
          reply.header('cache-control', file.startsWith(assets) ? IMMUTABLE : REVALIDATE);
        },
      });
    } else if (webDist !== undefined) {
      app.log.warn({ webDist }, 'no built web app found: serving the API only (run npm run build)');
    }
    app.setNotFoundHandler((request, reply) => {
      const alias =
        hasSpa && (request.method === 'GET' || request.method === 'HEAD')
          ? pairOfAlias(request.url.split('?')[0]!)
          : undefined;
      if (alias) return reply.redirect(pairPath(alias), 301);
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
