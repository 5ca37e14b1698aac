// The Open Exchange Rates- and Fixer-compatible calls (docs/switching.md): a customer of either changes the base
// URL and the key, and their code reads the same fields. They are paid calls like /v1/rates: registered inside the
// paid API's scope, so the key, plan, quota, burst, request log, ETag and entitlements are the ones /v1/rates has.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CompatOptions } from './compat';
import { fixerRoutes } from './fixer.routes';
import { oxrRoutes } from './oxr.routes';

export const compatRoutes: FastifyPluginAsyncTypebox<CompatOptions> = async (app, options) => {
  await app.register(oxrRoutes, options);
  await app.register(fixerRoutes, options);
};
