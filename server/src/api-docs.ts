// The paid API's documentation: the quick-start, the split of the generated OpenAPI document into the paid API
// (/v1/openapi.json, rendered at /docs) and the console calls (/v1/openapi-console.json, unlinked), and the page.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import scalarApiReference, { type ApiReferenceConfiguration } from '@scalar/fastify-api-reference';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ANSWER_CHANGING_PARAMETERS, IGNORED_PARAMETERS } from './modules/paid-api/foreign-params';

// The paid API's quick-start, shown at the top of the interactive documentation (/docs).
export function apiQuickStart(baseUrl: string): string {
  return `Exchange rates for the naira, Kenyan shilling, rand and cedi against the dollar, euro, pound and Canadian dollar,
in three markets: \`bank\`, \`black_market_cash\` (Cash) and \`black_market_transfer\` (Transfer).

## Quick start
1. Create a developer account, activate it from the e-mail, and create an app.
2. On **API Keys**, generate a key pair. Copy the private key (\`sk_…\`): it is shown once.
3. Buy a plan for the app (or ask us to make your account a premium customer).
4. Send the private key as a bearer token.

**curl**

\`\`\`bash
curl -H "Authorization: Bearer $AFROFX_KEY" "${baseUrl}/v1/rates?base=naira&market=bank"
\`\`\`

**JavaScript** (Node.js 18+ or a browser)

\`\`\`javascript
const res = await fetch('${baseUrl}/v1/rates?base=naira&market=bank', {
  headers: { Authorization: \`Bearer \${process.env.AFROFX_KEY}\` },
});
const { data } = await res.json();
console.log(data[0].asset, data[0].buy, data[0].sell, res.headers.get('RateLimit-Remaining'));
\`\`\`

**Python** (requests)

\`\`\`python
import os, requests
res = requests.get("${baseUrl}/v1/rates", params={"base": "naira", "market": "bank"},
                   headers={"Authorization": f"Bearer {os.environ['AFROFX_KEY']}"})
res.raise_for_status()
for rate in res.json()["data"]:
    print(rate["asset"], rate["buy"], rate["sell"])
\`\`\`

## Quota and limits
Every 2xx answer counts once against your plan's monthly requests; a \`304 Not Modified\` and a refused request are free.
Each answer carries the IETF RateLimit header fields: \`RateLimit-Policy\` names the two windows your key is counted in (\`"month";q=100000;w=2592000, "burst";q=10;w=1\`), and \`RateLimit\` the one that applies now (\`"month";r=97293;t=1314000\`), with \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds until the monthly count resets).
Every \`429\` carries \`Retry-After\` in seconds (at the monthly limit, over the per-second burst, or after too many unknown keys); a burst \`429\` describes the one-second window (\`RateLimit: "burst";r=0;t=1\`, \`RateLimit-Remaining: 0\`, \`Retry-After: 1\`). An app without an active plan gets \`402\`; a bad or rotated key gets \`401\`.
Send the \`ETag\` of a rates answer back as \`If-None-Match\` to get a free \`304\` while nothing changed.

## Coming from another FX API
- ISO 4217 codes work wherever an id does: \`base=NGN\`, \`asset=USD\`, \`from=USD&to=KES\`; \`/v1/currencies\` lists each id with its code.
- \`symbols=USD,GBP\` on \`/v1/rates\` picks several assets; \`date=2026-11-01\` answers the table as it stood at the end of that UTC day.
- \`GET /v1/usage\` answers this period's count, limit, plan and reset, free of charge.
- Open Exchange Rates and Fixer customers change the base URL and the key, and keep their code: \`/v1/latest.json\`, \`/v1/historical/{date}.json\`, \`/v1/convert/{amount}/{from}/{to}\` and \`/v1/usage.json\` answer in OXR's shapes, \`/v1/latest\`, \`/v1/{date}\`, \`/v1/timeseries\`, \`/v1/fluctuation\` and \`/v1/symbols\` in Fixer's, in their direction (units of each symbol per one base) from the \`bank\` market unless \`market=\` names another. The key may go in the query as \`app_id\` or \`access_key\` (redacted from every log).
- No silent wrong answer: a parameter another FX API uses to choose the figures is a \`400\` naming ours where a call does not take it (${Object.keys(
    ANSWER_CHANGING_PARAMETERS,
  )
    .map((name) => `\`${name}\``)
    .join(
      ', ',
    )}). Other unknown parameters, such as cache-busters (${IGNORED_PARAMETERS.map((name) => `\`${name}\``).join(', ')}), are ignored; spaces in \`symbols\` are too.
- \`HEAD\` is answered and counted like the \`GET\` it stands for.

\`\`\`bash
curl -H "Authorization: Bearer $AFROFX_KEY" "${baseUrl}/v1/rates?base=NGN&symbols=USD,GBP&date=2026-11-01"
curl -H "Authorization: Bearer $AFROFX_KEY" "${baseUrl}/v1/usage"
\`\`\`

## Candles and exports
\`/v1/rates/ohlc\` answers open, high, low and close of buy and sell per day, ISO week or month, from every rate entry.
History and candles stream as CSV or NDJSON with \`format=csv\` / \`format=ndjson\` or the matching \`Accept\` header:

\`\`\`bash
curl -H "Authorization: Bearer $AFROFX_KEY" "${baseUrl}/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=week"
curl -H "Authorization: Bearer $AFROFX_KEY" -H "Accept: text/csv" -o history.csv \\
  "${baseUrl}/v1/rates/history?market=bank&base=naira&asset=dollar&from=2026-01-01&to=2026-06-30"
\`\`\`

## Errors
Every error is JSON: \`{ "message": "…", "statusCode": 400, "error": "Bad Request" }\`, and a \`400\` names the parameter at fault.`;
}

