// The desk: its board, publications, corrections and withdrawals. The site's reads stay in rates.service.ts.
import { ASSETS, BASES, MARKETS } from '@afrofx/shared';
import type {
  DeskBoard,
  PublicationInput,
  PublicationResult,
  RateCorrectionInput,
  RateInput,
} from '@afrofx/shared';
import { badRequest } from '../../errors';
import { latestOfficialRates } from '../official-rates/official-rates.repo';
import {
  checkRows,
  latestPublished,
  publish,
  PublicationRefusedError,
  sweepAlertsOutbox,
  type PublicationDeps,
} from './publications';
import { correctRate, withdrawRate } from './revisions';

export function createDeskService(deps: PublicationDeps) {
  return {
    /** Every market × base × asset with its last published figure, the official references and the settings. */
    async board(): Promise<DeskBoard> {
      const [latest, official, settings] = await Promise.all([
        latestPublished(deps.db),
        latestOfficialRates(deps.db),
        deps.settings.get(),
      ]);
      const lastOf = new Map(latest.map((r) => [`${r.market}/${r.base}/${r.asset}`, r]));
      return {
        rows: MARKETS.flatMap((market) =>
          BASES.flatMap((base) =>
            ASSETS.map((asset) => {
              const last = lastOf.get(`${market}/${base}/${asset}`);
              return {
                market,
                base,
                asset,
                last: last
                  ? { buy: last.buy, sell: last.sell, publishedAt: last.createdAt.toISOString() }
                  : null,
              };
            }),
          ),
        ),
        official,
        settings: {
          deskMovePercent: settings.deskMovePercent,
          deskOfficialDistancePercent: settings.deskOfficialDistancePercent,
          officialSpreadPercent: settings.officialSpreadPercent,
        },
      };
    },

    /** The desk, a CSV upload or the admin API: every row in one publication, or none. */
    publish: (input: PublicationInput, adminId: string): Promise<PublicationResult> =>
      publish(deps, input, { adminId, source: input.source ?? 'api' }),

    /** The row checks alone, as a dry run answers them. */
    check: (input: PublicationInput) => checkRows(deps, input.rows),

    /** The Add Rates modal: a publication of one figure, checked as before (buy above sell, zero). */
    async create(input: RateInput, adminId: string) {
      try {
        const { rates } = await publish(
          deps,
          { rows: [input] },
          { adminId, source: 'desk', skipMoveChecks: true },
        );
        return rates[0]!;
      } catch (err) {
        if (!(err instanceof PublicationRefusedError)) throw err;
        throw badRequest(
          err.issues[0]!.code === 'buy_above_sell'
            ? 'The buy is above the sell. Check the prices, or send buy_above_sell: true if that is intended.'
            : err.issues[0]!.message,
        );
      }
    },

    /** Queues the alerts of publications whose own attempt could not (the alerts outbox). */
    sweepAlertsOutbox: (now?: Date) => sweepAlertsOutbox(deps, now),

    correct: (id: string, input: RateCorrectionInput, adminId: string) =>
      correctRate(deps, id, input, adminId),
    withdraw: (id: string, reason: string, adminId: string) => withdrawRate(deps, id, reason, adminId),
  };
}

export type DeskService = ReturnType<typeof createDeskService>;
