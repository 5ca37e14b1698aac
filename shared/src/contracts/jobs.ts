import { Type, type Static } from '@sinclair/typebox';
import { PageNumber, StringEnum } from './common';

/** The jobs an admin action starts, whose runs the Emails screen shows (SPEC §7 Admin). */
export const ADMIN_JOB_NAMES = ['rates-mail', 'rates-csv', 'rates-tweet'] as const;
export type AdminJobName = (typeof ADMIN_JOB_NAMES)[number];

export const JOB_RUN_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type JobRunState = (typeof JOB_RUN_STATES)[number];

export const JobRun = Type.Object({
  _id: Type.String(),
  name: StringEnum(ADMIN_JOB_NAMES),
  state: StringEnum(JOB_RUN_STATES),
  progress: Type.Integer({ description: 'Items handled so far, e.g. mails sent' }),
  total: Type.Union([Type.Integer(), Type.Null()], { description: 'Items in all, once the job knows' }),
  counts: Type.Record(Type.String(), Type.Integer()),
  attempts: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed' }),
  warning: Type.Union([Type.String(), Type.Null()], {
    description: 'Done, but not all it was asked, e.g. a tweet recorded but not posted',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type JobRun = Static<typeof JobRun>;

export const JobRunQuery = Type.Object(
  { name: Type.Optional(StringEnum(ADMIN_JOB_NAMES)), page: Type.Optional(PageNumber) },
  { additionalProperties: false },
);
export type JobRunQuery = Static<typeof JobRunQuery>;
