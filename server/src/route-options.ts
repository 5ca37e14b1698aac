// What app.ts hands every route module: a leaf module, so that routes never import the app that composes them.
import type { RequestLogHealth } from './modules/public-api/request-log-buffer';
import type { Runtime } from './runtime';
import type { Services } from './services';

/** Probes that modules register for /v1/health. */
export interface HealthProbes {
  requestLog?: () => RequestLogHealth;
}

export interface RouteOptions {
  services: Services;
  runtime: Runtime;
  health: HealthProbes;
}
