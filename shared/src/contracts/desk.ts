import { Type, type Static } from '@sinclair/typebox';
import { RATE_SOURCES } from '../constants';
import { CalendarDate, PageNumber, StringEnum } from './common';
import { AssetSchema, BaseSchema, MarketSchema, Rate, RateInput } from './rates';

export const RateSourceSchema = StringEnum(RATE_SOURCES, {
  description:
    'Where the figure came from: the desk, a CSV upload, the admin API, a central bank, or demo data',
});

/** Sources an admin publishes through: the official ones are the importer's. */
export const PUBLISH_SOURCES = ['desk', 'csv', 'api'] as const;
export type PublishSource = (typeof PUBLISH_SOURCES)[number];

/** One row of a publication: a pair's new buy and sell, and the admin's confirmation of a flagged figure. */
export const PublicationRowInput = Type.Object(
  {
    ...RateInput.properties,
    confirmed: Type.Optional(
      Type.Boolean({
        description:
          'The admin confirms a figure that moved beyond the desk move share from the last one, or lies beyond the official-distance share from the official reference',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PublicationRowInput = Static<typeof PublicationRowInput>;

export const PublicationInput = Type.Object(
  {
    rows: Type.Array(PublicationRowInput, { minItems: 1, maxItems: 200 }),
    source: Type.Optional(
      StringEnum(PUBLISH_SOURCES, { description: 'How the rows were entered (default api)' }),
    ),
    dryRun: Type.Optional(
      Type.Boolean({ description: 'Check the rows and answer what would be published, storing nothing' }),
    ),
  },
  { additionalProperties: false },
);
export type PublicationInput = Static<typeof PublicationInput>;

/** What is wrong with one row, or what needs its confirmation. */
export const PublicationRowIssue = Type.Object({
  row: Type.Integer({ minimum: 0, description: 'The row’s index in the request, from 0' }),
  field: Type.Union([Type.Literal('buy'), Type.Literal('sell'), Type.Literal('row')]),
  code: StringEnum(['buy_above_sell', 'rounds_to_zero', 'move', 'official_distance', 'duplicate'] as const),
  message: Type.String({ maxLength: 300 }),
  needsConfirmation: Type.Boolean({ description: 'true when confirming the row clears it' }),
});
export type PublicationRowIssue = Static<typeof PublicationRowIssue>;

export const Publication = Type.Object({
  _id: Type.String({ format: 'uuid' }),
  source: RateSourceSchema,
  publishedAt: Type.String({ format: 'date-time' }),
  publishedBy: Type.Union([Type.String(), Type.Null()], { description: 'The publishing admin’s e-mail' }),
  rowCount: Type.Integer({ minimum: 0 }),
});
export type Publication = Static<typeof Publication>;

export const PublicationResult = Type.Object({
  dryRun: Type.Boolean(),
  publication: Type.Union([Publication, Type.Null()], { description: 'null on a dry run' }),
  rates: Type.Array(Rate, { description: 'The records stored, or on a dry run the ones that would be' }),
  issues: Type.Array(PublicationRowIssue, {
    description: 'Every row issue; a publication with any is refused',
  }),
});
export type PublicationResult = Static<typeof PublicationResult>;

/** The 400 of a refused publication: the message and every row at fault (none when the request itself is malformed). */
export const PublicationRefused = Type.Object({
  message: Type.String({ maxLength: 1000 }),
  statusCode: Type.Integer(),
  error: Type.String(),
  issues: Type.Optional(Type.Array(PublicationRowIssue)),
});

/** A correction or a withdrawal: the reason is required and kept with the revision. */
export const RateCorrectionInput = Type.Object(
  {
    ...RateInput.properties,
    reason: Type.String({ minLength: 3, maxLength: 500, description: 'Why the figure is corrected' }),
  },
  { additionalProperties: false },
);
export type RateCorrectionInput = Static<typeof RateCorrectionInput>;

export const RateWithdrawalInput = Type.Object(
  { reason: Type.String({ minLength: 3, maxLength: 500, description: 'Why the figure is withdrawn' }) },
  { additionalProperties: false },
);
export type RateWithdrawalInput = Static<typeof RateWithdrawalInput>;

export const RateRevision = Type.Object({
  _id: Type.String({ format: 'uuid' }),
  rateId: Type.String({ format: 'uuid' }),
  revision: Type.Integer({ minimum: 1, description: '1 for the first correction of the record, and so on' }),
  kind: StringEnum(['correction', 'withdrawal'] as const),
  market: MarketSchema,
  base: BaseSchema,
  asset: AssetSchema,
  old: Type.Object({ buy: Type.Number(), sell: Type.Number() }),
  new: Type.Object({ buy: Type.Number(), sell: Type.Number() }),
  reason: Type.String(),
  publishedAt: Type.String({
    format: 'date-time',
    description: 'When the corrected record was first published',
  }),
  revisedAt: Type.String({ format: 'date-time' }),
});
export type RateRevision = Static<typeof RateRevision>;

export const RateRevisionsQuery = Type.Object(
  {
    page: Type.Optional(PageNumber),
    market: Type.Optional(MarketSchema),
    base: Type.Optional(BaseSchema),
    asset: Type.Optional(AssetSchema),
  },
  { additionalProperties: false },
);
export type RateRevisionsQuery = Static<typeof RateRevisionsQuery>;

/** The admin list's rate: the record with who published it. */
export const AdminRate = Type.Object({
  ...Rate.properties,
  publishedBy: Type.Union([Type.String(), Type.Null()], { description: 'The publishing admin’s e-mail' }),
});
export type AdminRate = Static<typeof AdminRate>;

export const ADMIN_ACTIVITY_KINDS = [
  'rates',
  'publications',
  'plans',
  'users',
  'mailings',
  'exports',
  'tweets',
  'settings',
  'other',
] as const;
export type AdminActivityKind = (typeof ADMIN_ACTIVITY_KINDS)[number];

export const AdminActivity = Type.Object({
  _id: Type.Integer(),
  admin: Type.String({ description: 'The acting admin’s e-mail' }),
  kind: StringEnum(ADMIN_ACTIVITY_KINDS),
  action: Type.String({ description: 'What was done, as METHOD path or a named action' }),
  target: Type.Union([Type.String(), Type.Null()]),
  before: Type.Unknown({ description: 'The state before an edit, when known' }),
  after: Type.Unknown({ description: 'What was sent or the state after' }),
  reason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type AdminActivity = Static<typeof AdminActivity>;

export const AdminActivityQuery = Type.Object(
  {
    page: Type.Optional(PageNumber),
    admin: Type.Optional(Type.String({ maxLength: 254, description: 'The acting admin’s e-mail' })),
    kind: Type.Optional(StringEnum(ADMIN_ACTIVITY_KINDS)),
    from: Type.Optional({ ...CalendarDate, description: 'First day (UTC)' }),
    to: Type.Optional({ ...CalendarDate, description: 'Last day (UTC)' }),
  },
  { additionalProperties: false },
);
export type AdminActivityQuery = Static<typeof AdminActivityQuery>;

/** A CSV upload: the file's text in the RATE_BLOCK_COLUMNS order, rows to confirm by their 1-based line. */
export const PublicationCsvInput = Type.Object(
  {
    csv: Type.String({
      minLength: 1,
      maxLength: 100_000,
      description: 'market,base,asset,buy,sell per line',
    }),
    confirmLines: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 200 })),
    dryRun: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type PublicationCsvInput = Static<typeof PublicationCsvInput>;

export const PublicationCsvResult = Type.Object({
  ...PublicationResult.properties,
  lines: Type.Array(Type.Integer(), {
    description: 'The CSV line of each row, in the order of rates and issues',
  }),
  unparsed: Type.Array(Type.Object({ line: Type.Integer(), text: Type.String(), message: Type.String() }), {
    description: 'Lines that could not be read; a publication with any is refused',
  }),
});
export type PublicationCsvResult = Static<typeof PublicationCsvResult>;

/** The desk's board: each pair's last published figure and the official reference, with the desk's settings. */
export const DeskBoard = Type.Object({
  rows: Type.Array(
    Type.Object({
      market: MarketSchema,
      base: BaseSchema,
      asset: AssetSchema,
      last: Type.Union([
        Type.Object({
          buy: Type.Number(),
          sell: Type.Number(),
          publishedAt: Type.String({ format: 'date-time' }),
        }),
        Type.Null(),
      ]),
    }),
  ),
  official: Type.Array(
    Type.Object({
      source: Type.String(),
      date: Type.String(),
      base: BaseSchema,
      asset: AssetSchema,
      mid: Type.Number(),
      buy: Type.Union([Type.Number(), Type.Null()]),
      sell: Type.Union([Type.Number(), Type.Null()]),
    }),
  ),
  settings: Type.Object({
    deskMovePercent: Type.Number(),
    deskOfficialDistancePercent: Type.Number(),
    officialSpreadPercent: Type.Number(),
  }),
});
export type DeskBoard = Static<typeof DeskBoard>;
