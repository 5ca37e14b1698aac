// The IETF RateLimit header fields of the paid API's answers (DESIGN §5) and the burst refusal that carries them,
// from a key's client, its quota in the period, and the last count this process saw.
import type { FastifyReply } from 'fastify';
import { DomainError } from '../../errors';
import type { ApiClient } from './api-clients';
import type { CallQuota, MeteredCall } from './metered-call';

/** A premium account's quota: no monthly count, only the burst window. */
export const PREMIUM: CallQuota = { subject: null, period: null };

/** `burstPerSecond`: the shared flood guard, the key's burst limit unless its plan sets a lower one. */
export function createRateLimitHeaders(burstPerSecond: number) {
  /** The burst rate the key's plan sets (premium accounts and plans sold before entitlements set none). */
  const planBurstOf = (client: ApiClient) =>
    client.premium ? undefined : client.subscription?.entitlements?.burstPerSecond;
  /** The per-second window that counts the key's calls: its plan's burst rate when below the shared flood guard. */
  function burstLimitOf(client: ApiClient) {
    const planBurst = planBurstOf(client);
    return planBurst !== undefined && planBurst < burstPerSecond ? planBurst : burstPerSecond;
  }

  /**
   * The IETF RateLimit header fields: RateLimit-Policy names both windows the key is counted in ("month", absent
   * for a premium account, and "burst", one second), RateLimit the state of the one that matters now.
   */
  function setPolicyHeader(call: MeteredCall | null, reply: FastifyReply) {
    const client = call?.client;
    if (!client) return;
    const quota = call.quota ?? PREMIUM;
    void reply.header('RateLimit-Policy', policyOf(client, quota));
  }
  /** A key's policy changes with its client (plan, burst) and its period: written once for each. */
  const policies = new WeakMap<ApiClient, { quota: CallQuota; policy: string }>();
  function policyOf(client: ApiClient, quota: CallQuota) {
    const kept = policies.get(client);
    if (kept?.quota === quota) return kept.policy;
    const { subject, period } = quota;
    const burst = `"burst";q=${burstLimitOf(client)};w=1`;
    const month =
      subject && period
        ? `"month";q=${subject.limit};w=${Math.round((period.end.getTime() - period.start.getTime()) / 1000)}`
        : undefined;
    const policy = month ? `${month}, ${burst}` : burst;
    policies.set(client, { quota, policy });
    return policy;
  }

  /** DESIGN §5 headers on every answer, from the last count this process saw. */
  const lastUsed = new Map<string, number>();
  function setQuotaHeaders(call: MeteredCall | null, reply: FastifyReply, used?: number) {
    setPolicyHeader(call, reply);
    const { subject, period } = call?.quota ?? PREMIUM;
    if (!subject || !period) return;
    const current = used ?? lastUsed.get(subject.subscriptionId) ?? subject.processedAtLoad;
    if (used !== undefined) lastUsed.set(subject.subscriptionId, used);
    const remaining = Math.max(subject.limit - current, 0);
    const reset = Math.max(Math.ceil((period.end.getTime() - Date.now()) / 1000), 0);
    void reply.header('RateLimit-Limit', subject.limit);
    void reply.header('RateLimit-Remaining', remaining);
    void reply.header('RateLimit-Reset', reset);
    void reply.header('RateLimit', `"month";r=${remaining};t=${reset}`);
  }

  /** A burst refusal's RateLimit fields describe the per-second window that refused it, not the month. */
  function burstRefusal(call: MeteredCall, reply: FastifyReply, client: ApiClient, limit: number) {
    setPolicyHeader(call, reply);
    void reply.header('RateLimit-Limit', limit);
    void reply.header('RateLimit-Remaining', 0);
    void reply.header('RateLimit-Reset', 1);
    void reply.header('RateLimit', `"burst";r=0;t=1`);
    void reply.header('Retry-After', 1);
    return new DomainError(
      429,
      limit === planBurstOf(client)
        ? `Too many requests at once: your ${client.subscription!.planName} plan allows ${limit} per second per key.`
        : `Too many requests at once: at most ${limit} per second per key.`,
    );
  }

  return { planBurstOf, burstLimitOf, setQuotaHeaders, burstRefusal, lastUsed };
}
