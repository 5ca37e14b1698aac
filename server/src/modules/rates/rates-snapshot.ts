// The paid API serves rates from memory: the latest record of every market × base × asset, reloaded at most
// once a second, and at once when the change feed says rates changed. While the database cannot be read, the last
// snapshot keeps being served (tried again once a second) rather than failing every request.
import { createHash } from 'node:crypto';
import {
  describeQuote,
  OFFICIAL_SOURCE_ATTRIBUTION,
  type OfficialFigure,
  type QuoteWithoutAge,
} from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { OfficialRate } from '../official-rates/official-rates.repo';
import type { RatesService } from './rates.service';

export interface RatesSnapshot {
  /** Mid, spread and change are worked out here, once per snapshot; only the age is added per answer. */
  rates: QuoteWithoutAge[];
  /** Each pair's newest official figure (the premium is computed against it). */
  official: OfficialRate[];
  /** Changes whenever any rate or official figure in the snapshot changes. */
  version: string;
}

const MAX_AGE_MS = 1000;

const officialFigure = ({ source, date, mid, buy, sell }: OfficialRate): OfficialFigure => ({
  source,
  date,
  mid,
  buy,
  sell,
  attribution: OFFICIAL_SOURCE_ATTRIBUTION[source],
});

/**
 * `latestOfficial` reads each pair's newest official figure: a quote carries it where one exists. The import adds
 * figures without a change event, so they show within the snapshot's second.
 */
export function createRatesSnapshot(
  rates: RatesService,
  changes: ChangeFeed,
  latestOfficial: () => Promise<OfficialRate[]> = async () => [],
) {
  let last: RatesSnapshot | undefined;
  /** When `last` was loaded or a load last failed; 0 makes the next get() load. */
  let checkedAt = 0;
  let loading: Promise<RatesSnapshot> | undefined;
  changes.subscribe((change) => {
    if (change.kind === 'rates' || change.kind === 'resync') checkedAt = 0;
  });

  const load = async () => {
    try {
      const [table, official] = await Promise.all([rates.latestWithPreviousClose(), latestOfficial()]);
      const all = table.map(({ rate, previousClose }) => {
        const quote = describeQuote(rate, previousClose);
        const figure = official.find((o) => o.base === rate.base && o.asset === rate.asset);
        return figure ? { ...quote, official: officialFigure(figure) } : quote;
      });
      const version = createHash('sha1').update(JSON.stringify(all)).digest('base64url').slice(0, 16);
      last = { rates: all, official, version };
      return last;
    } catch (err) {
      if (!last) throw err;
      return last;
    } finally {
      checkedAt = Date.now();
    }
  };

  return {
    /** The snapshot itself while it is fresh (no promise on the paid path's every call), else its reload. */
    get(): RatesSnapshot | Promise<RatesSnapshot> {
      if (last && Date.now() - checkedAt < MAX_AGE_MS) return last;
      loading ??= load().finally(() => (loading = undefined));
      return loading;
    },
  };
}

export type RatesSnapshotSource = ReturnType<typeof createRatesSnapshot>;
