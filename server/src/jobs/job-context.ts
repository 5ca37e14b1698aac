import type { Config } from '../config';
import type { Mailer } from '../mail/mailer';
import type { Services } from '../services';

export interface JobContext {
  config: Config;
  services: Services;
  mailer: Mailer;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** The clock of jobs that act on the time of day (tests set it); Date.now otherwise. */
  now?: () => number;
  /** How far this run is (e.g. mails sent of all), shown on the admin's Emails screen; absent for unwatched jobs. */
  progress?(done: number, total: number): Promise<void>;
}

/** What a job tells the admin when it is done, e.g. `{ sent: 1000 }`. */
export type JobCounts = Record<string, number>;
