// The paid-API load of the fault run: GET /v1/rates at a bounded rate and concurrency, alternating the API
// processes and the two apps, each request with a User-Agent of its own so that every answer the client saw can be
// matched to exactly one request-log row (the log stores the agent).
import { sleep } from './processes';

export type LoadApp = 'unlimited' | 'smallPlan';

export interface RequestOutcome {
  agent: string;
  /** Index of the API process it went to. */
  api: number;
  app: LoadApp;
  /** HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number;
  startedAt: number;
  endedAt: number;
}

export interface LoadOptions {
  /** Prefix of every agent, unique per fault, so each fault's rows are found by prefix. */
  agentPrefix: string;
  apiUrls: readonly string[];
  keys: Record<LoadApp, string>;
  concurrency: number;
  ratePerSecond: number;
  maxRequests: number;
  timeoutMs: number;
}

export interface Load {
  readonly outcomes: readonly RequestOutcome[];
  /** When the first 2xx from that API, among requests started at or after `since`, ended. */
  firstSuccess(api: number, since: number): number | undefined;
  /** Stops sending and waits for the requests in flight. */
  stop(): Promise<RequestOutcome[]>;
}

export const isServed = (status: number) => status >= 200 && status < 300;

export function startLoad(options: LoadOptions): Load {
  const outcomes: RequestOutcome[] = [];
  let sent = 0;
  let stopping = false;
  // Each of the `concurrency` loops starts at most one request per this many ms: the rate bound.
  const spacingMs = (options.concurrency * 1000) / options.ratePerSecond;

  async function loop() {
    while (!stopping && sent < options.maxRequests) {
      const seq = sent++;
      const api = seq % options.apiUrls.length;
      const app: LoadApp = Math.floor(seq / options.apiUrls.length) % 2 === 0 ? 'unlimited' : 'smallPlan';
      const agent = `${options.agentPrefix}${seq}`;
      const startedAt = Date.now();
      let status = 0;
      try {
        const res = await fetch(`${options.apiUrls[api]}/v1/rates`, {
          headers: { authorization: `Bearer ${options.keys[app]}`, 'user-agent': agent },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = 0;
      }
      const endedAt = Date.now();
      outcomes.push({ agent, api, app, status, startedAt, endedAt });
      await sleep(Math.max(0, spacingMs - (endedAt - startedAt)));
    }
  }

  const loops = Promise.all(Array.from({ length: options.concurrency }, loop));
  return {
    outcomes,
    firstSuccess(api, since) {
      let first: number | undefined;
      for (const o of outcomes) {
        if (
          o.api === api &&
          o.startedAt >= since &&
          isServed(o.status) &&
          (first === undefined || o.endedAt < first)
        )
          first = o.endedAt;
      }
      return first;
    },
    async stop() {
      stopping = true;
      await loops;
      return outcomes;
    },
  };
}
