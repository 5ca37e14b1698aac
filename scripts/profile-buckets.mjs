// Where a paid answer's CPU goes, from a main-thread CPU profile of the paid server taken under `npm run bench`
// (BENCH_PAID_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=DIR"). The server process lives through the bare routes' rounds
// too, idle, and through its start: only the busiest window of the load's length counts (the paid round). Each
// sample's own time goes to a bucket by its package or, in the bundled server, by the source module esbuild's
// markers name; with the CPU per answer the bench measured, the buckets are given in µs per answer.
//
//   node scripts/profile-buckets.mjs PROFILE.cpuprofile [--bundle server/dist/main.cjs] [--window 8]
//     [--cpu-per-answer 120]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    bundle: { type: 'string', default: 'server/dist/main.cjs' },
    window: { type: 'string', default: '8' },
    'cpu-per-answer': { type: 'string' },
  },
});
if (positionals.length !== 1) {
  console.error(
    'usage: node scripts/profile-buckets.mjs PROFILE.cpuprofile [--window s] [--cpu-per-answer µs]',
  );
  process.exit(2);
}

/** The bundle's source module of each line, from esbuild's `// src/…` markers. */
function moduleLines(bundle) {
  const modules = [];
  let current = '';
  for (const line of readFileSync(bundle, 'utf8').split('\n')) {
    const marker = /^\/\/ ((?:src|\.\.\/shared)\/\S+)$/.exec(line);
    if (marker) current = marker[1];
    modules.push(current);
  }
  return modules;
}

/** Buckets of the server's own modules, first match wins. */
const OWN = [
  [/paid-api\/api-clients|api-key/, 'key look-up'],
  [/quota-store|subscriptions\.repository/, 'quota take'],
  [/request-log|requests\//, 'request-log row'],
  [/metering|metered-call|entitlements|foreign-params/, 'metering hooks and headers'],
  [/paid-api\.routes|paid-api\.service|rates-snapshot|rate-quote|compat/, 'the handler'],
  [/access-log|logger/, 'logging'],
];
/** Buckets of packages and of Node's own files. */
const PACKAGES = [
  [
    /node_modules\/(ioredis|redis-errors|redis-parser|cluster-key-slot|denque|standard-as-callback)\//,
    'quota take',
  ],
  [/node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+|@electric-sql)\//, 'request-log row'],
  [/node_modules\/@fastify\/cors\//, 'metering hooks and headers'],
  [/node_modules\/(pino|sonic-boom|thread-stream|pino-std-serializers)\//, 'logging'],
  [
    /node_modules\/(fastify|find-my-way|avvio|@fastify\/[a-z-]+|fast-json-stringify|light-my-request|helmet|toad-cache|fast-querystring|ajv)/,
    'Fastify routing, hooks, lifecycle',
  ],
];
const STARTUP =
  /^(wrapSafe|compileSourceTextModule|internalModuleStat|readFileUtf8|compileForInternalLoader|compileFunction)$/;

function bucketOf(frame, modules) {
  const { functionName, url, lineNumber } = frame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'Node HTTP, sockets, VM';
  if (STARTUP.test(functionName)) return 'start (not per answer)';
  if (
    /^(runMicrotasks|processTicksAndRejections|processPromiseRejections)$/.test(functionName) ||
    /task_queues/.test(url)
  )
    return 'promise and nextTick machinery';
  // PGlite's engine (WebAssembly): embedded, the paid path runs it for the request log's writes.
  if (functionName.startsWith('wasm-function') || url.startsWith('wasm://')) return 'request-log row';
  if (url.endsWith('.cjs') && url.includes('/dist/') && !url.includes('/node_modules/')) {
    const module = modules[lineNumber] ?? '';
    for (const [pattern, bucket] of OWN) if (pattern.test(module)) return bucket;
    return `other of ours (${module || 'unmapped'})`;
  }
  for (const [pattern, bucket] of PACKAGES) if (pattern.test(url)) return bucket;
  if (functionName === 'hash' || /crypto/.test(url)) return 'key look-up';
  return 'Node HTTP, sockets, VM';
}

const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));
const modules = moduleLines(path.resolve(values.bundle));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

// The time of each sample, and the busiest window of the load's length.
const times = [];
let t = profile.startTime;
for (const delta of profile.timeDeltas) times.push((t += delta));
const busy = profile.samples.map((id) => nodes.get(id).callFrame.functionName !== '(idle)');
const windowUs = Number(values.window) * 1e6;
let best = { from: 0, to: 0, count: 0 };
for (let from = 0, to = 0, count = 0; to < times.length; to++) {
  if (busy[to]) count++;
  while (times[to] - times[from] > windowUs) if (busy[from++]) count--;
  if (count > best.count) best = { from, to, count };
}

const buckets = new Map();
let counted = 0;
for (let i = best.from; i <= best.to; i++) {
  if (!busy[i]) continue;
  const bucket = bucketOf(nodes.get(profile.samples[i]).callFrame, modules);
  buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);
  if (bucket !== 'start (not per answer)') counted++;
}
const perAnswer = values['cpu-per-answer'] ? Number(values['cpu-per-answer']) : undefined;
const idleShare = 1 - best.count / (best.to - best.from + 1);
console.log(
  `busiest ${values.window} s window: ${best.count} busy samples, ${(idleShare * 100).toFixed(0)} % idle in it`,
);
console.log(`| bucket | share of busy samples |${perAnswer ? ' µs per answer |' : ''}`);
console.log(`| --- | --- |${perAnswer ? ' --- |' : ''}`);
for (const [bucket, count] of [...buckets].sort((a, b) => b[1] - a[1])) {
  const share = count / counted;
  const us =
    perAnswer && bucket !== 'start (not per answer)'
      ? ` ${(share * perAnswer).toFixed(1)} |`
      : perAnswer
        ? ' – |'
        : '';
  console.log(`| ${bucket} | ${(share * 100).toFixed(1)} % |${us}`);
}
