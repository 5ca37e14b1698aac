import { Type, type Static } from '@sinclair/typebox';
import { ASSETS, BASES, MARKETS, RATE_SOURCES } from '../constants';
import { CalendarDate, EmailAddress, PageNumber, StringEnum } from './common';
import { OfficialFigure } from './official';

export const MarketSchema = StringEnum(MARKETS, { description: 'Market' });
export const AssetSchema = StringEnum(ASSETS, { description: 'Foreign asset' });
export const BaseSchema = StringEnum(BASES, { description: 'Base (African) currency' });

export const Rate = Type.Object({
  _id: Type.String({ examples: ['5f0c1b7e-8f7a-4a52-8a4c-1f2d3e4b5a69'] }),
  market: MarketSchema,
  asset: AssetSchema,
  base: BaseSchema,
  buy: Type.Number({ examples: [1500.5] }),
  sell: Type.Number({ examples: [1510.25] }),
  createdAt: Type.String({ format: 'date-time', examples: ['2026-11-24T09:00:00.000Z'] }),
  updatedAt: Type.String({ format: 'date-time', examples: ['2026-11-24T09:00:00.000Z'] }),
  source: StringEnum(RATE_SOURCES, {
    description:
      'Where the figure came from: desk, csv or api (an admin publication), official:<bank> (a central bank), seed (demo data)',
    examples: ['desk'],
  }),
  publishedAt: Type.String({
    format: 'date-time',
    description: 'When the figure was published; updatedAt moves on when it is corrected',
    examples: ['2026-11-24T09:00:00.000Z'],
  }),
  publicationId: Type.Union([Type.String(), Type.Null()], {
    description: 'The publication the figure went out in (null for demo data)',
  }),
  revision: Type.Integer({ minimum: 0, description: '0 as published, then 1, 2 … for each correction' }),
});
export type Rate = Static<typeof Rate>;

const PRECISION =
  'A JSON number, exact to the 6 decimal places rates are stored with (computed in millionths, no float noise).';
const PERCENT = 'A JSON number in percent, rounded to 4 decimal places.';

/** A rate that explains itself: mid, spread, change against the previous close, and its age. */
export const Quote = Type.Object({
  ...Rate.properties,
  mid: Type.Number({ description: `(buy + sell) / 2, rounded half up. ${PRECISION}`, examples: [1505.375] }),
  spread: Type.Number({ description: `sell − buy. ${PRECISION}`, examples: [9.75] }),
  spreadPct: Type.Number({ description: `spread / mid × 100. ${PERCENT}`, examples: [0.6477] }),
  change: Type.Union([Type.Number(), Type.Null()], {
    description: `mid − the mid of the previous close: the last entry for the same market, base and asset made before the UTC day of this one (the previous UTC day's last entry, or an earlier day's when that day had none). null when there is none. ${PRECISION}`,
    examples: [5.375],
  }),
  changePct: Type.Union([Type.Number(), Type.Null()], {
    description: `change / the previous close's mid × 100. ${PERCENT} null when there is no previous close.`,
    examples: [0.3583],
  }),
  ageSeconds: Type.Integer({
    minimum: 0,
    description: 'Seconds since updatedAt, at the time of the answer.',
  }),
  stale: Type.Boolean({
    description: 'true when updatedAt is older than the server’s STALE_AFTER_HOURS (default 24 hours).',
  }),
  official: Type.Optional(OfficialFigure),
});
export type Quote = Static<typeof Quote>;

/** Rates are stored with 6 decimals: a smaller price would be stored as 0 and divide by zero in every quote. */
export const RATE_SCALE = 6;
const price = Type.Number({ minimum: 10 ** -RATE_SCALE, maximum: 1e9 });

export const RateInput = Type.Object(
  {
    market: MarketSchema,
    asset: AssetSchema,
    base: BaseSchema,
    buy: price,
    sell: price,
    buy_above_sell: Type.Optional(
      Type.Boolean({
        description:
          'A buy above the sell is refused as a likely typo unless this is true (an inverted quote).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RateInput = Static<typeof RateInput>;

export const MarketParams = Type.Object({ market: MarketSchema });
export type MarketParams = Static<typeof MarketParams>;

export const ExportRatesInput = Type.Object({ email: EmailAddress }, { additionalProperties: false });
export type ExportRatesInput = Static<typeof ExportRatesInput>;

/**
 * The admin rates list, filtered. Each filter is optional; the days are UTC and both ends are included,
 * so `from` = `to` is one day.
 */
export const AdminRatesQuery = Type.Object(
  {
    page: Type.Optional(PageNumber),
    market: Type.Optional(MarketSchema),
    base: Type.Optional(BaseSchema),
    asset: Type.Optional(AssetSchema),
    from: Type.Optional({ ...CalendarDate, description: 'First day (UTC) of the rates listed' }),
    to: Type.Optional({ ...CalendarDate, description: 'Last day (UTC) of the rates listed' }),
  },
  { additionalProperties: false },
);
export type AdminRatesQuery = Static<typeof AdminRatesQuery>;
export type AdminRatesFilter = Omit<AdminRatesQuery, 'page'>;
