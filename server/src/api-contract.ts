// The paid API's OpenAPI document as the contract customers' own tools check (@redocly/cli recommended, Spectral's
// OWASP ruleset, openapi-typescript): what the route schemas cannot say by themselves is added here, by walking every
// operation, so a route added later gets its headers, errors and bounds without anyone remembering them.
import { ISO_CODES } from '@afrofx/shared';
import { sample } from 'openapi-sampler';
import type { OpenApiDocument } from './api-docs';

type Json = Record<string, unknown>;
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Json[];
  responses?: Record<string, Json>;
};

/**
 * Each operation's stable name (generated clients call it by this name). A route missing here fails the document
 * test, so none ships without one.
 */
export const OPERATION_IDS: Record<string, string> = {
  'get /v1/health': 'getHealth',
  'get /v1/status': 'getStatus',
  'get /v1/rates': 'getLatestRates',
  'get /v1/rates/history': 'getRateHistory',
  'get /v1/rates/premium': 'getRatePremium',
  'get /v1/rates/ohlc': 'getRateCandles',
  'get /v1/rates/revisions': 'listRateRevisions',
  'get /v1/rates/official': 'getOfficialRates',
  'get /v1/convert': 'convertAmount',
  'get /v1/currencies': 'listCurrencies',
  'get /v1/usage': 'getUsage',
  'get /v1/latest.json': 'getOxrLatest',
  'get /v1/historical/{date}.json': 'getOxrHistorical',
  'get /v1/convert/{amount}/{from}/{to}': 'getOxrConvert',
  'get /v1/usage.json': 'getOxrUsage',
  'get /v1/latest': 'getFixerLatest',
  'get /v1/{date}': 'getFixerHistorical',
  'get /v1/timeseries': 'getFixerTimeseries',
  'get /v1/fluctuation': 'getFixerFluctuation',
  'get /v1/symbols': 'getFixerSymbols',
  'post /v1/account/webhooks/{appId}': 'createWebhookEndpoint',
  'get /v1/account/webhooks/{appId}': 'listWebhookEndpoints',
  'delete /v1/account/webhooks/{appId}/{endpointId}': 'deleteWebhookEndpoint',
  'post /v1/account/webhooks/{appId}/{endpointId}/rotate_secret': 'rotateWebhookSecret',
  'post /v1/account/webhooks/{appId}/{endpointId}/test': 'sendWebhookTestEvent',
  'post /v1/account/webhooks/{appId}/{endpointId}/resume': 'resumeWebhookEndpoint',
  'get /v1/account/webhooks/{appId}/{endpointId}/deliveries': 'listWebhookDeliveries',
};

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorResponse = (
  description: string,
  example: { statusCode: number; error: string; message: string },
) => ({
  description,
  content: { 'application/json': { schema: ERROR_REF, example } },
});

const integerHeader = (description: string) => ({
  description,
  schema: { type: 'integer', format: 'int64', minimum: 0, maximum: 2_147_483_647 },
});
const stringHeader = (description: string, example: string) => ({
  description,
  schema: { type: 'string', maxLength: 200, examples: [example] },
});
/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). The older RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset are still sent with the same figures, and named in RateLimit's description
 * only: OWASP's rule wants exactly one of the two forms documented.
 */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': stringHeader(
    'The windows the key is counted in: "month" (the plan\'s monthly requests, q, over the period\'s w seconds; absent for premium accounts) and "burst" (q requests per second, w=1).',
    '"month";q=100000;w=2592000, "burst";q=10;w=1',
  ),
  RateLimit: stringHeader(
    'The window that applies now: "month" with r requests remaining and t seconds until it resets; on a burst 429, "burst";r=0;t=1. The same figures go out as RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (on a burst 429: the per-second limit, 0 and 1).',
    '"month";r=97293;t=1314000',
  ),
};
const RETRY_AFTER = {
  'Retry-After': integerHeader('Seconds to wait before trying again.'),
};
const CACHE_HEADERS = {
  ETag: {
    description: "The answer's version: send it back as If-None-Match for a free 304 while nothing changed.",
    schema: { type: 'string', maxLength: 256, pattern: '^(W/)?"[^"]*"$' },
  },
  'Last-Modified': {
    description: 'When the newest rate in the answer was entered (HTTP date), when there is one.',
    schema: { type: 'string', maxLength: 64, pattern: '^[A-Z][a-z]{2}, ' },
  },
};
const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'An ETag this call answered before: 304 Not Modified (free of charge) while it still holds.',
  schema: { type: 'string', maxLength: 1024 },
};

