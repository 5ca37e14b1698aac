import type { Config } from '../config';
import type { Mailer } from '../mail/mailer';
import type { Services } from '../services';

export interface JobContext {
  config: Config;
  services: Services;
  mailer: Mailer;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}
