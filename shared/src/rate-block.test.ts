import { parseRateBlock } from './rate-block';

describe('parseRateBlock', () => {
  it('reads a tab-separated spreadsheet copy with a header, codes, labels and thousands separators', () => {
    const block =
      'market\tbase\tasset\tbuy\tsell\nCash\tNGN\tUSD\t1,500.50\t1,520\nbank\tkenyan-shilling\teuro\t140\t142';
    expect(parseRateBlock(block)).toEqual({
      rows: [
        { line: 2, market: 'black_market_cash', base: 'naira', asset: 'dollar', buy: 1500.5, sell: 1520 },
        { line: 3, market: 'bank', base: 'kenyan-shilling', asset: 'euro', buy: 140, sell: 142 },
      ],
      errors: [],
    });
  });

  it('reads comma-separated lines without a header and names each line it could not read', () => {
    const { rows, errors } = parseRateBlock(
      'bank,GHS,GBP,15,16\nbank,GHS,yen,1,2\nbank,GHS\n\ntransfer,ZAR,CAD,x,2',
    );
    expect(rows).toEqual([
      { line: 1, market: 'bank', base: 'cedis', asset: 'british_pounds', buy: 15, sell: 16 },
    ]);
    expect(errors.map((e) => [e.line, e.message])).toEqual([
      [2, expect.stringContaining('Unknown asset "yen"')],
      [3, expect.stringContaining('found 2 column(s)')],
      [5, 'The buy "x" is not a number.'],
    ]);
  });
});