/** The errors every call with the API key can meet, besides its own. */
const KEY_ERRORS = {
  '401': errorResponse('The key is missing, unknown or rotated.', {
    statusCode: 401,
    error: 'Unauthorized',
    message: 'Invalid or missing API key. Send your private key as: Authorization: Bearer <private key>.',
  }),
  '402': errorResponse('The app has no active plan.', {
    statusCode: 402,
    error: 'Payment Required',
    message: 'This app has no active plan. Buy a plan in the developer console to use the API.',
  }),
  '429': errorResponse(
    'The monthly limit is reached, more than the per-second burst was sent, or too many unknown keys came from your address. Retry-After says when to try again, in seconds. The RateLimit fields describe the window that was hit: the month, or on a burst refusal the one-second window ("burst";r=0;t=1).',
    {
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Monthly request limit reached. It resets on 2026-12-01T00:00:00.000Z.',
    },
  ),
};
/** A call the key's plan does not open (an endpoint, a market or a history depth). */
const ENTITLEMENT_ERROR = errorResponse(
  "The key's plan does not open this call (its endpoint, market, history depth or export): the message names the cheapest plan that does. Not charged.",
  {
    statusCode: 403,
    error: 'Forbidden',
    message:
      'Currency conversion endpoint (convert) is not included in your Starter plan. Upgrade to Growth to use it.',
  },
);
const SERVER_ERROR = errorResponse(
  'Something failed on our side; the request was not charged. Retry later.',
  {
    statusCode: 500,
    error: 'Internal Server Error',
    message: 'Something went wrong. Please try again later.',
  },
);

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Walks every schema object under `node`, calling `visit` on each (properties, items, combinators). */
function eachSchema(node: unknown, visit: (schema: Json) => void) {
  if (Array.isArray(node)) {
    for (const item of node) eachSchema(item, visit);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  if (typeof schema.type === 'string' || Array.isArray(schema.type)) visit(schema);
  for (const value of Object.values(schema)) eachSchema(value, visit);
}

/** int32 where the bounds fit, else int64: generated clients need one of the two. */
function integerFormats(node: unknown) {
  eachSchema(node, (schema) => {
    if (schema.type !== 'integer' || schema.format) return;
    const fits = (bound: unknown) => typeof bound === 'number' && Math.abs(bound) <= 2_147_483_647;
    schema.format = fits(schema.minimum) && fits(schema.maximum) ? 'int32' : 'int64';
  });
}

/** The exact length of the string formats the server validates: the length bound they already imply, stated. */
const FORMAT_LENGTHS: Record<string, number> = { uuid: 36, date: 10 };

/**
 * States the bounds a request's formats and enums already impose (a uuid is 36 characters, a list of distinct enum
 * values has at most that many), so a client's validator and the OWASP size rules see them.
 */
function impliedRequestBounds(operation: Operation & { requestBody?: unknown }) {
  eachSchema([operation.parameters, operation.requestBody], (schema) => {
    const length = FORMAT_LENGTHS[String(schema.format)];
    if (schema.type === 'string' && length !== undefined) schema.maxLength ??= length;
    const items = schema.items as Json | undefined;
    if (schema.type === 'array' && schema.uniqueItems && Array.isArray(items?.enum))
      schema.maxItems ??= items.enum.length;
  });
}

/** The paid API answers any origin (a browser app may call it with its key). */
const ALLOW_ORIGIN = {
  'Access-Control-Allow-Origin': {
    description: 'Always *: the API may be called from a browser.',
    schema: { type: 'string', const: '*' },
  },
};

/** What each response of an operation called with the API key carries. */
function keyOperation(operation: Operation) {
  const responses = (operation.responses ??= {});
  const conditional = '304' in responses;
  // The API takes ISO 4217 codes wherever it takes an asset or base id (see the public API's preValidation hook).
  for (const parameter of operation.parameters ?? []) {
    const schema = parameter.schema as Json | undefined;
    if (!Array.isArray(schema?.enum)) continue;
    const codes = schema.enum.flatMap((id: string) =>
      id in ISO_CODES ? [ISO_CODES[id as keyof typeof ISO_CODES]] : [],
    );
    schema.enum = [...schema.enum, ...codes];
  }
  if (conditional) operation.parameters = [...(operation.parameters ?? []), IF_NONE_MATCH];
  // A compatible call (Open Exchange Rates, Fixer) declares its errors in its peer's shape: those stay.
  const peerShaped = Object.fromEntries(
    Object.entries(responses).filter(([status, response]) => {
      const schema = (response.content as Record<string, Json> | undefined)?.['application/json']?.schema as
        Json | undefined;
      return /^[45]/.test(status) && schema !== undefined && schema.$ref !== ERROR_REF.$ref;
    }),
  );
  Object.assign(responses, { ...KEY_ERRORS, ...responses, ...KEY_ERRORS, '500': SERVER_ERROR }, peerShaped);
  if ('403' in responses && !('403' in peerShaped)) responses['403'] = ENTITLEMENT_ERROR;
  for (const [status, response] of Object.entries(responses)) {
    const headers = { ...(response.headers as Json | undefined), ...ALLOW_ORIGIN };
    if (/^[234]/.test(status)) Object.assign(headers, RATE_LIMIT_HEADERS);
    if (conditional && (status.startsWith('2') || status === '304')) Object.assign(headers, CACHE_HEADERS);
    if (status === '429') Object.assign(headers, RETRY_AFTER);
    if (Object.keys(headers).length > 0) response.headers = headers;
  }
}

/** The headers of a call counted against a per-app limit (webhook management): its window, not the month's. */
const APP_LIMIT_HEADERS = {
  'RateLimit-Policy': stringHeader(
    "With the app's key, the call's windows: q calls per w seconds per app (test events also count per endpoint). Calls with the console session are not counted per app.",
    '"webhooks";q=60;w=60',
  ),
  RateLimit: stringHeader(
    'The window closest to its limit: r calls left, t seconds until it resets (also sent as RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset).',
    '"webhooks";r=59;t=60',
  ),
};

/** Webhook management with the app's key (or the developer's session): limited per app, and says so. */
function appLimitedOperation(operation: Operation) {
  const responses = (operation.responses ??= {});
  responses['429'] ??= errorResponse(
    "Too many calls with this app's key in the window: Retry-After says when to try again, in seconds.",
    { statusCode: 429, error: 'Too Many Requests', message: 'Too many attempts. Try again in 42 seconds.' },
  );
  for (const [status, response] of Object.entries(responses)) {
    if (!/^[24]/.test(status)) continue;
    const headers = { ...(response.headers as Json | undefined), ...APP_LIMIT_HEADERS };
    if (status === '429') Object.assign(headers, RETRY_AFTER);
    response.headers = headers;
  }
}

/** Descriptions of the statuses a route schema leaves as fastify-swagger's "Default Response". */
const STATUS_DESCRIPTIONS: Record<string, string> = {
  '400': 'A parameter or the body is invalid: the message names it. Nothing was changed or charged.',
  '401': 'No valid session or API key.',
  '402': 'The app has no active plan.',
  '403': "The app's plan does not open this: the message names the cheapest plan that does.",
  '404': 'Not found (or not yours).',
  '503': 'A check failed: the body says which.',
};

/**
 * Every JSON answer gets a description and an example: the schema's own examples where it has them, else a sample
 * built from the schema (openapi-sampler, the generator Redocly's documentation uses).
 */
function describeResponses(document: OpenApiDocument, operation: Operation) {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (response.description === 'Default Response' || !response.description)
      response.description = status.startsWith('2')
        ? (operation.summary ?? 'Success')
        : (STATUS_DESCRIPTIONS[status] ?? 'See the message.');
    const json = (response.content as Record<string, Json> | undefined)?.['application/json'];
    if (!json?.schema || json.example !== undefined || json.examples !== undefined) continue;
    json.example = sample(json.schema as never, { quiet: true, skipReadOnly: true }, document);
  }
}

