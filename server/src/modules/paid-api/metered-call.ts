// The state of one call of the paid API as the metering plugin keeps it on the request, the helpers it gives the
// reply, and what it reads of the request: the private key and the validators the client holds. A call's `quota` is
// the one thing here called a quota.
import type { FastifyRequest } from 'fastify';
import type { QuotaPeriod } from '@afrofx/shared';
import type { ApiClient } from './api-clients';
import type { QuotaSubject } from './quota-store';

/** The monthly count a call is taken from; null subject and period for a premium account, which has none. */
export interface CallQuota {
  subject: QuotaSubject | null;
  period: QuotaPeriod | null;
}

/** What metering knows of one paid call, from its arrival to its log entry. */
export interface MeteredCall {
  startedAt: number;
  /** The key's app, once its key resolved. */
  client?: ApiClient;
  /** Set with the client, once the key was admitted. */
  quota?: CallQuota;
  /** Passed the quota and burst checks: its answer is logged as a row of its own. */
  served: boolean;
  /** Counted against the quota: a 5xx or a client gone before the answer gives it back. */
  charged: boolean;
  /** Its log entry is pushed, so an abort and a response never both log it. */
  logged: boolean;
  /** The client went away before the answer. */
  gone: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Starts a paid call's state and admits it by its key and plan: `done` gets null, or the refusal (401, 402, 429).
     * It may call `done` before it returns; only a key to look up waits.
     */
    admitPaidCall(request: FastifyRequest, reply: FastifyReply, done: (refusal: Error | null) => void): void;
  }
  interface FastifyRequest {
    /** Set by the metering plugin on every call of the paid scope. */
    metered: MeteredCall | null;
  }
  interface FastifyReply {
    /** Counts the answer against the quota, or refuses with 429 (monthly limit or burst). */
    charge(): Promise<void>;
    /**
     * Sets the validators. False when the client does not hold this version; when it does, a free 304: counted
     * against the plan's burst rate (admitFree), not the month.
     */
    notModified(etag: string, lastModified?: string): false | Promise<true>;
    /** notModified, and when the client does not hold this version, counts the request (charge). */
    conditional(etag: string, lastModified?: string): Promise<boolean>;
    /**
     * conditional, answered to a callback (no promise when the client does not hold this version and the count needs
     * none): a refusal is the error, else whether the answer is a 304. `done` may be called before this returns.
     */
    conditionalThen(
      etag: string,
      lastModified: string | undefined,
      done: (err: Error | null, notModified?: boolean) => void,
    ): void;
    /** A free answer: counted against the key's plan burst rate, never the month; or refused with 429. */
    admitFree(): Promise<void>;
    /** Logs the request's outcome now (an answer cut off part-way is the 500 it is), once. */
    settle(status: number): void;
    /**
     * The count of the key's period as every API process sees it now (null for a premium account); the answer's
     * RateLimit headers say the same.
     */
    quotaUsed(): Promise<number | null>;
  }
}

/**
 * The private key: the Authorization header, or where the FX APIs customers switch from take it, the query's
 * app_id (Open Exchange Rates) or access_key (Fixer). Both names are redacted from every log (logger.ts).
 */
export const KEY_QUERY_PARAMETERS = ['app_id', 'access_key'] as const;
export function privateKeyOf(request: FastifyRequest) {
  // Open Exchange Rates' clients send "Token <app id>"; ours and Fixer's "Bearer <key>".
  const bearer = /^(?:Bearer|Token)\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  const query = request.query as Record<string, unknown> | undefined;
  for (const name of KEY_QUERY_PARAMETERS) if (typeof query?.[name] === 'string') return query[name];
  return undefined;
}

export function matchesEtag(request: FastifyRequest, etag: string) {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === etag || value === '*';
  });
}
