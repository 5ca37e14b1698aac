// Serves the built web app at / (embedded default). Every public page in the sitemap is rendered on the server:
// those with rates (`/`, the calculator, the history and one page per pair) with today's rates in them, the API and
// status pages with their plans and health (modules/site/public-pages.ts), beside the sitemap and robots.txt that
// point crawlers at them. The consoles and the links sent by mail get the app's shell, which the browser draws; any
// other address is a 404 with the not-found page.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { pairOfAlias, pairOfSlugs, pairPath, PAIRS, type Pair, type RenderPage } from '@afrofx/shared';
import {
  APP_PAGE_PATHS,
  createPublicPages,
  RATES_UNAVAILABLE,
  SITE_PAGE_PATHS,
  type AppPageData,
  type RenderedPage,
} from '../modules/site/public-pages';
import type { RatesSnapshotSource } from '../modules/rates/rates-snapshot';

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
/** The consoles' pages anyone may open and find: signing up and signing in. */
const CRAWLER_ALLOWED_PAGES = ['/developer/signin', '/developer/signup'];
/** The confirmation, unsubscribe and alert links sent by mail: pages, even when their token ends like a file name. */
const MAILED_LINKS = [
  /^\/confirmation\/[^/]+$/,
  /^\/unsubscribe\/[^/]+$/,
  /^\/alerts\/(confirm|manage)\/[^/]+$/,
];
/**
 * The app's routes that only the browser draws (web/src/app/router.tsx): the consoles and the mailed links. They get
 * the app's shell; every other unknown address is not found.
 */
const BROWSER_DRAWN_ROUTES = [/^\/(admin|developer)(\/|$)/, ...MAILED_LINKS];

const isBrowserDrawn = (pathname: string) => BROWSER_DRAWN_ROUTES.some((route) => route.test(pathname));
const isMailedLink = (pathname: string) => MAILED_LINKS.some((route) => route.test(pathname));

/**
 * Whether a request not matched by any route is a visit to a page: a GET that takes HTML (a browser), or anything
 * (curl's and many crawlers' `*\/*`, or no Accept at all), for an address that is neither the API nor a file.
 */
function visitsPage(request: FastifyRequest, pathname: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (pathname.startsWith('/v1/')) return false;
  // A mailed link's token is a value and its signature joined by a dot, so it can end like a file name.
  if (/\.[A-Za-z0-9]+$/.test(pathname) && !isMailedLink(pathname)) return false;
  const accept = request.headers.accept ?? '';
  return accept === '' || accept.includes('text/html') || accept.includes('*/*');
}

