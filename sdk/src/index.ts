// @afrofx/sdk: the AfroFX paid API with full types, generated from the OpenAPI document the API serves
// (npm run sdk:generate), and the check of a webhook delivery's AfroFX-Signature.
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths, webhooks } from './schema';

export type { components, paths, webhooks };
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions } from './webhooks';

/** A delivery's body, by event type (rate.updated, rate.threshold, webhook.test). */
export type WebhookEvent = {
  [E in keyof webhooks]: webhooks[E]['post']['requestBody']['content']['application/json'];
}[keyof webhooks];

export interface AfroFxClientOptions {
  /** Your private key (sk_…). */
  apiKey: string;
  /** The API's address, e.g. https://afrofx.example (no /v1). */
  baseUrl: string;
  /** Another fetch (a test's, a proxy's); the global one by default. */
  fetch?: typeof fetch;
}

/**
 * A client of every paid call, typed by path: `client.GET('/v1/rates', { params: { query: { base: 'NGN' } } })`
 * answers `{ data, error, response }`, where `data` and `error` have the document's types.
 */
export function createAfroFxClient({ apiKey, baseUrl, fetch: customFetch }: AfroFxClientOptions) {
  const client = createClient<paths>({ baseUrl, ...(customFetch ? { fetch: customFetch } : {}) });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${apiKey}`);
      return request;
    },
  };
  client.use(auth);
  return client;
}

export type AfroFxClient = ReturnType<typeof createAfroFxClient>;
