// The four central banks' adapters behind one call: a source and the days to read give its figures in our words.
import { OFFICIAL_SOURCE_BASE, type OfficialSource } from '@afrofx/shared';
import type { OfficialSourceSettings } from '../../../settings';
import type { OfficialRate } from '../official-rates.repo';
import { fetchBog } from './bog';
import { fetchCbk } from './cbk';
import { fetchCbn } from './cbn';
import { fetchSarb } from './sarb';
import type { DayRange } from './source-http';

export { SourceUnavailable, type DayRange } from './source-http';

export async function fetchOfficialRates(
  source: OfficialSource,
  settings: OfficialSourceSettings,
  range: DayRange,
): Promise<OfficialRate[]> {
  const { timeoutMs } = settings;
  const figures = await {
    cbn: () => fetchCbn(settings.cbnUrl, timeoutMs, range),
    cbk: () => fetchCbk(settings.cbkUrl, timeoutMs, range),
    sarb: () => fetchSarb(settings.sarbUrl, timeoutMs, range),
    bog: () => fetchBog(settings.bogUrl, timeoutMs, range),
  }[source]();
  return figures.map((figure) => ({ ...figure, source, base: OFFICIAL_SOURCE_BASE[source] }));
}
