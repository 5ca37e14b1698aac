// What the fault run's parts share: its servers and processes (the harness), its timings, and what a fault reports.
import type pg from 'pg';
import { type SmtpSink } from '../../server/test/support/smtp-sink';
import { type Fixtures } from './fixtures';
import { type NodeProcess } from './processes';
import { type PostgresCluster, type RedisServer } from './servers';

export const FLUSH_MS = 500;
export const LOAD = { concurrency: 24, ratePerSecond: 400, maxRequests: 100_000, timeoutMs: 5000 };
export const SMALL_PLAN_LIMIT = 300;
export const SUBSCRIBERS = 1000;
/** Load before each fault: long enough for the small plan to run out and its count to be flushed. */
export const BEFORE_FAULT_MS = 3000;
/** Load after every process has recovered. */
export const AFTER_RECOVERY_MS = 2000;
/** One flush of every process, with slack, before the request log is read. */
export const SETTLE_MS = 2 * FLUSH_MS + 1500;
/** How long the durable quota count may take to match what was served, once the load has stopped. */
export const COUNT_SETTLE_MS = 10_000;
export const RECOVERY_LIMIT_MS = 20_000;
/** A restart long enough for a request-log flush or two to meet no server (a flush every FLUSH_MS). */
export const POSTGRES_DOWN_MS = 2000;
export const REDIS_DOWN_MS = 10_000;
export const SMTP_DOWN_MS = 30_000;
/** A mailing interrupted by a killed worker waits for its BullMQ lock to lapse and a retry. */
export const MAILING_LIMIT_MS = 60_000;
/** How long the interrupted part of a mailing may take to reach the sink. */
export const MAILING_START_LIMIT_MS = 30_000;

export interface Harness {
  postgres: PostgresCluster;
  redis: RedisServer;
  smtp: SmtpSink;
  db: pg.Pool;
  apiUrls: string[];
  apis: NodeProcess[];
  worker: NodeProcess;
  startApi(index: number): NodeProcess;
  startWorker(): NodeProcess;
  /** Resolves false when the API process did not answer health 200 within a minute. */
  waitHealthy(index: number): Promise<boolean>;
  fixtures: Fixtures;
  adminToken: string;
}

export interface MailingOutcome {
  delivered: number;
  expected: number;
  duplicates: number;
  /** Of the duplicates, those that repeat a message already delivered (same Message-ID): resends, not new mails. */
  resent: number;
  /** From the fault's end to the mailing's completion, when it completed. */
  doneAfterMs: number | undefined;
}

export interface FaultRun {
  /** Call when the fault is over (the server is back): recovery is measured from here. */
  ended(): void;
  notes: string[];
  problems: string[];
  mailing?: MailingOutcome;
}

export interface Fault {
  id: string;
  title: string;
  /** Sends a rates mailing (to a list of its own). */
  mails?: boolean;
  inject(h: Harness, run: FaultRun): Promise<void>;
}

export interface FaultResult {
  fault: Fault;
  served: number;
  logged: number;
  lost: number;
  loggedTwice: number;
  overQuota: number;
  /** The unlimited app's quota count less what it served, moved by the fault: above 0 counted twice, below not. */
  miscounted: number;
  mailing?: MailingOutcome;
  /** Per API process: from the fault's end to its first 2xx and health 200, undefined if it never came. */
  recoveryMs: Array<number | undefined>;
  notes: string[];
  problems: string[];
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
