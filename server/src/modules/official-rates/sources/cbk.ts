// The Central Bank of Kenya's mean rates (../shared/providers/central-banks.md): a wpDataTables answer served as
// text/html but holding JSON, rows of [dd/mm/yyyy, currency name, shillings per foreign unit as a string].
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

/**
 * Only the names that are shillings per foreign unit; the East African crosses (`KES / USHS` …) run the other way
 * and are not imported, so they are left out rather than guessed at.
 */
const ASSETS: Record<string, Asset> = {
  'US DOLLAR': 'dollar',
  'STG POUND': 'british_pounds',
  EURO: 'euro',
  'CAN $': 'canadian_dollar',
  'CAN DOLLAR': 'canadian_dollar',
};

const DAY = /^(\d{2})\/(\d{2})\/(\d{4})$/;

export async function fetchCbk(url: string, timeoutMs: number, range: DayRange): Promise<SourceFigure[]> {
  const body = await fetchJson({
    url,
    timeoutMs,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'draw=1&start=0&length=-1',
    },
  });
  const rows = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(rows))
    throw new SourceUnavailable('the Central Bank of Kenya answered no table of rates');
  const figures: SourceFigure[] = [];
  for (const row of rows) {
    if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'string') continue;
    // JSON.parse has already turned the escaped slashes (05\/01\/2024) back into slashes.
    const day = DAY.exec(row[0].trim());
    const asset = ASSETS[normaliseName(row[1])];
    const mid = positive(row[2]);
    if (!day || !asset || !mid) continue;
    const date = `${day[3]}-${day[2]}-${day[1]}`;
    if (inRange(date, range)) figures.push({ date, asset, mid, buy: null, sell: null });
  }
  return figures;
}
