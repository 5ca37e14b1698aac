// The South African Reserve Bank's weighted-average rates (../shared/providers/central-banks.md): one time series per
// currency, a JSON array newest first, Value a number in rand per foreign unit except the Canadian dollar's series.
import type { Asset } from '@afrofx/shared';
import { fetchJson, positive, SourceUnavailable, type DayRange, type SourceFigure } from './source-http';

export const SARB_SERIES: { series: string; asset: Asset; perRand: boolean }[] = [
  { series: 'EXCX135D', asset: 'dollar', perRand: false },
  { series: 'EXCZ001D', asset: 'british_pounds', perRand: false },
  { series: 'EXCZ002D', asset: 'euro', perRand: false },
  // "Canada: Dollar per Rand": inverted to rand per dollar; its 4 decimals carry about ±0.06 % of rounding.
  { series: 'EXCB031D', asset: 'canadian_dollar', perRand: true },
];

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

export async function fetchSarb(
  baseUrl: string,
  timeoutMs: number,
  range: DayRange,
): Promise<SourceFigure[]> {
  const figures: SourceFigure[] = [];
  for (const { series, asset, perRand } of SARB_SERIES) {
    const url = `${baseUrl}/${series}/${range.from}T00:00:00/${range.to}T00:00:00`;
    const body = await fetchJson({ url, timeoutMs });
    if (!Array.isArray(body))
      throw new SourceUnavailable(`the Reserve Bank answered no observations for ${series}`);
    for (const observation of body as { Period?: unknown; Value?: unknown }[]) {
      const value = positive(observation?.Value);
      if (typeof observation?.Period !== 'string' || value === null) continue;
      const date = observation.Period.slice(0, 10);
      if (date < range.from || date > range.to) continue;
      figures.push({ date, asset, mid: perRand ? round4(1 / value) : value, buy: null, sell: null });
    }
  }
  return figures;
}
