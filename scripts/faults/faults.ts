// The faults `npm run test:faults` injects, each into the running harness.
import { ACTIVATION_MAIL_LIMIT_MS, hangingReceiver, TEST_EVENTS } from './hanging-receiver';
import { sleep } from './processes';
import { POSTGRES_DOWN_MS, REDIS_DOWN_MS, SMTP_DOWN_MS, type Fault, seconds } from './harness';
import { interruptMailing } from './mailings';

// ---- The faults ----------------------------------------------------------------------------------------------

export const FAULTS: Fault[] = [
  {
    id: 'postgres-restart',
    title: `PostgreSQL restart (down ${POSTGRES_DOWN_MS / 1000} s)`,
    async inject(h, run) {
      await h.postgres.restart(POSTGRES_DOWN_MS);
      run.ended();
    },
  },
  {
    id: 'redis-stop',
    title: `Redis stopped ${REDIS_DOWN_MS / 1000} s`,
    async inject(h, run) {
      await h.redis.stop();
      await sleep(REDIS_DOWN_MS);
      await h.redis.start();
      run.ended();
    },
  },
  {
    id: 'redis-flush',
    title: 'Redis FLUSHALL',
    async inject(h, run) {
      const answer = await h.redis.command('FLUSHALL');
      if (answer !== 'OK') run.problems.push(`FLUSHALL answered ${answer}`);
      run.ended();
    },
  },
  {
    id: 'worker-kill',
    title: 'worker kill -9 mid-mailing',
    mails: true,
    async inject(h, run) {
      await interruptMailing(h, this.id, run, 0.5, async () => {
        h.worker.child.kill('SIGKILL');
        await h.worker.exited;
        h.worker = h.startWorker();
      });
    },
  },
  {
    id: 'smtp-outage',
    title: `SMTP down ${SMTP_DOWN_MS / 1000} s mid-mailing`,
    mails: true,
    async inject(h, run) {
      await interruptMailing(h, this.id, run, 0.3, async () => {
        await h.smtp.stop();
        await sleep(SMTP_DOWN_MS);
        await h.smtp.start();
      });
    },
  },
  {
    id: 'api-sigterm',
    title: 'SIGTERM to API 2 under load',
    async inject(h, run) {
      const victim = h.apis[1]!;
      const started = Date.now();
      const code = await victim.stop(15_000);
      run.notes.push(`API 2 exited with ${code} after ${seconds(Date.now() - started)}; started again`);
      if (code !== 0) run.problems.push(`API 2 exited with ${code} on SIGTERM\n${victim.tail()}`);
      h.apis[1] = h.startApi(1);
      run.ended();
    },
  },
  {
    id: 'hanging-receiver',
    title: `${TEST_EVENTS} test events to a webhook receiver that never answers, then a sign-up`,
    async inject(h, run) {
      const { mailMs, problem } = await hangingReceiver({ apiUrl: h.apiUrls[0]!, smtp: h.smtp, db: h.db });
      if (problem) run.problems.push(`${problem}\n${h.worker.tail()}`);
      else
        run.notes.push(
          `activation mail in the sink after ${mailMs} ms (limit ${ACTIVATION_MAIL_LIMIT_MS} ms)`,
        );
      run.ended();
    },
  },
];

/** `npm run test:faults -- worker-kill smtp-outage` runs those faults only; no argument runs them all. */
export function chosenFaults(): Fault[] {
  const ids = process.argv.slice(2);
  const unknown = ids.filter((id) => !FAULTS.some((fault) => fault.id === id));
  if (unknown.length)
    throw new Error(
      `No fault named ${unknown.join(', ')}; the faults are ${FAULTS.map((f) => f.id).join(', ')}`,
    );
  return ids.length ? FAULTS.filter((fault) => ids.includes(fault.id)) : FAULTS;
}