/** The plans and status pages' data, as the API answers the browser's same calls. */
function appPageData(app: FastifyInstance): AppPageData {
  const answer = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}`);
    return res.json();
  };
  return {
    plans: () => answer('/v1/account/fetch_plans?page=1'),
    status: async () => (await answer('/v1/status')).data,
    siteContact: async () => (await answer('/v1/user/site_contact')).data,
  };
}

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

type PublicPages = ReturnType<typeof createPublicPages>;

/**
 * A page with rates, or, while the rates cannot be read (no snapshot yet: the database is down since the start), the
 * page's shell saying so with a 503 that tells crawlers when to come back. The next request tries again.
 */
function ratesPageSender(pages: PublicPages) {
  return async (request: FastifyRequest, reply: FastifyReply, page: { path: string } | { pair: Pair }) => {
    try {
      return sendPage(request, reply, await pages.render(page));
    } catch (err) {
      request.log.error({ err }, 'public page served without rates: the rates could not be read');
      reply.status(503).header('retry-after', String(RATES_RETRY_AFTER_S));
      return sendPage(request, reply, pages.unavailable('pair' in page ? pairPath(page.pair) : page.path));
    }
  };
}

/** The site's pages, the app's pages with their data, and each pair's page and link-preview card. */
function pageRoutes(app: FastifyInstance, pages: PublicPages) {
  const sendRatesPage = ratesPageSender(pages);
  for (const sitePath of SITE_PAGE_PATHS) {
    app.get(sitePath, { schema: { hide: true } }, async (request, reply) => {
      return sendRatesPage(request, reply, { path: sitePath });
    });
  }
  for (const appPath of APP_PAGE_PATHS) {
    app.get(appPath, { schema: { hide: true } }, async (request, reply) => {
      try {
        return sendPage(request, reply, await pages.renderAppPage(appPath));
      } catch (err) {
        // The browser draws the page and asks for its data itself, as it does in the app.
        request.log.error({ err }, 'public page served as the app’s shell: its data could not be read');
        return reply.header('cache-control', REVALIDATE).type('text/html').sendFile('index.html');
      }
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
  pairRoute('/rates/:base/:asset', async (pair, reply, request) => sendRatesPage(request, reply, { pair }));
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
}

/** The sitemap and robots.txt that point crawlers at the public pages. */
function crawlerRoutes(app: FastifyInstance, pages: PublicPages, publicUrl: string) {
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
      ...APP_PAGE_PATHS.map((pagePath) => entry(pagePath)),
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
          ...[...CRAWLER_ALLOWED, ...CRAWLER_ALLOWED_PAGES].map((prefix) => `Allow: ${prefix}`),
          ...CRAWLER_EXCLUDED.map((prefix) => `Disallow: ${prefix}`),
          '',
          `Sitemap: ${publicUrl}/sitemap.xml`,
          '',
        ].join('\n'),
      ),
  );
}

/** The build's files: the hashed assets kept for good, the rest asked for again on every visit. */
async function builtFiles(app: FastifyInstance, webDist: string) {
  const assets = path.join(webDist, 'assets') + path.sep;
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
}

/**
 * An address no route serves: a pair's alias is redirected to its page, a page the browser draws gets the app's
 * shell, any other visit the not-found page (when there is a web build), and the API a JSON 404.
 */
function notFoundHandler(
  app: FastifyInstance,
  hasSpa: boolean,
  notFoundPage: ((pathname: string) => Promise<RenderedPage>) | undefined,
) {
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const alias =
      hasSpa && (request.method === 'GET' || request.method === 'HEAD') ? pairOfAlias(pathname) : undefined;
    if (alias) return reply.redirect(pairPath(alias), 301);
    if (notFoundPage && visitsPage(request, pathname)) {
      if (isBrowserDrawn(pathname)) {
        return reply.header('cache-control', REVALIDATE).type('text/html').sendFile('index.html');
      }
      reply.status(404);
      try {
        return sendPage(request, reply, await notFoundPage(pathname));
      } catch (err) {
        request.log.error({ err }, 'not-found page served as the app’s shell: the rates could not be read');
        return reply.type('text/html').sendFile('index.html');
      }
    }
    return reply.status(404).send({
      message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
      statusCode: 404,
      error: 'Not Found',
    });
  });
}

export interface SpaOptions {
  webDist: string | undefined;
  publicUrl: string;
  staleAfterHours: number;
  /** The rates the public pages are drawn from, made only when there is a web build to draw them. */
  ratesSnapshot: () => RatesSnapshotSource;
  renderPage?: RenderPage;
}

export const spaPlugin = fp<SpaOptions>(
  async (
    app: FastifyInstance,
    { webDist, publicUrl, staleAfterHours, ratesSnapshot, renderPage: givenRenderer },
  ) => {
    const hasSpa = webDist !== undefined && existsSync(path.join(webDist, 'index.html'));
    const renderPage = hasSpa ? (givenRenderer ?? (await builtRenderer(webDist))) : undefined;
    if (hasSpa && !renderPage) {
      app.log.warn(
        { webDist },
        'no server renderer in the web build: public pages carry their head, the browser draws them',
      );
    }
    /** The not-found page, drawn on the server: set with the public pages when there is a web build. */
    let notFoundPage: ((pathname: string) => Promise<RenderedPage>) | undefined;
    if (hasSpa) {
      const pages = createPublicPages({
        template: withInlineStyles(readFileSync(path.join(webDist, 'index.html'), 'utf8'), webDist),
        snapshot: ratesSnapshot(),
        publicUrl,
        renderPage,
        staleAfterMs: staleAfterHours * 3_600_000,
        data: appPageData(app),
      });
      notFoundPage = (pathname) => pages.renderNotFound(pathname);
      pageRoutes(app, pages);
      crawlerRoutes(app, pages, publicUrl);
      await builtFiles(app, webDist);
    } else if (webDist !== undefined) {
      app.log.warn({ webDist }, 'no built web app found: serving the API only (run npm run build)');
    }
    notFoundHandler(app, hasSpa, notFoundPage);
  },
  { name: 'spa' },
);
