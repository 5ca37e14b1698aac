// The page headers of every answer (CSP, frame options, nosniff, HSTS…), from helmet. A hook with a callback: the
// @fastify/helmet wrapper's async hooks cost two promises on every request, the paid API's included, though a route
// may have none of its headers (`securityHeaders: false`: a JSON API needs no page headers).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route's answers carry none of helmet's page headers. */
    securityHeaders?: false;
  }
}

async function securityHeaders(app: FastifyInstance) {
  const setHeaders = helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.securityHeaders === false) return done();
    setHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
}

export const securityHeadersPlugin = fp(securityHeaders, { name: 'security-headers', fastify: '5.x' });
