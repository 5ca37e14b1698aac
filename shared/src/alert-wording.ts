// How a rate alert's condition reads in words: the bot's replies and the alert mails say it the same way.
import { ASSET_DISPLAY, BASE_DISPLAY, MARKET_LABELS, baseSymbol, type Asset, type Base } from './constants';
import type { RateAlert } from './contracts/alerts';
import { formatNumber } from './format';

const code = (c: Asset | Base) =>
  c in ASSET_DISPLAY ? ASSET_DISPLAY[c as Asset].code : BASE_DISPLAY[c as Base].code;

/** The pair, the market, the side and the line (or the move in per cent) the alert watches. */
export function describeAlert(
  alert: Pick<RateAlert, 'market' | 'base' | 'asset' | 'side' | 'condition' | 'level'>,
): string {
  const what = `${code(alert.asset)}/${code(alert.base)} ${MARKET_LABELS[alert.market]} ${alert.side}`;
  return alert.condition === 'move'
    ? `${what} moves more than ${formatNumber(alert.level)} %`
    : `${what} ${alert.condition} ${baseSymbol(alert.base)}${formatNumber(alert.level)}`;
}
