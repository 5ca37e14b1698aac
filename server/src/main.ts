// Starts the HTTP server. Without Redis it also runs the jobs (DESIGN §1); with Redis it only enqueues them and the
// worker process consumes them, unless RUN_WORKER_IN_API runs both here.
import './gc-flags';
import path from 'node:path';
import { loadConfigOrExit } from './config';
import { buildApp } from './app';
import { createRuntime } from './runtime';
import { preparePasswordChecks, stopPasswordStrengthThread } from './passwords';
import { DEMO_DEVELOPER } from './demo/seed';
import { schedules, startSchedules } from './jobs/scheduler';

/** data/outbox as the README names it when it lies below the working folder; the full path elsewhere. */
function outboxShown(folder: string): string {
  const relative = path.relative(process.cwd(), folder);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : folder;
}

async function main() {
  const config = loadConfigOrExit();
  const runtime = await createRuntime(config);
  const app = await buildApp(runtime);
  preparePasswordChecks();
  const worker = config.runWorkerInApi ? runtime.startWorker() : undefined;
  // The clock's jobs start where jobs are consumed: here without Redis (or with RUN_WORKER_IN_API), else the worker.
  if (!config.redisUrl || config.runWorkerInApi)
    void startSchedules(runtime.queue, runtime.log, schedules(config));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await worker?.close();
    await runtime.close();
    await stopPasswordStrengthThread();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://localhost:${port}`;
  const lines = [
    '',
    `  AfroFX is running at ${url}`,
    `  API: ${url}/v1   docs: ${url}/docs`,
    `  database: ${runtime.database.driver}   jobs: ${runtime.queue.driver}`,
    runtime.config.smtpUrl
      ? '  mail: sent over SMTP_URL'
      : `  mail: written to ${outboxShown(runtime.mailer.target)}/ as .eml; links point at ${config.publicUrl} and are printed below`,
  ];
  if (config.host === '127.0.0.1')
    lines.push('  listening on this machine only (set HOST=0.0.0.0 to open it to the network)');
  if (config.adminEmail && config.adminPassword && config.env !== 'production') {
    lines.push(`  admin login:     ${url}/admin/login   ${config.adminEmail} / ${config.adminPassword}`);
  }
  if (config.demoData) {
    lines.push(
      `  developer login: ${url}/developer/signin   ${DEMO_DEVELOPER.email} / ${DEMO_DEVELOPER.password}`,
    );
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
