// Builds the Fastify instance from plugins and modules, without listening: tests import this.
import fastifySwagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { ErrorBody, type RenderPage } from '@afrofx/shared';
import { AccessLog } from './access-log';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { contractDocument } from './api-contract';
import { apiDocsPage, apiQuickStart, splitApiDocument, type OpenApiDocument } from './api-docs';
import { adminUsersRoutes } from './modules/admin-users/admin-users.routes';
import { appsAdminRoutes } from './modules/apps/apps-admin.routes';
import { appsRoutes } from './modules/apps/apps.routes';
import { siteRoutes } from './modules/site/site.routes';
import { healthRoutes, type HealthProbes } from './modules/health/health.routes';
import { jobRunsRoutes } from './modules/job-runs/job-runs.routes';
import { paymentsRoutes } from './modules/payments/payments.routes';
import { sandboxPayRoutes } from './modules/payments/sandbox.routes';
import { plansRoutes } from './modules/plans/plans.routes';
import { paidApi } from './modules/paid-api/paid-api';
import { createRatesSnapshot } from './modules/rates/rates-snapshot';
import { ratesRoutes } from './modules/rates/rates.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { deskRoutes } from './modules/rates/desk.routes';
import { activityRoutes } from './modules/activity/activity.routes';
import { activityPlugin } from './plugins/activity';
import { securityHeadersPlugin } from './plugins/security-headers';
import { rateStatusRoutes } from './modules/rate-status/rate-status.routes';
import { officialRatesRoutes } from './modules/official-rates/official-rates.routes';
import { subscribersRoutes } from './modules/subscribers/subscribers.routes';
import { alertsRoutes } from './modules/alerts/alerts.routes';
import { telegramBot } from './modules/telegram/telegram-bot.plugin';
import { subscriptionsRoutes } from './modules/subscriptions/subscriptions.routes';
import { webhookEventsDocument } from './modules/webhooks/webhook-events';
import { webhooksGuide } from './modules/webhooks/webhooks-guide';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes';
import { authPlugin } from './plugins/auth';
import { errorsPlugin } from './plugins/errors';
import { limitsPlugin } from './plugins/limits';
import { configurePasswordHashing } from './passwords';
import { spaPlugin } from './plugins/spa';
import { buildValidator } from './validation';
import type { Runtime } from './runtime';

