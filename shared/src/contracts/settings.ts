import { Type, type Static } from '@sinclair/typebox';

/** A time of day in the publication time zone, 24-hour `HH:MM`. */
const TimeOfDay = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', examples: ['10:00'] });
const Percent = (description: string) => Type.Number({ exclusiveMinimum: 0, maximum: 1000, description });

/**
 * What admins set for the rate desk, the official series and the publication deadlines. Every field has a default,
 * so a fresh install runs without anyone setting anything.
 */
export const AdminSettings = Type.Object({
  deskMovePercent: Percent(
    'A desk figure that moves more than this share (in %) from the last published one is flagged and needs the row confirmed',
  ),
  deskOfficialDistancePercent: Percent(
    'A desk figure further than this share (in %) from the official reference is flagged and needs the row confirmed',
  ),
  officialSpreadPercent: Type.Number({
    minimum: 0,
    maximum: 100,
    description: 'The spread (in % of the mid) "Use official" puts around a source that gives only a mid',
  }),
  publicationDeadlines: Type.Object(
    { bank: TimeOfDay, black_market_cash: TimeOfDay, black_market_transfer: TimeOfDay },
    { description: 'The time of day by which each market is published, in the publication time zone' },
  ),
  publicationTimeZone: Type.String({
    minLength: 1,
    description: 'The IANA time zone the deadlines are in',
    examples: ['Africa/Lagos'],
  }),
});
export type AdminSettings = Static<typeof AdminSettings>;

export const AdminSettingsPatch = Type.Partial(AdminSettings, { additionalProperties: false });
export type AdminSettingsPatch = Static<typeof AdminSettingsPatch>;

/** A misplaced digit moves a figure tenfold: these catch it with room to spare for a real day's move. */
export const DEFAULT_ADMIN_SETTINGS: AdminSettings = {
  deskMovePercent: 20,
  deskOfficialDistancePercent: 50,
  officialSpreadPercent: 1,
  publicationDeadlines: { bank: '10:00', black_market_cash: '10:00', black_market_transfer: '10:00' },
  publicationTimeZone: 'Africa/Lagos',
};
