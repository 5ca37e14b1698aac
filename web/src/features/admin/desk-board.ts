// The desk's rules, without UI: what a row will publish, the checks shown in place, the paste, and "Use official".
import {
  parseRateBlock,
  type Asset,
  type Base,
  type DeskBoard,
  type Market,
  type PublicationRowInput,
  type RateBlockError,
} from '@afrofx/shared';

export type DeskRow = DeskBoard['rows'][number];
export type OfficialFigure = DeskBoard['official'][number];

export interface Cells {
  buy: string;
  sell: string;
}

/** What the admin has typed or pasted per pair, and which rows they chose to publish as they were. */
export interface DeskState {
  cells: Record<string, Cells>;
  sameAsLast: Record<string, boolean>;
  confirmed: Record<string, boolean>;
  unparsed: Record<string, RateBlockError[]>;
  /** Lines of the last paste that name no pair of the board. */
  strayLines: RateBlockError[];
}

export const emptyDesk: DeskState = {
  cells: {},
  sameAsLast: {},
  confirmed: {},
  unparsed: {},
  strayLines: [],
};

export const rowKey = (row: { market: Market; base: Base; asset: Asset }) =>
  `${row.market}/${row.base}/${row.asset}`;

export interface RowCheck {
  field: 'buy' | 'sell' | 'row';
  message: string;
  /** A flag the admin may confirm; the others must be fixed. */
  needsConfirmation: boolean;
}

const parsePrice = (text: string): number | null => {
  const cleaned = text.replace(/[\s,]/g, '');
  if (cleaned === '') return null;
  return /^\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
};
const percentFrom = (value: number, reference: number) => (Math.abs(value - reference) / reference) * 100;
const fmt = (n: number) => Number(n.toFixed(4)).toString();

/** The figures a row will publish (an empty cell keeps the last figure), or null when the row is not published. */
export function rowFigures(row: DeskRow, state: DeskState): { buy: number; sell: number } | null {
  const cells = state.cells[rowKey(row)];
  const typed = cells && (cells.buy.trim() !== '' || cells.sell.trim() !== '');
  if (!typed && !state.sameAsLast[rowKey(row)]) return null;
  const buy = parsePrice(cells?.buy ?? '') ?? row.last?.buy ?? Number.NaN;
  const sell = parsePrice(cells?.sell ?? '') ?? row.last?.sell ?? Number.NaN;
  return { buy, sell };
}

export function officialFor(row: { base: Base; asset: Asset }, official: OfficialFigure[]) {
  return official.find((o) => o.base === row.base && o.asset === row.asset) ?? null;
}

/** The checks of one row, as the server makes them, so the admin sees them before publishing. */
export function checkRow(row: DeskRow, state: DeskState, board: DeskBoard): RowCheck[] {
  const figures = rowFigures(row, state);
  if (!figures) return [];
  const checks: RowCheck[] = [];
  for (const side of ['buy', 'sell'] as const) {
    const value = figures[side];
    if (Number.isNaN(value))
      checks.push({ field: side, message: `The ${side} is not a number.`, needsConfirmation: false });
    else if (Math.round(value * 1_000_000) === 0)
      checks.push({ field: side, message: `The ${side} rounds to zero.`, needsConfirmation: false });
  }
  if (checks.length > 0) return checks;
  if (figures.buy > figures.sell)
    checks.push({ field: 'buy', message: 'The buy is above the sell.', needsConfirmation: false });
  const { deskMovePercent, deskOfficialDistancePercent } = board.settings;
  for (const side of ['buy', 'sell'] as const) {
    const last = row.last?.[side];
    if (last === undefined) continue;
    const move = percentFrom(figures[side], last);
    if (move > deskMovePercent)
      checks.push({
        field: side,
        message: `Moves ${fmt(move)}% from the last ${fmt(last)} (more than ${deskMovePercent}%).`,
        needsConfirmation: true,
      });
  }
  const reference = officialFor(row, board.official);
  if (reference) {
    const distance = percentFrom((figures.buy + figures.sell) / 2, reference.mid);
    if (distance > deskOfficialDistancePercent)
      checks.push({
        field: 'row',
        message: `The mid is ${fmt(distance)}% from the official ${fmt(reference.mid)} (more than ${deskOfficialDistancePercent}%).`,
        needsConfirmation: true,
      });
  }
  return checks;
}

/** A row's checks that still stop the publication: every error, and every flag not confirmed. */
export const blocking = (checks: RowCheck[], confirmed: boolean) =>
  checks.filter((c) => !c.needsConfirmation || !confirmed);

/** The publication the desk sends: every row with figures, in board order. */
export function publicationRows(board: DeskBoard, state: DeskState): PublicationRowInput[] {
  return board.rows.flatMap((row) => {
    const figures = rowFigures(row, state);
    if (!figures) return [];
    return [
      {
        market: row.market,
        base: row.base,
        asset: row.asset,
        ...figures,
        confirmed: Boolean(state.confirmed[rowKey(row)]),
      },
    ];
  });
}

/** Fills the cells from a spreadsheet block; lines that did not parse are kept to be shown on their row. */
export function applyPaste(state: DeskState, board: DeskBoard, text: string): DeskState {
  const { rows, errors } = parseRateBlock(text);
  const cells = { ...state.cells };
  for (const row of rows) cells[rowKey(row)] = { buy: String(row.buy), sell: String(row.sell) };
  const unparsed: Record<string, RateBlockError[]> = {};
  const strayLines: RateBlockError[] = [];
  for (const error of errors) {
    // A line whose pair can still be read is shown on that pair's row.
    const [market, base, asset] = error.text
      .split(error.text.includes('\t') ? '\t' : ',')
      .map((c) => c.trim().toLowerCase());
    const row = board.rows.find((r) => r.market === market && r.base === base && r.asset === asset);
    if (row) (unparsed[rowKey(row)] ??= []).push(error);
    else strayLines.push(error);
  }
  return { ...state, cells, unparsed, strayLines };
}

/** "Same as last" for some rows: each is published as it was, unless the admin typed a figure. */
export function sameAsLast(state: DeskState, rows: DeskRow[]): DeskState {
  const next = { ...state.sameAsLast };
  for (const row of rows) if (row.last) next[rowKey(row)] = true;
  return { ...state, sameAsLast: next };
}

/** "Use official": the bank row from the official figure, with the spread setting around a mid-only source. */
export function fromOfficial(state: DeskState, row: DeskRow, board: DeskBoard): DeskState {
  const reference = officialFor(row, board.official);
  if (!reference) return state;
  const half = (reference.mid * board.settings.officialSpreadPercent) / 200;
  const buy = reference.buy ?? reference.mid - half;
  const sell = reference.sell ?? reference.mid + half;
  const round = (n: number) => String(Number(n.toFixed(6)));
  return { ...state, cells: { ...state.cells, [rowKey(row)]: { buy: round(buy), sell: round(sell) } } };
}
