// The API and worker processes of the fault run: real `node server/dist/*.cjs` children, each writing to a log
// file of its own whose tail is printed when something about that process fails.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });
}

/** The last lines of a log file, indented and cut short (pino lines carry whole stacks), for a failure report. */
export function logTail(file: string, lines = 12, width = 300): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return `    (no log at ${file})`;
  }
  const tail = text.trimEnd().split('\n').slice(-lines);
  const cut = (line: string) => (line.length > width ? `${line.slice(0, width)}…` : line);
  return [`    --- last ${tail.length} lines of ${file}`, ...tail.map((line) => `    ${cut(line)}`)].join(
    '\n',
  );
}

export interface NodeProcess {
  readonly name: string;
  readonly logFile: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code (null when ended by a signal). */
  readonly exited: Promise<number | null>;
  readonly running: boolean;
  /** SIGTERM, then SIGKILL if it has not exited after graceMs; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
  tail(): string;
}

export function startNodeProcess(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  logFile: string,
): NodeProcess {
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [script], { env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  let running = true;
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      running = false;
      resolve(code);
    });
    child.on('error', () => {
      running = false;
      resolve(null);
    });
  });
  return {
    name,
    logFile,
    child,
    exited,
    get running() {
      return running;
    },
    async stop(graceMs = 10_000) {
      if (!running) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    tail: () => logTail(logFile),
  };
}

/** Polls until `probe` resolves true or the deadline passes; returns whether it did. */
export async function waitUntil(probe: () => Promise<boolean>, timeoutMs: number, everyMs = 200) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await probe()) return true;
    } catch {
      // not there yet
    }
    if (Date.now() >= deadline) return false;
    await sleep(everyMs);
  }
}

export async function healthy(baseUrl: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/v1/health`, { signal: AbortSignal.timeout(2000) });
  await res.body?.cancel();
  return res.status === 200;
}