/**
 * Tags of the calls a paying developer makes: the paid API, the service status, and the webhooks an app registers
 * (with how to verify their signature). Everything else is console.
 */
export const PAID_API_TAGS = ['Rates API', 'Compatibility', 'Status', 'Webhooks'];

type Operation = { tags?: string[] };
export interface OpenApiDocument {
  info: { title: string; description?: string };
  tags?: Array<{ name: string }>;
  paths?: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, unknown> } & Record<string, unknown>;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

function onlyOperations(document: OpenApiDocument, keep: (operation: Operation) => boolean) {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [url, item] of Object.entries(document.paths ?? {})) {
    const kept = Object.entries(item).filter(
      ([method, operation]) => !HTTP_METHODS.has(method) || keep(operation),
    );
    if (kept.some(([method]) => HTTP_METHODS.has(method))) paths[url] = Object.fromEntries(kept);
  }
  return paths;
}

/**
 * Splits the generated document: the paid API and webhooks (with the quick-start) for developers, and
 * the console calls (session-token scheme) in a document of their own.
 */
export function splitApiDocument(document: OpenApiDocument): {
  paid: OpenApiDocument;
  console: OpenApiDocument;
} {
  const isPaid = (operation: Operation) => (operation.tags ?? []).some((tag) => PAID_API_TAGS.includes(tag));
  const { apiKey, bearerAuth } = document.components?.securitySchemes ?? {};
  return {
    paid: {
      ...document,
      tags: document.tags?.filter((tag) => PAID_API_TAGS.includes(tag.name)),
      paths: onlyOperations(document, isPaid),
      // Webhook endpoints are registered with the developer's session token, the rest with the API key.
      components: { ...document.components, securitySchemes: { apiKey, bearerAuth } },
    },
    console: {
      ...document,
      info: {
        title: 'AfroFX console API',
        description:
          'The calls of the AfroFX site and consoles. Not a public contract: they change with the site.',
      },
      tags: document.tags?.filter((tag) => !PAID_API_TAGS.includes(tag.name)),
      paths: onlyOperations(document, (operation) => !isPaid(operation)),
      components: { ...document.components, securitySchemes: { bearerAuth } },
    },
  };
}

// The site's colours (web/src/index.css: brand green, gold) on Scalar's theme variables, each at 4.5:1 or more
// against the backgrounds it is used on; the quick-start's code wraps instead of scrolling sideways on a phone.
const DOCS_CSS = `
.light-mode {
  --scalar-color-1: #0f172a;
  --scalar-color-2: #334155;
  --scalar-color-3: #475569;
  --scalar-color-accent: #125f44;
  --scalar-color-blue: #0b5cad;
  --scalar-color-green: #047857;
  --scalar-color-orange: #b34700;
  --scalar-color-red: #c40009;
  --scalar-color-yellow: #7a5e00;
  --scalar-color-purple: #5203d1;
  --scalar-background-1: #ffffff;
  --scalar-background-2: #f8fafc;
  --scalar-background-3: #eef2f6;
  --scalar-background-accent: #eefaf3;
  --scalar-border-color: #e2e8f0;
  --scalar-button-1: #104c38;
  --scalar-button-1-hover: #0d3f2f;
  --scalar-button-1-color: #ffffff;
  --scalar-sidebar-background-1: #eefaf3;
  --scalar-sidebar-item-hover-background: #d6f2e2;
  --scalar-sidebar-item-hover-color: #0d3f2f;
  --scalar-sidebar-item-active-background: #d6f2e2;
  --scalar-sidebar-color-1: #0d3f2f;
  --scalar-sidebar-color-2: #125f44;
  --scalar-sidebar-color-active: #0d3f2f;
  --scalar-sidebar-border-color: #afe3c8;
  --scalar-sidebar-search-background: #ffffff;
  --scalar-sidebar-search-border-color: #afe3c8;
  --scalar-sidebar-search-color: #334155;
}
:root {
  --scalar-font: 'Inter Variable', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
}
.markdown pre code,
.markdown pre code * {
  white-space: pre-wrap !important;
  overflow-wrap: anywhere;
}
.markdown pre code {
  overflow: visible !important;
}
/* Scalar shows its copy buttons' name only while the code block has the pointer or the focus; a screen reader
   needs it always. */
.scalar-code-copy .sr-only > .hidden {
  display: inline !important;
}
.scalar-code-copy .sr-only [class*='copy-button:sr-only'] {
  display: none !important;
}
`;

