// The PostgreSQL and Redis servers of the fault run: the harness's own, on free ports, so that it may restart,
// stop and flush them without touching any server the machine is using.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, logTail, sleep, waitUntil } from './processes';

const run = promisify(execFile);

/** Debian's newest PostgreSQL binaries (postgresql-NN package), or undefined when none are installed. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => path.join(root, version, 'bin'))
    .find((bin) => existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl')));
}

export async function onPath(command: string): Promise<boolean> {
  try {
    await run('sh', ['-c', `command -v ${command}`]);
    return true;
  } catch {
    return false;
  }
}

export interface PostgresCluster {
  readonly url: string;
  readonly logFile: string;
  /** `pg_ctl stop -m fast`, `downMs` without a server, then start: every connection is cut, the data stays. */
  restart(downMs: number): Promise<void>;
  stop(): Promise<void>;
}

/** initdb refuses to run as root, so as root the cluster is made and run by the `postgres` system user. */
export async function startPostgresCluster(bin: string, dir: string): Promise<PostgresCluster> {
  const asRoot = process.getuid?.() === 0;
  mkdirSync(dir, { recursive: true });
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const pgCommand = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args])
      : run(path.join(bin, tool), args);
  const port = await freePort();
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  await pgCommand('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=200`;
  const pgCtl = (...args: string[]) =>
    pgCommand('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', ...args]);
  try {
    await pgCtl('-o', options, 'start');
  } catch (err) {
    throw new Error(`PostgreSQL did not start\n${logTail(logFile)}`, { cause: err });
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    logFile,
    async restart(downMs) {
      await pgCtl('-m', 'fast', 'stop');
      await sleep(downMs);
      await pgCtl('-o', options, 'start');
    },
    async stop() {
      await pgCtl('-m', 'immediate', 'stop').catch(() => undefined);
    },
  };
}

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  readonly logFile: string;
  /** Started on the same port each time; nothing is saved, so a restart starts empty. */
  start(): Promise<void>;
  stop(): Promise<void>;
  command(...args: string[]): Promise<string>;
}

export async function createRedisServer(dir: string): Promise<RedisServer> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const logFile = path.join(dir, 'redis.log');
  let child: ChildProcess | undefined;
  const command = async (...args: string[]) =>
    (await run('redis-cli', ['-p', String(port), ...args], { timeout: 5000 })).stdout.trim();

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    logFile,
    command,
    async start() {
      const fd = openSync(logFile, 'a');
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
        { stdio: ['ignore', fd, fd] },
      );
      closeSync(fd);
      if (!(await waitUntil(async () => (await command('ping')) === 'PONG', 10_000, 100))) {
        throw new Error(`redis-server did not start on port ${port}\n${logTail(logFile)}`);
      }
    },
    async stop() {
      const stopping = child;
      child = undefined;
      if (!stopping || stopping.exitCode !== null || stopping.signalCode !== null) return;
      const exited = new Promise((resolve) => stopping.once('exit', resolve));
      stopping.kill('SIGTERM');
      const timer = setTimeout(() => stopping.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
