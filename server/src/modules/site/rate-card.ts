// The Open Graph / X card image of a pair page: a 1200×630 PNG with the pair's rates, drawn by satori (layout to
// SVG) and resvg (SVG to PNG), both of which ship their code inside their npm packages.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  BASE_DISPLAY,
  DEFAULT_MARKET,
  formatNumber,
  formatUtcDate,
  MARKET_TABS,
  pairName,
  type Pair,
  type QuoteWithoutAge,
} from '@afrofx/shared';

const WIDTH = 1200;
const HEIGHT = 630;
const PADDING = 64;

// The site's typeface; satori reads WOFF but not WOFF2. The currency signs ₦ and ₵ are in the latin-ext subset,
// a font of its own name: satori falls back from one name of the family list to the next per glyph.
const require = createRequire(__filename);
const SUBSETS = ['latin', 'latin-ext'];
const readFonts = () =>
  SUBSETS.flatMap((subset) =>
    [400, 700].map((weight) => ({
      name: `Inter ${subset}`,
      weight: weight as 400 | 700,
      style: 'normal' as const,
      data: readFileSync(require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`)),
    })),
  );

// Loaded with the first card a process draws: satori and resvg take a while to load, and most processes (and the
// tests that start one) never draw a card.
let drawingTools:
  | {
      satori: (typeof import('satori'))['default'];
      Resvg: (typeof import('@resvg/resvg-js'))['Resvg'];
      fonts: ReturnType<typeof readFonts>;
    }
  | undefined;
const loadDrawingTools = () =>
  (drawingTools ??= {
    satori: (require('satori') as typeof import('satori')).default,
    Resvg: (require('@resvg/resvg-js') as typeof import('@resvg/resvg-js')).Resvg,
    fonts: readFonts(),
  });

interface Node {
  type: string;
  props: { style?: Record<string, string | number>; children?: string | Node | Array<string | Node> };
}

const box = (style: Node['props']['style'], children: Node['props']['children']): Node => ({
  type: 'div',
  props: { style: { display: 'flex', ...style }, children },
});

/** The card of a pair with its rates of the moment (those of `quotes` that belong to it). */
export async function rateCardPng(pair: Pair, quotes: QuoteWithoutAge[]): Promise<Buffer> {
  const base = BASE_DISPLAY[pair.base];
  const of = (market: string) =>
    quotes.find((q) => q.base === pair.base && q.asset === pair.asset && q.market === market);
  const headline = of(DEFAULT_MARKET);
  const markets = MARKET_TABS.map(({ market, label }) => {
    const quote = of(market);
    return box({ flexDirection: 'column', marginRight: 64 }, [
      box({ fontSize: 28, color: '#afe3c8' }, label),
      box({ fontSize: 40, fontWeight: 700 }, quote ? `${base.symbol}${formatNumber(quote.sell)}` : '–'),
      box(
        { fontSize: 24, color: '#afe3c8' },
        quote ? `buy ${base.symbol}${formatNumber(quote.buy)}` : 'no rate yet',
      ),
    ]);
  });
  const updated = quotes
    .filter((q) => q.base === pair.base && q.asset === pair.asset)
    .map((q) => q.updatedAt)
    .sort()
    .at(-1);
  const card = box(
    {
      // satori sizes the content box: the padding comes on top.
      width: WIDTH - 2 * PADDING,
      height: HEIGHT - 2 * PADDING,
      flexDirection: 'column',
      justifyContent: 'space-between',
      padding: PADDING,
      backgroundColor: '#06241b',
      color: '#ffffff',
      fontFamily: SUBSETS.map((subset) => `Inter ${subset}`).join(', '),
    },
    [
      box({ justifyContent: 'space-between', fontSize: 32 }, [
        box({ fontWeight: 700, color: '#e8b13a' }, 'AfroFX'),
        box({ color: '#afe3c8' }, updated ? `Updated ${formatUtcDate(new Date(updated))}` : ''),
      ]),
      box({ flexDirection: 'column' }, [
        box({ fontSize: 48 }, `${pairName(pair)} today`),
        box(
          { fontSize: 120, fontWeight: 700, marginTop: 8 },
          headline ? `${base.symbol}${formatNumber(headline.sell)}` : 'No rate yet',
        ),
        box({ fontSize: 32, color: '#afe3c8' }, headline ? 'cash market, sell' : ''),
      ]),
      box({}, markets),
    ],
  );
  const { satori, Resvg, fonts } = loadDrawingTools();
  const svg = await satori(card as Parameters<typeof satori>[0], { width: WIDTH, height: HEIGHT, fonts });
  return new Resvg(svg, { fitTo: { mode: 'width', value: WIDTH } }).render().asPng();
}
