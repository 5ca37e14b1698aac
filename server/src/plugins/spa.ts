// Serves the built web app at / (embedded default); unknown non-API GETs get index.html for client routing.
// The public pages with rates (`/`, the calculator, the history and one page per pair) are rendered with today's
// rates in them (modules/site/public-pages.ts), beside the sitemap and robots.txt that point crawlers at them.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { pairOfAlias, pairOfSlugs, pairPath, PAIRS, type Pair, type RenderPage } from '@afrofx/shared';
import {
  createPublicPages,
  RATES_UNAVAILABLE,
  SITE_PAGE_PATHS,
  type RenderedPage,
} from '../modules/site/public-pages';
import { createRatesSnapshot } from '../modules/paid-api/rates-snapshot';
import type { Runtime } from '../runtime';

// Vite names every file under assets/ by its content hash: a changed file is a new URL, so these never go stale.
const IMMUTABLE = 'public, max-age=31536000, immutable';
// index.html names the current hashed files, so the browser asks again (a 304 when unchanged) on every visit.
const REVALIDATE = 'no-cache';

/** Where under the web build its server renderer is (web/vite.config.ts): never served as a file. */
const SSR_DIR = 'server';

/** Public pages that are not the app's own: the consoles and the API stay out of search results. */
const CRAWLER_EXCLUDED = ['/admin', '/developer', '/v1/', '/sandbox-pay/'];
// The calls the public pages make for their rates: a crawler that runs the app's script sees the page a visitor sees.
const CRAWLER_ALLOWED = ['/v1/user/fetch_rates/', '/v1/user/rates/', '/v1/user/site_contact'];
/** Pages the app shows without rates in them that still belong in the sitemap. */
const STATIC_PUBLIC_PATHS = ['/api', '/status', '/company/privacy', '/company/terms_of_use'];

/** Seconds a crawler or a client waits before asking again for a page whose rates could not be read. */
const RATES_RETRY_AFTER_S = 30;

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

/**
 * The build's stylesheets written into the page: a stylesheet link holds back the first paint until it has arrived,
 * one more round trip before a phone shows the rates the HTML already holds. The browser-drawn pages keep the link.
 */
function withInlineStyles(template: string, webDist: string): string {
  return template.replace(
    /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g,
    (link, file: string) => {
      const css = path.join(webDist, file);
      return existsSync(css) ? `<style>${readFileSync(css, 'utf8')}</style>` : link;
    },
  );
}

/** The public pages' renderer the web build made beside the app (web/vite.config.ts), if it made one. */
async function builtRenderer(webDist: string): Promise<RenderPage | undefined> {
  const file = path.join(webDist, SSR_DIR, 'entry-server.js');
  if (!existsSync(file)) return undefined;
  const module = (await import(pathToFileURL(file).href)) as { renderPage: RenderPage };
  return module.renderPage;
}

export const spaPlugin = fp<{ webDist: string | undefined; runtime: Runtime; renderPage?: RenderPage }>(
  async (app: FastifyInstance, { webDist, runtime, renderPage: givenRenderer }) => {
    const hasSpa = webDist !== undefined && existsSync(path.join(webDist, 'index.html'));
    const renderPage = hasSpa ? (givenRenderer ?? (await builtRenderer(webDist))) : undefined;
    if (hasSpa && !renderPage) {
      app.log.warn(
        { webDist },
        'no server renderer in the web build: public pages carry their head, the browser draws them',
      );
    }
    if (hasSpa) {
      const assets = path.join(webDist, 'assets') + path.sep;
      const { publicUrl, staleAfterHours } = runtime.config;
      const pages = createPublicPages({
        template: withInlineStyles(readFileSync(path.join(webDist, 'index.html'), 'utf8'), webDist),
        snapshot: createRatesSnapshot(runtime.services.rates, runtime.changes),
        publicUrl,
        renderPage,
        staleAfterMs: staleAfterHours * 3_600_000,
      });
      /**
       * A page with rates, or, while the rates cannot be read (no snapshot yet: the database is down since the start),
       * the page's shell saying so with a 503 that tells crawlers when to come back. The next request tries again.
       */
      const sendRatesPage = async (
        request: FastifyRequest,
        reply: FastifyReply,
        page: { path: string } | { pair: Pair },
      ) => {
        try {
          return sendPage(request, reply, await pages.render(page));
        } catch (err) {
          request.log.error({ err }, 'public page served without rates: the rates could not be read');
          reply.status(503).header('retry-after', String(RATES_RETRY_AFTER_S));
          return sendPage(
            request,
            reply,
            pages.unavailable('pair' in page ? pairPath(page.pair) : page.path),
          );
        }
      };
      for (const sitePath of SITE_PAGE_PATHS) {
        app.get(sitePath, { schema: { hide: true } }, async (request, reply) => {
          return sendRatesPage(request, reply, { path: sitePath });
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
        sendRatesPage(request, reply, { pair }),
      );
      // Link previews fetch the image again now and then; an hour keeps a day's card roughly current.
      pairRoute('/rates/:base/:asset/card.png', async (pair, reply, request) => {
        let card: Buffer;
        try {
          card = await pages.card(pair);
        } catch (err) {
          request.log.error({ err }, 'rate card not drawn: the rates could not be read');
          return reply
            .status(503)
            .header('retry-after', String(RATES_RETRY_AFTER_S))
            .send({
              message: `${RATES_UNAVAILABLE}. Please try again in a minute.`,
              statusCode: 503,
              error: 'Service Unavailable',
            });
        }
        return reply.type('image/png').header('cache-control', 'public, max-age=3600').send(card);
      });
      app.get('/sitemap.xml', { schema: { hide: true } }, async (request, reply) => {
        // Without the rates, the pages are still listed, only without when they changed.
        const changed = await pages.lastChanged().catch((err: unknown) => {
          request.log.error({ err }, 'sitemap without dates: the rates could not be read');
          return new Map<string, string>();
        });
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
        allowedPath: (pathName) => !pathName.startsWith(`/${SSR_DIR}/`),
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
