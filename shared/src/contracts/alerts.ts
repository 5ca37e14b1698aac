import { Type, type Static } from '@sinclair/typebox';
import { BASES, MARKETS } from '../constants';
import { EmailAddress, Id, StringEnum } from './common';
import { AssetSchema, BaseSchema, MarketSchema } from './rates';

/** Alerts one e-mail address or one Telegram chat may hold. */
export const MAX_ALERTS_PER_OWNER = 10;

/**
 * A threshold alert re-arms only once the figure has gone back past its threshold by this fraction of it, so a
 * figure hovering at the line does not send a message every publication.
 */
export const ALERT_REARM_MARGIN = 0.005;

export const ALERT_CONDITIONS = ['above', 'below', 'move'] as const;
export type AlertCondition = (typeof ALERT_CONDITIONS)[number];
export const ALERT_SIDES = ['buy', 'sell'] as const;
export type AlertSide = (typeof ALERT_SIDES)[number];

export const RateAlertInput = Type.Object(
  {
    email: EmailAddress,
    market: MarketSchema,
    base: BaseSchema,
    asset: AssetSchema,
    side: StringEnum(ALERT_SIDES),
    condition: StringEnum(ALERT_CONDITIONS),
    level: Type.Number({
      exclusiveMinimum: 0,
      maximum: 1_000_000_000,
      description: 'The threshold in the base currency (above, below) or the percentage of a move (move)',
    }),
  },
  { additionalProperties: false },
);
export type RateAlertInput = Static<typeof RateAlertInput>;

export const RateAlert = Type.Object({
  _id: Type.String(),
  market: MarketSchema,
  base: BaseSchema,
  asset: AssetSchema,
  side: StringEnum(ALERT_SIDES),
  condition: StringEnum(ALERT_CONDITIONS),
  level: Type.Number(),
  confirmed: Type.Boolean(),
  paused: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type RateAlert = Static<typeof RateAlert>;

export const AlertManageParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 300 }) });
export const AlertManageItemParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 300 }),
  id: Id,
});

export const DailyMailPreferences = Type.Object(
  {
    bases: Type.Array(StringEnum(BASES), { uniqueItems: true, maxItems: BASES.length }),
    markets: Type.Array(StringEnum(MARKETS), { uniqueItems: true, maxItems: MARKETS.length }),
  },
  { additionalProperties: false },
);
export type DailyMailPreferences = Static<typeof DailyMailPreferences>;

/** What the manage link shows: the address's alerts and, when it takes the daily mail, that mail's preferences. */
export const AlertManagement = Type.Object({
  email: Type.String(),
  alerts: Type.Array(RateAlert),
  daily: Type.Union([DailyMailPreferences, Type.Null()]),
});
export type AlertManagement = Static<typeof AlertManagement>;

export const AlertPauseInput = Type.Object({ paused: Type.Boolean() }, { additionalProperties: false });
