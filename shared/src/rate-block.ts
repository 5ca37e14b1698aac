// The desk's paste and CSV upload: a block copied from a spreadsheet, one pair a line, in the column order
// RATE_BLOCK_COLUMNS states. Tab- or comma-separated, with or without a header row. The server and the desk read it
// with this one function, so a preview and a publication never disagree.
import {
  ASSETS,
  BASES,
  MARKETS,
  MARKET_LABELS,
  fromIsoCode,
  type Asset,
  type Base,
  type Market,
} from './constants';

export const RATE_BLOCK_COLUMNS = ['market', 'base', 'asset', 'buy', 'sell'] as const;

export interface RateBlockRow {
  /** 1-based line of the block. */
  line: number;
  market: Market;
  base: Base;
  asset: Asset;
  buy: number;
  sell: number;
}

export interface RateBlockError {
  line: number;
  text: string;
  message: string;
}

const MARKET_BY_LABEL: Record<string, Market> = Object.fromEntries(
  MARKETS.flatMap((m) => [
    [m, m],
    [MARKET_LABELS[m].toLowerCase(), m],
  ]),
);

function cellsOf(line: string): string[] {
  const delimiter = line.includes('\t') ? '\t' : ',';
  return line.split(delimiter).map((cell) =>
    cell
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim(),
  );
}

/** A price as a spreadsheet copies it: thousands separators and a currency sign are dropped. */
function priceOf(cell: string): number | null {
  const cleaned = cell.replace(/[\s,₦$€£]/g, '');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned);
}

export function parseRateBlock(text: string): { rows: RateBlockRow[]; errors: RateBlockError[] } {
  const rows: RateBlockRow[] = [];
  const errors: RateBlockError[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    // Tab-separated cells may hold "1,500.25"; only a tab-free line is split on commas.
    const cells = cellsOf(raw);
    if (rows.length === 0 && errors.length === 0 && cells[0]?.toLowerCase() === 'market') return;
    const fail = (message: string) => errors.push({ line, text: raw, message });
    if (cells.length < RATE_BLOCK_COLUMNS.length)
      return fail(`Expected ${RATE_BLOCK_COLUMNS.join(', ')}: found ${cells.length} column(s).`);
    const [marketCell, baseCell, assetCell, buyCell, sellCell] = cells as [
      string,
      string,
      string,
      string,
      string,
    ];
    const market = MARKET_BY_LABEL[marketCell.toLowerCase()];
    if (!market) return fail(`Unknown market "${marketCell}" (use ${MARKETS.join(', ')}).`);
    const base = fromIsoCode(baseCell).toLowerCase() as Base;
    if (!BASES.includes(base))
      return fail(`Unknown base "${baseCell}" (use ${BASES.join(', ')} or NGN, KES, ZAR, GHS).`);
    const asset = fromIsoCode(assetCell).toLowerCase() as Asset;
    if (!ASSETS.includes(asset))
      return fail(`Unknown asset "${assetCell}" (use ${ASSETS.join(', ')} or USD, EUR, GBP, CAD).`);
    const buy = priceOf(buyCell);
    if (buy === null) return fail(`The buy "${buyCell}" is not a number.`);
    const sell = priceOf(sellCell);
    if (sell === null) return fail(`The sell "${sellCell}" is not a number.`);
    rows.push({ line, market, base, asset, buy, sell });
  });
  return { rows, errors };
}
