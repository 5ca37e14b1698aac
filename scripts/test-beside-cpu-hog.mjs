// `npm run test:beside-cpu-hog [-- jest arguments]`: runs `npm test` while a busy loop per core takes the machine,
// as a neighbour's build would (CPU_HOGS=1: one core kept busy, as CI runs it). The tests wait on events, not on the
// clock, so they must pass here too; a test that fails only here has a deadline in it that a busy machine misses.
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';

const hogCount = Number(process.env.CPU_HOGS ?? availableParallelism());
const hogs = Array.from({ length: hogCount }, () => new Worker('for (;;) {}', { eval: true }));
const loops = `${hogs.length} busy loop${hogs.length === 1 ? '' : 's'}`;
console.log(`test:beside-cpu-hog: ${loops} started, load ${loadavg()[0].toFixed(1)}`);

const started = Date.now();
const test = spawn('npm', ['test', '--', ...process.argv.slice(2)], { stdio: 'inherit' });
const code = await new Promise((resolve) =>
  test.once('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))),
);
await Promise.all(hogs.map((hog) => hog.terminate()));
console.log(
  `test:beside-cpu-hog: npm test exited ${code} after ${Math.round((Date.now() - started) / 1000)} s beside ${loops} (load ${loadavg()[0].toFixed(1)} at the end)`,
);
process.exit(code);
