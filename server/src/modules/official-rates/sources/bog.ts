// The Bank of Ghana's "Daily interbank FX rates" (../shared/providers/central-banks.md): an HTML page, no JSON
// endpoint known, and automated clients have been answered with a captcha page instead. No shape of the table is
// documented, so its columns are found by their headings (currency, date, buying, selling, mid), and a table that
// is missing or not understood in full reports the source as down: the desk then enters the figures by hand, and
// nothing a parser half-understood is published.
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import type { Asset } from '@afrofx/shared';
import {
  fetchText,
  inRange,
  normaliseName,
  positive,
  SourceUnavailable,
  type DayRange,
  type SourceFigure,
} from './source-http';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const ASSETS: Record<string, Asset> = {
  USD: 'dollar',
  'US DOLLAR': 'dollar',
  GBP: 'british_pounds',
  'POUND STERLING': 'british_pounds',
  EUR: 'euro',
  EURO: 'euro',
  CAD: 'canadian_dollar',
  'CANADIAN DOLLAR': 'canadian_dollar',
};

const isElement = (node: Node): node is Element => 'tagName' in node;
const childrenOf = (node: Node): Node[] => ('childNodes' in node ? node.childNodes : []);

function elements(node: Node, tag: string): Element[] {
  const found: Element[] = [];
  for (const child of childrenOf(node)) {
    if (isElement(child) && child.tagName === tag) found.push(child);
    found.push(...elements(child, tag));
  }
  return found;
}

const textOf = (node: Node): string =>
  'value' in node && node.nodeName === '#text' ? node.value : childrenOf(node).map(textOf).join(' ');

const cellsOf = (row: Element) =>
  childrenOf(row)
    .filter((c): c is Element => isElement(c) && (c.tagName === 'td' || c.tagName === 'th'))
    .map((c) => textOf(c).replace(/\s+/g, ' ').trim());

function dayOf(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const dmy = /^(\d{2})[/.-](\d{2})[/.-](\d{4})$/.exec(text);
  return dmy ? `${dmy[3]}-${dmy[2]}-${dmy[1]}` : null;
}

/** "USD", "USD/GHS", "USDGHS" or a name such as "US Dollar". */
function assetOf(text: string): Asset | undefined {
  const name = normaliseName(text);
  return ASSETS[name] ?? ASSETS[name.replace(/[^A-Z]/g, '').slice(0, 3)];
}

function figuresOf(table: Element, range: DayRange): SourceFigure[] | null {
  const rows = elements(table, 'tr').map(cellsOf);
  const headerAt = rows.findIndex((cells) => cells.some((c) => /currency/i.test(c)));
  if (headerAt < 0) return null;
  const header = rows[headerAt]!.map((c) => c.toLowerCase());
  const column = (word: string) => header.findIndex((c) => c.includes(word));
  const [currency, date, buying, selling, mid] = ['currency', 'date', 'buy', 'sell', 'mid'].map(column);
  if (date! < 0 || (mid! < 0 && (buying! < 0 || selling! < 0))) return null;
  const figures: SourceFigure[] = [];
  for (const cells of rows.slice(headerAt + 1)) {
    const asset = assetOf(cells[currency!] ?? '');
    if (!asset) continue;
    const day = dayOf(cells[date!] ?? '');
    const buy = buying! >= 0 ? positive(cells[buying!]?.replace(/,/g, '')) : null;
    const sell = selling! >= 0 ? positive(cells[selling!]?.replace(/,/g, '')) : null;
    const middle =
      mid! >= 0 ? positive(cells[mid!]?.replace(/,/g, '')) : buy && sell ? (buy + sell) / 2 : null;
    // One figure of a row we import that does not read is a table not understood: none of it is stored.
    if (!day || middle === null || (buying! >= 0 && buy === null) || (selling! >= 0 && sell === null)) {
      throw new SourceUnavailable(
        `the Bank of Ghana's table has a row that could not be read: ${cells.join(' | ')}`,
      );
    }
    if (inRange(day, range)) figures.push({ date: day, asset, mid: middle, buy, sell });
  }
  return figures;
}

export async function fetchBog(url: string, timeoutMs: number, range: DayRange): Promise<SourceFigure[]> {
  const page = parse(await fetchText({ url, timeoutMs, init: { headers: { accept: 'text/html' } } }));
  for (const table of elements(page, 'table')) {
    const figures = figuresOf(table, range);
    if (figures) return figures;
  }
  throw new SourceUnavailable(
    "the Bank of Ghana's page has no rates table (a captcha page answered instead?)",
  );
}
