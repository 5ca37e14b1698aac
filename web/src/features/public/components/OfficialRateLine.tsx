import { ASSET_DISPLAY, BASE_DISPLAY, formatNumber, type Pair } from '@afrofx/shared';
import { useFetchOfficialRatesQuery } from '../public-api';

/**
 * A pair page's official reference figure, beside the markets, with the attribution its source's terms ask for.
 * Nothing shows for a pair without an official series.
 */
export function OfficialRateLine({ pair }: { pair: Pair }) {
  const { data } = useFetchOfficialRatesQuery();
  const figure = data?.find((r) => r.base === pair.base && r.asset === pair.asset);
  if (!figure) return null;
  const places = figure.mid > 100 ? 2 : 4;
  return (
    <p className="mt-4 text-sm text-slate-600" data-testid="official-rate">
      Official reference rate on {figure.date}: {BASE_DISPLAY[pair.base].symbol}
      {formatNumber(figure.mid, places)} per {ASSET_DISPLAY[pair.asset].code}.{' '}
      <span className="text-slate-500">{figure.attribution}</span>
    </p>
  );
}
