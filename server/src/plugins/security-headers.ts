// The page headers of every answer of the site (CSP, frame options, nosniff, HSTS…), from helmet. A hook with a
// callback: the @fastify/helmet wrapper's async hooks cost two promises on every request. It is registered in the
// site's scope (app.ts); the paid API, a scope beside it, gets none of them: a JSON API needs only nosniff, which it
// sets itself.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

async function securityHeaders(app: FastifyInstance) {
  const setHeaders = helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
}

export const securityHeadersPlugin = fp(securityHeaders, { name: 'security-headers', fastify: '5.x' });