export async function buildApp(
  runtime: Runtime,
  /** The public pages' renderer, when not the web build's own (tests give the source's). */
  options: { renderPage?: RenderPage } = {},
): Promise<FastifyInstance> {
  const { config, services } = runtime;
  const app = Fastify({
    loggerInstance: runtime.log as FastifyBaseLogger,
    // Routes may trade their per-request access lines for counts (access-log.ts): the paid API does.
    logController: new AccessLog(),
    // DESIGN §7: only the real proxy hops, or a forged X-Forwarded-For would reset every per-client limit.
    trustProxy: config.trustProxy > 0 ? (_address: string, hop: number) => hop < config.trustProxy : false,
    // DESIGN §7: keep the 1 MiB body limit; answer 413 above it.
    bodyLimit: 1024 * 1024,
    // DESIGN §7: a smuggled field is a 400, not silently dropped; bodies are not coerced (validation.ts).
    schemaController: { compilersFactory: { buildValidator } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(errorsPlugin);
  await app.register(fastifySwagger, {
    // Shared schemas by name (ErrorBody is published as Error), never def-N: generated clients name types after them.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        json.$id === 'ErrorBody' ? 'Error' : typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'AfroFX API',
        version: '1.0.0',
        description: apiQuickStart(config.publicUrl),
      },
      // Absolute, from PUBLIC_URL, in every environment: a generated client in Node cannot resolve a relative one.
      servers: [{ url: config.publicUrl }],
      tags: [
        { name: 'Rates API', description: 'The paid API: authenticate with your private key.' },
        {
          name: 'Compatibility',
          description:
            'Open Exchange Rates- and Fixer-compatible calls: change the base URL and the key, keep your code (docs/switching.md). Paid calls like the rest.',
        },
        { name: 'Status', description: 'Whether the service is up; no key needed.' },
        { name: 'Public', description: 'Calls of the public site.' },
        { name: 'Account', description: 'Developer console: account calls.' },
        { name: 'Apps', description: 'Developer console: apps, keys and usage.' },
        { name: 'Webhooks', description: webhooksGuide },
        { name: 'Admin', description: 'Admin console.' },
      ],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'Console session token (sign-in calls)',
          },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'Your private API key: Authorization: Bearer sk_…',
          },
        },
      },
    },
  });
  app.addSchema({ $id: 'ErrorBody', ...ErrorBody });

  // The paid API is a scope of its own beside the site's (below), so that none of the site's hooks runs on its calls:
  // it has one step of its own before validation (paid-api.ts). A hook added to the root would cost every paid call.
  const health: HealthProbes = {};
  await app.register(paidApi, {
    metering: {
      database: runtime.database,
      changes: runtime.changes,
      requests: services.requests,
      redisUrl: config.redisUrl,
      keyPrefix: runtime.keyPrefix,
      burstPerSecond: config.apiBurstPerSecond,
      requestLogFlushMs: config.requestLogFlushMs,
      exposeRequestLog: (requestLog) => (health.requestLog = requestLog),
    },
    entitlementsOnSale: () => services.plans.entitlementsOnSale(),
    rates: services.rates,
    officialRates: services.officialRates,
    snapshot: createRatesSnapshot(services.rates, runtime.changes, () => services.officialRates.latest()),
    staleAfterHours: config.staleAfterHours,
    prefix: '/v1',
  });

  await app.register(limitsPlugin, {
    redisUrl: config.redisUrl,
    keyPrefix: runtime.keyPrefix,
    signupsPerMinute: config.signupsPerMinute,
  });
  configurePasswordHashing(config.passwordHashing);
  await app.register(authPlugin, {
    secret: config.jwtSecret,
    sessions: {
      adminSessionIsValid: (id, version) => services.adminUsers.sessionIsValid(id, version),
      developerSessionIsValid: async (id, version) =>
        Boolean(await services.accounts.developerSession(id, version)),
    },
    secureCookies: config.publicUrl.startsWith('https:'),
  });

  // The site: its pages, the consoles' calls, the docs. Its hooks (page headers, addresses trimmed, the admins'
  // activity) are this scope's, not the paid API's, which is its sibling.
  await app.register(async (site) => {
    // Addresses are typed and pasted with stray spaces; trim them before the e-mail format check sees them.
    // (A hook with a callback: it runs for every route, and an async one costs a promise per request.)
    site.addHook('preValidation', (request, _reply, done) => {
      const body = request.body as { email?: unknown } | undefined;
      if (body && typeof body === 'object' && typeof body.email === 'string') body.email = body.email.trim();
      done();
    });
    await site.register(securityHeadersPlugin);
    await site.register(activityPlugin, { activity: services.activity });

    // The paid API and the console calls are generated together and published apart (split once, on first use).
    let documents: ReturnType<typeof splitApiDocument> | undefined;
    const apiDocuments = () => {
      if (documents) return documents;
      const { paid, console } = splitApiDocument(site.swagger() as unknown as OpenApiDocument);
      return (documents = { paid: contractDocument(paid, webhookEventsDocument()), console });
    };
    await site.register(apiDocsPage, { document: () => apiDocuments().paid });

    // Each route module declares the services and settings it takes; this one object has them all.
    const routeOptions = { services, runtime, health };
    await site.register(
      async (v1) => {
        await v1.register(healthRoutes, routeOptions);
        await v1.register(siteRoutes, routeOptions);
        await v1.register(ratesRoutes, routeOptions);
        await v1.register(subscribersRoutes, routeOptions);
        await v1.register(alertsRoutes, routeOptions);
        await v1.register(adminUsersRoutes, routeOptions);
        await v1.register(plansRoutes, routeOptions);
        await v1.register(paymentsRoutes, routeOptions);
        await v1.register(subscriptionsRoutes, routeOptions);
        await v1.register(accountsRoutes, routeOptions);
        await v1.register(appsRoutes, routeOptions);
        // Apart from the apps routes' session hooks: endpoints are managed with the session or the app's key.
        await v1.register(webhooksRoutes, routeOptions);
        await v1.register(jobRunsRoutes, routeOptions);
        await v1.register(settingsRoutes, routeOptions);
        await v1.register(deskRoutes, routeOptions);
        await v1.register(activityRoutes, routeOptions);
        await v1.register(rateStatusRoutes, routeOptions);
        await v1.register(officialRatesRoutes, routeOptions);
        await v1.register(appsAdminRoutes, routeOptions);
        v1.get('/openapi.json', { schema: { hide: true } }, async () => apiDocuments().paid);
        v1.get('/openapi-console.json', { schema: { hide: true } }, async () => apiDocuments().console);
      },
      { prefix: '/v1' },
    );

    if (config.telegram) {
      await site.register(telegramBot, {
        settings: config.telegram,
        publicUrl: config.publicUrl,
        alerts: services.alerts,
        telegramChats: services.telegramChats,
        snapshot: createRatesSnapshot(services.rates, runtime.changes),
        log: runtime.log,
      });
    }
    if (config.paymentProvider === 'sandbox') {
      await site.register(sandboxPayRoutes, { ...routeOptions, prefix: '/sandbox-pay' });
    }
    await site.register(spaPlugin, {
      webDist: config.webDist,
      publicUrl: config.publicUrl,
      staleAfterHours: config.staleAfterHours,
      ratesSnapshot: () =>
        createRatesSnapshot(services.rates, runtime.changes, () => services.officialRates.latest()),
      renderPage: options.renderPage,
    });
  });
  return app;
}
