// The mails of rate alerts: the confirmation of a new alert and the alert itself.
import { ASSET_DISPLAY, BASE_DISPLAY, MARKET_LABELS, describeAlert, formatDateTime } from '@afrofx/shared';
import type { RateAlert } from '@afrofx/shared';
import { button, escapeHtml, layout, type MailContent } from './templates';

type AlertCondition = Pick<RateAlert, 'market' | 'base' | 'asset' | 'side' | 'condition' | 'level'>;

export function alertConfirmationMail(alert: AlertCondition, link: string): MailContent {
  const title = 'Confirm your AfroFX rate alert';
  const what = describeAlert(alert);
  return {
    subject: title,
    text: `Hello,\n\nYou asked AfroFX to e-mail you when ${what}. Confirm the alert by opening this link:\n\n${link}\n\nIf you did not ask for this, ignore this e-mail and nothing will be sent.\n\nAfroFX`,
    html: layout(
      title,
      `<p>You asked AfroFX to e-mail you when <strong>${escapeHtml(what)}</strong>.</p>${button(link, 'Confirm alert')}<p style="color:#64748b;font-size:13px">Or paste this link into your browser: ${escapeHtml(link)}</p><p style="color:#64748b;font-size:13px">If you did not ask for this, ignore this e-mail and nothing will be sent.</p>`,
    ),
  };
}

/** States the figure, the publication time, the market and where the figure came from. */
export function alertFiredMail(
  alert: AlertCondition,
  figure: string,
  publishedAt: Date,
  manageLink: string,
): MailContent {
  const what = describeAlert(alert);
  const when = formatDateTime(publishedAt, 'UTC');
  const market = MARKET_LABELS[alert.market];
  const title = `Rate alert: ${what}`;
  // The subject stays ASCII (no currency sign), so that mail clients show it unencoded everywhere.
  const subject = `Rate alert: ${ASSET_DISPLAY[alert.asset].code}/${BASE_DISPLAY[alert.base].code} ${market} ${alert.side} ${alert.condition}`;
  const body = `The ${alert.side} figure is now ${figure} in the ${market} market.`;
  const source = `Source: AfroFX's ${market} market rates, publication of ${when}.`;
  return {
    subject,
    text: `Hello,\n\n${body}\n${source}\n\nThis alert fires once per crossing and re-arms when the figure goes back past the line.\nManage or remove your alerts: ${manageLink}\n\nAfroFX`,
    html: layout(
      title,
      `<p>${escapeHtml(body)}</p><p style="color:#64748b;font-size:13px">${escapeHtml(source)}</p><p style="color:#64748b;font-size:13px">This alert fires once per crossing and re-arms when the figure goes back past the line.</p>${button(manageLink, 'Manage alerts')}`,
    ),
  };
}
