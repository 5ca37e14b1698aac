// The console's audit trail, for every admin call that changes something: once the call has succeeded, and before
// its answer goes out (so the admin who reads the trail next sees it), the admin,
// the time, the call, its target and what was sent (or the state before and after, when the route says) are
// appended. Calls whose service records its own entry inside its transaction (publications, corrections) say so in
// their route config and are not recorded twice.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { AdminActivityKind } from '@afrofx/shared';
import type { ActivityService } from '../modules/activity/activity.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the route knows of the change: the state before and after an edit, the target, a reason. */
    activity?: { before?: unknown; after?: unknown; target?: string; reason?: string };
  }
  interface FastifyContextConfig {
    /** 'in-service': the service appends the entry inside its own transaction. */
    activity?: 'in-service';
  }
}

const KINDS: Array<[RegExp, AdminActivityKind]> = [
  [/export/, 'exports'],
  [/tweet/, 'tweets'],
  [/mail|remove_email/, 'mailings'],
  [/rate_publications/, 'publications'],
  [/settings/, 'settings'],
  [/plan|feature/, 'plans'],
  [/user|password|account/, 'users'],
  [/rate/, 'rates'],
];

export const activityKindOf = (url: string): AdminActivityKind =>
  KINDS.find(([pattern]) => pattern.test(url))?.[1] ?? 'other';

const SECRET = /password|token|secret/i;

/** The body as sent, without passwords or secrets. */
function redacted(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body ?? null;
  return Object.fromEntries(Object.entries(body).filter(([key]) => !SECRET.test(key)));
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const NOT_CHANGES = new Set(['/v1/admin/signout']);

export const activityPlugin = fp(
  async (app: FastifyInstance, { activity }: { activity: ActivityService }) => {
    // A hook with a callback: it runs on every answer, and an async one costs two promises on each; only an admin's
    // change waits for its entry.
    app.addHook('onSend', (request, reply, payload, done) => {
      const url = request.routeOptions.url;
      if (!request.admin || !url || !CHANGES.has(request.method) || reply.statusCode >= 400)
        return done(null, payload);
      if (request.routeOptions.config.activity === 'in-service' || NOT_CHANGES.has(url))
        return done(null, payload);
      const params = request.params as Record<string, string> | undefined;
      const detail = request.activity ?? {};
      activity
        .record({
          adminId: request.admin.id,
          kind: activityKindOf(url),
          action: `${request.method} ${url}`,
          target: detail.target ?? params?.id ?? null,
          before: detail.before ?? null,
          after: 'after' in detail ? detail.after : redacted(request.body),
          reason: detail.reason ?? (request.query as { reason?: string } | undefined)?.reason ?? null,
        })
        .catch((err: unknown) => request.log.error({ err }, 'the admin activity entry could not be recorded'))
        .then(() => done(null, payload));
    });
  },
  { name: 'activity' },
);