// Scalar's sample languages, except those of the quick-start: curl, fetch (Node.js and browser), Python requests.
const HIDDEN_CLIENTS: ApiReferenceConfiguration['hiddenClients'] = {
  c: true,
  clojure: true,
  csharp: true,
  dart: true,
  fsharp: true,
  go: true,
  http: true,
  java: true,
  js: ['axios', 'jquery', 'ofetch', 'xhr'],
  julia: true,
  kotlin: true,
  node: ['axios', 'ofetch', 'undici'],
  objc: true,
  ocaml: true,
  php: true,
  powershell: true,
  python: ['python3', 'aiohttp', 'httpx_sync', 'httpx_async'],
  r: true,
  ruby: true,
  rust: true,
  shell: ['httpie', 'wget'],
  swift: true,
};

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Scalar's page runs its configuration from an inline script; the site's CSP (script-src 'self') would block it.
 * Allow exactly that script, by its hash, on that page only.
 */
function allowInlineScripts(reply: FastifyReply, html: string) {
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy !== 'string') return;
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`,
  );
  if (hashes.length > 0) {
    reply.header(
      'content-security-policy',
      policy.replace(/script-src ([^;]*)/, `script-src $1 ${hashes.join(' ')}`),
    );
  }
}

/**
 * Scalar's script (about 4 MB) compressed once, on first request, in the encodings the client accepts: the page
 * would otherwise send it raw on every visit.
 */
function compressedScript() {
  const cache = new Map<string, Promise<Buffer>>();
  return (request: FastifyRequest, reply: FastifyReply, script: string) => {
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
    reply.header('vary', 'accept-encoding');
    reply.header('cache-control', 'public, max-age=86400');
    if (!encoding) return script;
    let compressed = cache.get(encoding);
    if (!compressed) {
      const source = Buffer.from(script);
      compressed =
        encoding === 'br'
          ? brotli(source, {
              params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: source.length },
            })
          : gzipped(source, { level: zlib.Z_BEST_COMPRESSION });
      cache.set(encoding, compressed);
    }
    reply.header('content-encoding', encoding);
    return compressed;
  };
}

/** The interactive documentation of the paid API at /docs (Scalar), in the site's colours, under the site's CSP. */
export async function apiDocsPage(app: FastifyInstance, { document }: { document: () => OpenApiDocument }) {
  const compress = compressedScript();
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string') return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) {
      allowInlineScripts(reply, payload);
      // Scalar's page names no language; screen readers need it to pick a voice.
      return payload.replace(/<html>/, '<html lang="en">');
    }
    if (type.startsWith('application/javascript')) return compress(request, reply, payload);
    return payload;
  });
  await app.register(scalarApiReference, {
    routePrefix: '/docs',
    configuration: {
      content: document,
      pageTitle: 'AfroFX API documentation',
      favicon: '/favicon.svg',
      theme: 'default',
      forceDarkModeState: 'light',
      hideDarkModeToggle: true,
      withDefaultFonts: false,
      customCss: DOCS_CSS,
      hiddenClients: HIDDEN_CLIENTS,
      defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
      authentication: { preferredSecurityScheme: 'apiKey' },
      // The served document names PUBLIC_URL (a generated client needs an absolute server), but the page's Test
      // Request may only reach the address the page came from (CSP connect-src 'self'): the site is opened at
      // localhost, 127.0.0.1 or a LAN name alike in development, with or without www elsewhere.
      servers: [{ url: '/', description: 'This site' }],
      showDeveloperTools: 'never',
      // Scalar's own hosted client, off the site: the page's Test Request is enough.
      hideClientButton: true,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      documentDownloadType: 'json',
    },
  });
}
