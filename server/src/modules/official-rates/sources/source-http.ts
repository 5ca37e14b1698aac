// How the adapters talk to the central banks: Node's fetch with a time limit, and one kind of error for "this source
// did not answer with its figures", which the import records as the source being down.
import type { Asset } from '@afrofx/shared';
import type { OfficialRate } from '../official-rates.repo';

export class SourceUnavailable extends Error {}

/** The business days (yyyy-mm-dd) to read, both ends included. */
export interface DayRange {
  from: string;
  to: string;
}

export interface SourceRequest {
  url: string;
  timeoutMs: number;
  init?: RequestInit;
}

/** The body of a 2xx answer, or SourceUnavailable naming what went wrong (unreachable, slow, an error status). */
export async function fetchText({ url, timeoutMs, init }: SourceRequest): Promise<string> {
  const host = new URL(url).host;
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const reason =
      (err as { name?: unknown } | null)?.name === 'TimeoutError'
        ? `no answer in ${timeoutMs} ms`
        : causeOf(err);
    throw new SourceUnavailable(`${host} could not be reached: ${reason}`);
  }
  const body = await res.text().catch(() => '');
  if (!res.ok) throw new SourceUnavailable(`${host} answered HTTP ${res.status}`);
  return body;
}

/** A JSON body, whatever Content-Type the bank served it with. */
export async function fetchJson({ url, ...rest }: SourceRequest): Promise<unknown> {
  const text = await fetchText({ url, ...rest });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SourceUnavailable(`${new URL(url).host} answered something other than JSON`);
  }
}

function causeOf(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
}

/** Names are matched trimmed, upper-cased and with single spaces: the banks' lists vary in all three. */
export const normaliseName = (name: string) => name.trim().toUpperCase().replace(/\s+/g, ' ');

export const inRange = (day: string, range: DayRange) => day >= range.from && day <= range.to;

/** A positive finite figure from a string or number, or null (empty and zero values occur and are skipped). */
export function positive(value: unknown): number | null {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

export type SourceFigure = Omit<OfficialRate, 'source' | 'base'> & { asset: Asset };
