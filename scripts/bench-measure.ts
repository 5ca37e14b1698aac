// What `npm run bench` (and the sign-up flood's bench) measure with: free ports, a server's readiness, an autocannon
// run with each answer's own time, the CPU seconds of processes and a main thread's time on a core, read from /proc.
import { readdirSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import autocannon from 'autocannon';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', timeout: 500 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.on('connect', () => done(true));
    socket.on('error', () => done(false));
    socket.on('timeout', () => done(false));
  });
}

export async function waitFor(url: string, headers: Record<string, string> = {}) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { headers });
      if (res.ok) return res;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer in time`);
}

/** Latency percentiles of a run, in milliseconds. */
export interface Latency {
  p50: number;
  p99: number;
}

export interface Run {
  result: autocannon.Result;
  latency: Latency;
}

/** The `quantile` of ascending `sorted` values (nearest rank). */
export const nearestRank = (sorted: Float64Array, quantile: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(quantile * sorted.length) - 1))] ?? 0;

/**
 * One load run. Its percentiles come from every 2xx answer's own time: autocannon's histogram keeps whole
 * milliseconds, which on loopback puts most answers of both routes at 0 or 1 ms and makes a p99 ratio a step of 1 ms.
 */
export function run(
  url: string,
  headers: Record<string, string>,
  duration: number,
  connections: number,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    const instance = autocannon(
      { url, connections, duration, headers, pipelining: 1 },
      (error: unknown, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        const sorted = Float64Array.from(times).sort();
        resolve({ result, latency: { p50: nearestRank(sorted, 0.5), p99: nearestRank(sorted, 0.99) } });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
    });
  });
}

/** CPU seconds a process has used (user + system), from /proc on Linux; undefined elsewhere or once it is gone. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, counted after the command's closing parenthesis.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Linux's account of a process's main thread (/proc/<pid>/task/<pid>/schedstat): ms on a core, and ms runnable but
 * waiting for one; undefined where there is no /proc.
 */
export function threadTimes(pid: number): { onCore: number; waiting: number } | undefined {
  try {
    const [onCore, waiting] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8')
      .split(' ')
      .map(Number);
    return { onCore: onCore! / 1e6, waiting: waiting! / 1e6 };
  } catch {
    return undefined;
  }
}

/** PostgreSQL's and Redis's process names. */
export const SERVICES = ['postgres', 'redis-server'];

/** The processes of this machine whose command is one of `names` (PostgreSQL's backends, Redis). */
export function processesNamed(names: string[]): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return names.includes(readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

/** CPU seconds of each of a set of processes now. */
export const cpuOf = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuSeconds(pid)] as const));

/** CPU seconds a set of processes used since `before`; a process gone meanwhile (a closed backend) counts none. */
export function cpuSince(before: Map<number, number | undefined>): number {
  let seconds = 0;
  for (const [pid, then] of before) {
    const now = cpuSeconds(pid);
    if (then !== undefined && now !== undefined) seconds += now - then;
  }
  return seconds;
}

/** Where each answer's CPU went in one run, in microseconds per answer. */
export interface CpuShare {
  generator: number;
  server: number;
  services: number;
}

export interface Summary {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  cpu: CpuShare | undefined;
}

/** The mean of the runs' CPU shares, leaving out the runs /proc could not measure; undefined when none could. */
export function meanShare(shares: Array<CpuShare | undefined>): CpuShare | undefined {
  const measured = shares.filter((share): share is CpuShare => share !== undefined);
  if (measured.length === 0) return undefined;
  const mean = (pick: (c: CpuShare) => number) => measured.reduce((s, c) => s + pick(c), 0) / measured.length;
  return {
    generator: mean((c) => c.generator),
    server: mean((c) => c.server),
    services: mean((c) => c.services),
  };
}

/** The three routes each round runs, in order. */
export function summary(runs: Run[], shares: Array<CpuShare | undefined>): Summary {
  const avg = (pick: (r: Run) => number) => runs.reduce((s, r) => s + pick(r), 0) / runs.length;
  return {
    rps: avg((r) => r.result.requests.average),
    p50: avg((r) => r.latency.p50),
    p99: avg((r) => r.latency.p99),
    non2xx: runs.reduce((s, r) => s + r.result.non2xx, 0),
    cpu: meanShare(shares),
  };
}