/** The paid document made the contract: names, headers, errors, examples, bounds and the webhooks' payloads. */
export function contractDocument(paid: OpenApiDocument, webhooks: Json): OpenApiDocument {
  const document = structuredClone(paid) as OpenApiDocument & {
    servers?: Json[];
    webhooks?: Json;
    info: Json;
  };
  document.info = {
    ...document.info,
    license: { name: 'Proprietary: use under the AfroFX terms of service', identifier: 'LicenseRef-AfroFX' },
    // The API's page on the site: its plans, its documentation and how to reach us.
    contact: { name: 'AfroFX API support', url: `${String(document.servers?.[0]?.url ?? '')}/api` },
  };
  // The paid API is meant for the public; OWASP's inventory rule asks that this be said.
  document.servers = document.servers?.map((server) => ({ ...server, 'x-internal': false }));
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, value] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      const operation = value as Operation;
      const operationId = OPERATION_IDS[`${method} ${path}`];
      if (!operationId)
        throw new Error(`No operationId for ${method.toUpperCase()} ${path} in OPERATION_IDS`);
      operation.operationId = operationId;
      operation.description ??= operation.summary;
      impliedRequestBounds(operation);
      describeResponses(document, operation);
      if (!operation.security) {
        operation.security = [];
        // The only 4xx a key-less call without parameters meets, as Node's HTTP server answers it for any call.
        (operation.responses ??= {})['431'] ??= {
          description: 'The request headers are larger than the server accepts (16 KB).',
        };
      }
      // Metered calls: the API key is their only scheme.
      else if (operation.security.length === 1 && 'apiKey' in operation.security[0]!) keyOperation(operation);
      else {
        const responses = (operation.responses ??= {});
        responses['401'] ??= errorResponse('No valid session or API key.', {
          statusCode: 401,
          error: 'Unauthorized',
          message:
            'Invalid or missing API key. Send your private key as: Authorization: Bearer <private key>.',
        });
        responses['500'] ??= SERVER_ERROR;
        if (operation.security.some((scheme) => 'apiKey' in scheme)) appLimitedOperation(operation);
      }
    }
  }
  document.webhooks = webhooks;
  integerFormats(document);
  return document;
}
