// The official series as the paid API serves it: each pair's newest figure, or a pair's figures over some days, each
// with the attribution its source's terms ask for.
import {
  OFFICIAL_SOURCE_ATTRIBUTION,
  type Asset,
  type Base,
  type OfficialRate,
  type OfficialRatesQuery,
} from '@afrofx/shared';
import type { Database } from '../../db/client';
import { badRequest } from '../../errors';
import { latestOfficialRates, officialRatesInRange, officialRatesOfPair } from './official-rates.repo';

/** The longest history one call answers, as the paid history's. */
const MAX_OFFICIAL_DAYS = 366;
const DAY_MS = 86_400_000;

export function createOfficialRatesService(db: Database) {
  return {
    latest: () => latestOfficialRates(db),

    /** A pair's official figures from a day to today, for the premium's daily windows. */
    ofPair: (pair: { base: Base; asset: Asset }, from: string, to: string) =>
      officialRatesOfPair(db, pair, { from, to }),

    async list(query: OfficialRatesQuery): Promise<OfficialRate[]> {
      const { base, asset, from, to } = query;
      if ((from === undefined) !== (to === undefined)) throw badRequest('from and to go together.');
      let rows;
      if (from !== undefined && to !== undefined) {
        if (from > to) throw badRequest('from must not be after to.');
        if ((Date.parse(to) - Date.parse(from)) / DAY_MS >= MAX_OFFICIAL_DAYS) {
          throw badRequest(`from and to may span ${MAX_OFFICIAL_DAYS} days at most.`);
        }
        rows = await officialRatesInRange(db, { from, to });
      } else {
        rows = await latestOfficialRates(db);
      }
      return rows
        .filter((r) => (!base || r.base === base) && (!asset || r.asset === asset))
        .map((r) => ({ ...r, attribution: OFFICIAL_SOURCE_ATTRIBUTION[r.source] }));
    },
  };
}

export type OfficialRatesService = ReturnType<typeof createOfficialRatesService>;
