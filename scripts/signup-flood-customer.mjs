// The paying customer of `npm run bench:signup-flood`, in a process of its own: the flood's 200 requests keep the
// bench's event loop busy for a good part of a second as they start, and a customer timed from that loop measured
// the bench as much as the server.
// node scripts/signup-flood-customer.mjs <base URL> <private key>: warms up, then prints one JSON line with the
// latencies of the quiet calls; keeps calling until a line arrives on stdin, then prints the latencies since.
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

const [baseUrl, key] = process.argv.slice(2);
/** A paying customer's pace: one call every 50 ms at most, well inside the plan's burst rate. */
const PACE_MS = 50;
const WARM_UP_CALLS = 50;
const QUIET_CALLS = 200;

/**
 * Calls one after the other until `until` says stop; the latency of each call in ms, when each started (ms since the
 * epoch, so the bench can place the slow ones in its flood) and the statuses not 200.
 */
async function calls(until) {
  const latencies = [];
  const startedAt = [];
  const failures = [];
  while (!until()) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/v1/rates`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    const took = performance.now() - started;
    latencies.push(took);
    startedAt.push(performance.timeOrigin + started);
    if (res.status !== 200) failures.push(res.status);
    if (took < PACE_MS) await sleep(PACE_MS - took);
  }
  return { latencies, startedAt, failures };
}

let stopped = false;
createInterface({ input: process.stdin }).once('line', () => {
  stopped = true;
});

let warm = 0;
await calls(() => warm++ >= WARM_UP_CALLS);
let quietCount = 0;
console.log(JSON.stringify(await calls(() => quietCount++ >= QUIET_CALLS)));
console.log(JSON.stringify(await calls(() => stopped)));
process.exit(0);
