import type { Api } from 'grammy';
import type { Config } from '../config';
import type { Mailer } from '../mail/mailer';
import type { Services } from '../services';

/** A job's context; `S` names the services the job calls, and it is handed no others. */
export interface JobContext<S extends keyof Services = keyof Services> {
  config: Config;
  services: Pick<Services, S>;
  mailer: Mailer;
  /** The Bot API client, when the Telegram bot is on. */
  telegram?: Api;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** The clock of jobs that act on the time of day (tests set it); Date.now otherwise. */
  now?: () => number;
  /** How far this run is (e.g. mails sent of all), shown on the admin's Emails screen; absent for unwatched jobs. */
  progress?(done: number, total: number): Promise<void>;
  /** Done, but not all that was asked: the run is shown as a warning with this sentence, never as a plain success. */
  warn?(message: string): void;
}

/** What a job tells the admin when it is done, e.g. `{ sent: 1000 }`. */
export type JobCounts = Record<string, number>;
