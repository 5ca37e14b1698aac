// The paid API serves rates from memory: the latest record of every market × base × asset, reloaded at most
// once a second, and at once when the change feed says rates changed.
import { createHash } from 'node:crypto';
import type { Rate } from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { RatesService } from '../rates/rates.service';

export interface RatesSnapshot {
  rates: Rate[];
  /** Changes whenever any rate in the snapshot changes. */
  version: string;
}

const MAX_AGE_MS = 1000;

export function createRatesSnapshot(rates: RatesService, changes: ChangeFeed) {
  let current: { snapshot: RatesSnapshot; loadedAt: number } | undefined;
  let loading: Promise<RatesSnapshot> | undefined;
  changes.subscribe((change) => {
    if (change.kind === 'rates' || change.kind === 'resync') current = undefined;
  });

  const load = async () => {
    const all = await rates.latestForAllMarkets();
    const version = createHash('sha1').update(JSON.stringify(all)).digest('base64url').slice(0, 16);
    const snapshot = { rates: all, version };
    current = { snapshot, loadedAt: Date.now() };
    return snapshot;
  };

  return {
    async get(): Promise<RatesSnapshot> {
      if (current && Date.now() - current.loadedAt < MAX_AGE_MS) return current.snapshot;
      loading ??= load().finally(() => (loading = undefined));
      return loading;
    },
  };
}

export type RatesSnapshotSource = ReturnType<typeof createRatesSnapshot>;
