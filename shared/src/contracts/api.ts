// The paid API (DESIGN §5): what developers buy.
import { Type, type Static } from '@sinclair/typebox';
import { ASSETS, BASES } from '../constants';
import { CalendarDate, StringEnum } from './common';
import { OfficialRate } from './official';
import { AssetSchema, BaseSchema, MarketSchema, Quote } from './rates';

export const RatesQuery = Type.Object(
  {
    market: Type.Optional(MarketSchema),
    base: Type.Optional(BaseSchema),
    asset: Type.Optional(AssetSchema),
    symbols: Type.Optional(
      Type.String({
        maxLength: 100,
        pattern: '^[A-Za-z_]+(,[A-Za-z_]+)*$',
        description: 'Several assets at once, comma-separated ISO codes or ids (instead of asset)',
        examples: ['USD,GBP'],
      }),
    ),
    date: Type.Optional(
      Type.String({
        format: 'date',
        description: 'The table as it stood at the end of this UTC day (YYYY-MM-DD), instead of now',
        examples: ['2026-11-01'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type RatesQuery = Static<typeof RatesQuery>;

/** Most days one history or day-candle answer spans. */
export const MAX_HISTORY_DAYS = 366;

const pair = {
  market: MarketSchema,
  base: BaseSchema,
  asset: AssetSchema,
  from: Type.Optional(CalendarDate),
  to: Type.Optional(CalendarDate),
};

export const EXPORT_FORMATS = ['json', 'csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
const format = Type.Optional(
  StringEnum(EXPORT_FORMATS, {
    description:
      'json (default, the envelope), csv (a header row, then one row per point) or ndjson (one JSON object per line); csv and ndjson are streamed. Without it, an Accept header of text/csv or application/x-ndjson picks the format.',
  }),
);

/** The site's key-less history query: JSON only. */
export const PublicRateHistoryQuery = Type.Object(pair, { additionalProperties: false });
export type PublicRateHistoryQuery = Static<typeof PublicRateHistoryQuery>;

export const RateHistoryQuery = Type.Object({ ...pair, format }, { additionalProperties: false });
export type RateHistoryQuery = Static<typeof RateHistoryQuery>;

export const RateHistoryPoint = Type.Object({ day: CalendarDate, buy: Type.Number(), sell: Type.Number() });
export type RateHistoryPoint = Static<typeof RateHistoryPoint>;

export const RateHistory = Type.Object({
  market: MarketSchema,
  base: BaseSchema,
  asset: AssetSchema,
  from: CalendarDate,
  to: CalendarDate,
  points: Type.Array(RateHistoryPoint),
});
export type RateHistory = Static<typeof RateHistory>;

export const CANDLE_INTERVALS = ['day', 'week', 'month'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];
/** Most days a candle answer spans, per interval. */
export const MAX_CANDLE_DAYS: Record<CandleInterval, number> = {
  day: MAX_HISTORY_DAYS,
  week: 3 * MAX_HISTORY_DAYS,
  month: 10 * MAX_HISTORY_DAYS,
};

const interval = StringEnum(CANDLE_INTERVALS, {
  description: 'UTC day, ISO week (Monday to Sunday) or calendar month',
  examples: ['week'],
});

export const PublicRateOhlcQuery = Type.Object({ ...pair, interval }, { additionalProperties: false });
export type PublicRateOhlcQuery = Static<typeof PublicRateOhlcQuery>;

export const RateOhlcQuery = Type.Object({ ...pair, interval, format }, { additionalProperties: false });
export type RateOhlcQuery = Static<typeof RateOhlcQuery>;

const price = (description: string) => Type.Number({ description });
export const RateCandle = Type.Object({
  start: { ...CalendarDate, description: 'First day of the bucket (UTC)' },
  buyOpen: price('Buy of the first entry in the bucket'),
  buyHigh: price('Highest buy'),
  buyLow: price('Lowest buy'),
  buyClose: price('Buy of the last entry in the bucket'),
  sellOpen: price('Sell of the first entry in the bucket'),
  sellHigh: price('Highest sell'),
  sellLow: price('Lowest sell'),
  sellClose: price('Sell of the last entry in the bucket'),
  entries: Type.Integer({ description: 'Rate entries in the bucket' }),
});
export type RateCandle = Static<typeof RateCandle>;

export const RateOhlc = Type.Object({
  market: MarketSchema,
  base: BaseSchema,
  asset: AssetSchema,
  interval,
  from: { ...CalendarDate, description: 'Start of the first bucket: from, moved back to its bucket start' },
  to: { ...CalendarDate, description: 'End of the last bucket: to, moved on to its bucket end' },
  candles: Type.Array(RateCandle),
});
export type RateOhlc = Static<typeof RateOhlc>;

export const CURRENCY_IDS = [...ASSETS, ...BASES] as const;
export const ConvertQuery = Type.Object(
  {
    amount: Type.Number({ exclusiveMinimum: 0, maximum: 1e12, examples: [250] }),
    from: StringEnum(CURRENCY_IDS, { description: 'An asset or a base currency' }),
    to: StringEnum(CURRENCY_IDS, {
      description: 'A base currency when from is an asset, and the other way round',
    }),
    market: Type.Optional(MarketSchema),
    side: Type.Optional(
      StringEnum(['buy', 'sell'] as const, {
        description:
          "Which price to use. By default the customer's direction decides: an asset into a base currency gets the dealer's buy price, a base currency into an asset pays the sell price",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ConvertQuery = Static<typeof ConvertQuery>;

export const Conversion = Type.Object({
  amount: Type.Number(),
  from: Type.String(),
  to: Type.String(),
  market: MarketSchema,
  side: StringEnum(['buy', 'sell'] as const, { description: 'The side whose price was used' }),
  rate: Type.Number({
    description: 'The price used: units of the base currency per unit of the asset, on that side',
  }),
  result: Type.Number({ description: 'The converted amount, rounded to 4 decimal places' }),
  rateUpdatedAt: Type.String({ format: 'date-time' }),
});
export type Conversion = Static<typeof Conversion>;

const IsoCode = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code', examples: ['NGN'] });
export const Currencies = Type.Object({
  markets: Type.Array(Type.Object({ id: MarketSchema, label: Type.String() })),
  bases: Type.Array(
    Type.Object({
      id: BaseSchema,
      code: IsoCode,
      name: Type.String({ description: 'The ISO 4217 name', examples: ['Nigerian Naira'] }),
      symbol: Type.String({ examples: ['₦'] }),
    }),
  ),
  assets: Type.Array(
    Type.Object({
      id: AssetSchema,
      code: IsoCode,
      name: Type.String({ description: 'The ISO 4217 name', examples: ['Euro'] }),
      symbol: Type.String({ description: 'Unambiguous among the assets (CA$ beside $)', examples: ['CA$'] }),
      flag: Type.String(),
      country: Type.String(),
    }),
  ),
});

export const Usage = Type.Object(
  {
    plan: Type.Union([Type.String(), Type.Null()], {
      description: 'The plan bought; null for a premium account',
    }),
    limit: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'Requests allowed this period; null when unlimited (premium account)',
    }),
    used: Type.Integer({ minimum: 0, description: 'Requests counted this period, as last counted' }),
    remaining: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    periodStart: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    resetsAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the count starts again from 0',
    }),
  },
  {
    examples: [
      {
        plan: 'Starter',
        limit: 10000,
        used: 1234,
        remaining: 8766,
        periodStart: '2026-11-01T00:00:00.000Z',
        resetsAt: '2026-12-01T00:00:00.000Z',
      },
    ],
  },
);
export type Usage = Static<typeof Usage>;
export type Currencies = Static<typeof Currencies>;

export const PaidRates = Type.Array(Quote);

export const PremiumQuery = Type.Object(
  { base: BaseSchema, asset: AssetSchema },
  { additionalProperties: false },
);
export type PremiumQuery = Static<typeof PremiumQuery>;

const Percent = (description: string) => Type.Number({ description: `${description}, in percent` });
const PremiumFigures = Type.Object({
  buy: Percent('(market buy / bank buy − 1) × 100'),
  sell: Percent('(market sell / bank sell − 1) × 100'),
  mid: Percent('(market mid / bank mid − 1) × 100'),
});
const PremiumWindow = Type.Object({
  from: CalendarDate,
  to: CalendarDate,
  days: Type.Integer({ minimum: 0, description: 'UTC days in from..to on which both markets have an entry' }),
  average: Type.Union([PremiumFigures, Type.Null()], { description: 'Mean of the daily premiums' }),
  minimum: Type.Union([PremiumFigures, Type.Null()], { description: 'Lowest daily premium, per figure' }),
  maximum: Type.Union([PremiumFigures, Type.Null()], { description: 'Highest daily premium, per figure' }),
});

export const Premium = Type.Object(
  {
    base: BaseSchema,
    asset: AssetSchema,
    official: Type.Optional(
      Type.Object(
        {
          source: OfficialRate.properties.source,
          date: OfficialRate.properties.date,
          attribution: OfficialRate.properties.attribution,
        },
        {
          description:
            "Present when the pair has an official series: the premium is then computed against the central bank's figures (its newest for now, each day's for the windows, and bankUpdatedAt is that figure's day) instead of the bank market's",
        },
      ),
    ),
    markets: Type.Array(
      Type.Object({
        market: MarketSchema,
        now: Type.Union(
          [
            Type.Object({
              ...PremiumFigures.properties,
              updatedAt: Type.String({ format: 'date-time', description: "The market's latest entry" }),
              bankUpdatedAt: Type.String({
                format: 'date-time',
                description: "The bank market's latest entry",
              }),
            }),
            Type.Null(),
          ],
          { description: 'Latest entry against latest entry; null while either market has none' },
        ),
        last7Days: PremiumWindow,
        last30Days: PremiumWindow,
      }),
    ),
  },
  {
    examples: [
      {
        base: 'naira',
        asset: 'dollar',
        markets: [
          {
            market: 'black_market_cash',
            now: {
              buy: 3.0612,
              sell: 3.1019,
              mid: 3.0816,
              updatedAt: '2026-11-23T08:05:00.000Z',
              bankUpdatedAt: '2026-11-23T07:55:00.000Z',
            },
            last7Days: {
              from: '2026-11-17',
              to: '2026-11-23',
              days: 7,
              average: { buy: 2.8431, sell: 2.9012, mid: 2.8722 },
              minimum: { buy: 2.1, sell: 2.2, mid: 2.15 },
              maximum: { buy: 3.0612, sell: 3.1019, mid: 3.0816 },
            },
            last30Days: {
              from: '2026-10-25',
              to: '2026-11-23',
              days: 29,
              average: { buy: 2.5, sell: 2.55, mid: 2.525 },
              minimum: { buy: 1.2, sell: 1.3, mid: 1.25 },
              maximum: { buy: 3.4, sell: 3.5, mid: 3.45 },
            },
          },
        ],
      },
    ],
  },
);
export type Premium = Static<typeof Premium>;
