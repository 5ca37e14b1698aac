import type { DeskBoard } from '@afrofx/shared';
import {
  applyPaste,
  blocking,
  checkRow,
  emptyDesk,
  fromOfficial,
  publicationRows,
  sameAsLast,
} from './desk-board';

const at = '2026-11-26T09:00:00.000Z';
const board: DeskBoard = {
  rows: [
    { market: 'bank', base: 'naira', asset: 'dollar', last: { buy: 1500, sell: 1510, publishedAt: at } },
    { market: 'bank', base: 'naira', asset: 'euro', last: { buy: 1600, sell: 1620, publishedAt: at } },
    { market: 'black_market_cash', base: 'naira', asset: 'dollar', last: null },
  ],
  official: [
    { source: 'cbn', date: '2026-11-26', base: 'naira', asset: 'dollar', mid: 1500, buy: null, sell: null },
  ],
  settings: { deskMovePercent: 20, deskOfficialDistancePercent: 50, officialSpreadPercent: 1 },
};

describe('the desk board', () => {
  it('publishes pasted rows and "same as last" rows, an empty cell keeping the last figure', () => {
    let state = applyPaste(emptyDesk, board, 'market\tbase\tasset\tbuy\tsell\nbank\tNGN\tUSD\t1505\t1515');
    expect(publicationRows(board, state)).toEqual([
      { market: 'bank', base: 'naira', asset: 'dollar', buy: 1505, sell: 1515, confirmed: false },
    ]);
    state = sameAsLast(state, board.rows);
    // The pasted row keeps its figures; the cash row has no last figure, so it is not published.
    expect(publicationRows(board, state).map((r) => [r.asset, r.buy])).toEqual([
      ['dollar', 1505],
      ['euro', 1600],
    ]);
  });

  it('shows a line it could not read on its row', () => {
    const state = applyPaste(emptyDesk, board, 'bank,naira,euro,abc,1620');
    expect(state.unparsed['bank/naira/euro']).toEqual([expect.objectContaining({ line: 1 })]);
  });

  it('flags a tenfold move until the row is confirmed, and refuses a buy above the sell', () => {
    const moved = { ...emptyDesk, cells: { 'bank/naira/dollar': { buy: '15000', sell: '15100' } } };
    const checks = checkRow(board.rows[0]!, moved, board);
    expect(checks.map((c) => c.needsConfirmation)).toEqual([true, true, true]);
    expect(blocking(checks, true)).toEqual([]);
    const inverted = { ...emptyDesk, cells: { 'bank/naira/dollar': { buy: '1520', sell: '1510' } } };
    expect(blocking(checkRow(board.rows[0]!, inverted, board), true)).toEqual([
      expect.objectContaining({ message: 'The buy is above the sell.' }),
    ]);
  });

  it('"Use official" puts the spread setting around a mid-only figure', () => {
    expect(fromOfficial(emptyDesk, board.rows[0]!, board).cells['bank/naira/dollar']).toEqual({
      buy: '1492.5',
      sell: '1507.5',
    });
  });
});
