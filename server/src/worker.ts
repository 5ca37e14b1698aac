// The BullMQ worker process (docker-compose `worker`): runs the jobs the API enqueues on Redis.
import { loadConfigOrExit } from './config';
import { schedules, startSchedules } from './jobs/scheduler';
import { createRuntime } from './runtime';

async function main() {
  const config = loadConfigOrExit();
  if (!config.redisUrl) {
    console.error('Configuration error: the worker needs REDIS_URL (without Redis the API runs jobs itself)');
    process.exit(1);
  }
  const runtime = await createRuntime(config);
  const worker = runtime.startWorker()!;
  void startSchedules(runtime.queue, runtime.log, schedules(config));
  runtime.log.info('worker started');

  const stop = async () => {
    await worker.close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
