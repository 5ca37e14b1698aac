// The Central Bank of Nigeria's exchange rates (../shared/providers/central-banks.md): one JSON array with the
// whole history, naira per unit of the foreign currency as 4-decimal strings, currencies by name with variants.
import type { Asset } from '@afrofx/shared';
import {
  fetchJson,
  inRange,
  normaliseName,
  positive,
  SourceUnavailable,
  type DayRange,
  type SourceFigure,
} from './source-http';

/** No Canadian dollar is published. */
const ASSETS: Record<string, Asset> = {
  'US DOLLAR': 'dollar',
  EURO: 'euro',
  'POUND STERLING': 'british_pounds',
  'POUNDS STERLING': 'british_pounds',
};

interface CbnRow {
  currency?: unknown;
  ratedate?: unknown;
  buyingrate?: unknown;
  centralrate?: unknown;
  sellingrate?: unknown;
}

export async function fetchCbn(url: string, timeoutMs: number, range: DayRange): Promise<SourceFigure[]> {
  const body = await fetchJson({ url, timeoutMs });
  if (!Array.isArray(body))
    throw new SourceUnavailable('the Central Bank of Nigeria answered no list of rates');
  const figures: SourceFigure[] = [];
  for (const row of body as CbnRow[]) {
    if (typeof row?.ratedate !== 'string' || typeof row.currency !== 'string') continue;
    const date = row.ratedate.slice(0, 10);
    const asset = ASSETS[normaliseName(row.currency)];
    const mid = positive(row.centralrate);
    if (!asset || !mid || !inRange(date, range)) continue;
    figures.push({ date, asset, mid, buy: positive(row.buyingrate), sell: positive(row.sellingrate) });
  }
  return figures;
}
