// The official series (central banks' reference rates) as the paid API serves it, and the rate status the admin
// home and the desk show: each market's publication against its deadline, each official source's last import.
import { Type, type Static } from '@sinclair/typebox';
import { ASSETS, BASES, MARKETS, OFFICIAL_SOURCES } from '../constants';
import { StringEnum } from './common';

const Nullable = <T extends ReturnType<typeof Type.Number>>(schema: T) => Type.Union([schema, Type.Null()]);
const DateTimeOrNull = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const OfficialRate = Type.Object({
  source: StringEnum(OFFICIAL_SOURCES, { description: 'The central bank that published the figure' }),
  date: Type.String({ format: 'date', description: 'The business day the figure is for' }),
  base: StringEnum(BASES),
  asset: StringEnum(ASSETS),
  mid: Type.Number({ description: 'Units of the base per one unit of the asset (mid or weighted average)' }),
  buy: Nullable(Type.Number({ description: 'Null when the source publishes only a mid' })),
  sell: Nullable(Type.Number({ description: 'Null when the source publishes only a mid' })),
  attribution: Type.String({
    description: "The line the source's terms ask to be shown with its figures",
    examples: ['Source: Central Bank of Nigeria'],
  }),
});
export type OfficialRate = Static<typeof OfficialRate>;

/** A pair's newest official figure, as a quote carries it beside the market's figures. */
export const OfficialFigure = Type.Object(
  {
    source: OfficialRate.properties.source,
    date: OfficialRate.properties.date,
    mid: OfficialRate.properties.mid,
    buy: OfficialRate.properties.buy,
    sell: OfficialRate.properties.sell,
    attribution: OfficialRate.properties.attribution,
  },
  {
    description:
      "The central bank's newest reference figure for this base and asset (see GET /v1/rates/official)",
  },
);
export type OfficialFigure = Static<typeof OfficialFigure>;

export const OfficialRatesQuery = Type.Object(
  {
    base: Type.Optional(StringEnum(BASES)),
    asset: Type.Optional(StringEnum(ASSETS)),
    from: Type.Optional(Type.String({ format: 'date', description: 'First day (with `to`: a history)' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Last day' })),
  },
  { additionalProperties: false },
);
export type OfficialRatesQuery = Static<typeof OfficialRatesQuery>;

export const MarketPublicationStatus = Type.Object({
  market: StringEnum(MARKETS),
  lastPublishedAt: DateTimeOrNull,
  deadline: Type.String({ description: 'HH:MM in the publication time zone', examples: ['10:00'] }),
  deadlineAt: Type.String({ format: 'date-time', description: "Today's deadline (or the next one)" }),
  overdue: Type.Boolean({ description: 'Past today’s deadline with nothing of this market published today' }),
});

export const OfficialSourceStatus = Type.Object({
  source: StringEnum(OFFICIAL_SOURCES),
  state: StringEnum(['up', 'down', 'unknown'] as const, {
    description: 'down: the last attempt failed; unknown: no import has run yet',
  }),
  lastAttemptAt: DateTimeOrNull,
  lastSuccessAt: DateTimeOrNull,
  lastImported: Type.Union([Type.Integer(), Type.Null()]),
  lastFailureAt: DateTimeOrNull,
  lastError: Type.Union([Type.String(), Type.Null()]),
  latestRateDate: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  attribution: Type.String(),
});
export type OfficialSourceStatus = Static<typeof OfficialSourceStatus>;

export const RateStatus = Type.Object({
  timeZone: Type.String(),
  markets: Type.Array(MarketPublicationStatus),
  officialSources: Type.Array(OfficialSourceStatus),
});
export type RateStatus = Static<typeof RateStatus>;
