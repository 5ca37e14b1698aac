// HTML + text bodies for every e-mail the product sends. Values are escaped; layout is inline-styled for mail clients.
import {
  ASSET_DISPLAY,
  BASE_DISPLAY,
  MARKET_LABELS,
  baseSymbol,
  formatAmount,
  formatDateTime,
  receiptRateLine,
  formatDay,
  formatNumber,
} from '@afrofx/shared';
import type { Rate, Receipt } from '@afrofx/shared';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export function layout(title: string, body: string): string {
  return `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 12px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:#065f46;color:#ffffff;padding:20px 28px;font-size:20px;font-weight:bold">Afro<span style="color:#fbbf24">FX</span></td></tr>
<tr><td style="padding:28px"><h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${body}</td></tr>
<tr><td style="padding:16px 28px;background:#f8fafc;color:#64748b;font-size:12px">AfroFX — exchange rates for African currencies.</td></tr>
</table></td></tr></table></body></html>`;
}

/**
 * Sign-up lets anyone put a first name into a mail sent to any address: it is shown only when it reads as a name
 * (letters, spaces, apostrophes, hyphens), so no link, address or other message can ride in it.
 */
const PLAIN_NAME = /^[\p{L}\p{M}' -]{1,100}$/u;
const greeting = (firstName: string) =>
  PLAIN_NAME.test(firstName.trim()) ? `Hello ${firstName.trim()},` : 'Hello,';

export const button = (href: string, label: string) =>
  `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="background:#065f46;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">${escapeHtml(label)}</a></p>`;

export function subscriptionConfirmationMail(link: string): MailContent {
  const title = 'Confirm your AfroFX rates subscription';
  return {
    subject: title,
    text: `Hello,\n\nYou asked to receive AfroFX exchange rates by e-mail every day. Confirm your subscription by opening this link:\n\n${link}\n\nIf you did not ask for this, ignore this e-mail and nothing will be sent.\n\nAfroFX`,
    html: layout(
      title,
      `<p>You asked to receive AfroFX exchange rates by e-mail every day.</p>${button(link, 'Confirm subscription')}<p style="color:#64748b;font-size:13px">Or paste this link into your browser: ${escapeHtml(link)}</p><p style="color:#64748b;font-size:13px">If you did not ask for this, ignore this e-mail and nothing will be sent.</p>`,
    ),
  };
}

function rateLine(rate: Rate): string {
  const sym = baseSymbol(rate.base);
  return `${ASSET_DISPLAY[rate.asset].code}/${BASE_DISPLAY[rate.base].code} ${MARKET_LABELS[rate.market]}: buy ${sym}${formatNumber(rate.buy)}, sell ${sym}${formatNumber(rate.sell)}`;
}

/**
 * The daily rates; every copy carries its reader's own unsubscribe link. The title's day is the one on the wall clock
 * of the zone the mail is sent by (RATES_MAIL_TIME_ZONE), not the server's.
 */
export function ratesMail(
  rates: Rate[],
  siteUrl: string,
  unsubscribeLink: string,
  timeZone: string,
  now = new Date(),
  /** Where the reader chooses the bases and markets this mail holds. */
  preferencesLink?: string,
): MailContent {
  const title = `AfroFX rates for ${formatDay(now, timeZone)}`;
  const preferencesText = preferencesLink
    ? `Choose the currencies and markets this e-mail holds: ${preferencesLink}\n\n`
    : '';
  const preferencesHtml = preferencesLink
    ? `<p style="color:#64748b;font-size:13px"><a href="${escapeHtml(preferencesLink)}">Choose the currencies and markets</a> this e-mail holds.</p>`
    : '';
  const rows = rates
    .map(
      (r) =>
        `<tr><td style="padding:6px 8px">${ASSET_DISPLAY[r.asset].flag} ${ASSET_DISPLAY[r.asset].code}/${BASE_DISPLAY[r.base].code}</td><td style="padding:6px 8px">${MARKET_LABELS[r.market]}</td><td style="padding:6px 8px;text-align:right">${escapeHtml(baseSymbol(r.base) + formatNumber(r.buy))}</td><td style="padding:6px 8px;text-align:right">${escapeHtml(baseSymbol(r.base) + formatNumber(r.sell))}</td></tr>`,
    )
    .join('');
  return {
    subject: title,
    text: `${title}\n\n${rates.map(rateLine).join('\n')}\n\nSee every market at ${siteUrl}\n\n${preferencesText}You get this e-mail because you subscribed to AfroFX daily rates. To stop it, open:\n${unsubscribeLink}\n`,
    html: layout(
      title,
      `<table width="100%" style="border-collapse:collapse;font-size:14px"><tr style="background:#f1f5f9"><th align="left" style="padding:6px 8px">Pair</th><th align="left" style="padding:6px 8px">Market</th><th align="right" style="padding:6px 8px">Buy</th><th align="right" style="padding:6px 8px">Sell</th></tr>${rows}</table>${button(siteUrl, 'See all rates')}${preferencesHtml}<p style="color:#64748b;font-size:13px">You get this e-mail because you subscribed to AfroFX daily rates. <a href="${escapeHtml(unsubscribeLink)}">Unsubscribe</a>.</p>`,
    ),
  };
}

export function ratesExportMail(rowCount: number): MailContent {
  const title = 'Your AfroFX rates export';
  return {
    subject: title,
    text: `The rates export you asked for is attached as a CSV file (${rowCount} rates).\n\nAfroFX`,
    html: layout(
      title,
      `<p>The rates export you asked for is attached as a CSV file (${rowCount} rates).</p>`,
    ),
  };
}

export function accountActivationMail(firstName: string, link: string): MailContent {
  const title = 'Activate your AfroFX developer account';
  return {
    subject: title,
    text: `${greeting(firstName)}\n\nWelcome to AfroFX. Activate your developer account by opening this link (valid for 48 hours):\n\n${link}\n\nIf you did not sign up, ignore this e-mail.\n\nAfroFX`,
    html: layout(
      title,
      `<p>${escapeHtml(greeting(firstName))}</p><p>Welcome to AfroFX. Activate your developer account to create apps and API keys. The link is valid for 48 hours.</p>${button(link, 'Activate account')}<p style="color:#64748b;font-size:13px">Or paste this link into your browser: ${escapeHtml(link)}</p><p style="color:#64748b;font-size:13px">If you did not sign up, ignore this e-mail.</p>`,
    ),
  };
}

export function passwordResetMail(firstName: string, link: string): MailContent {
  const title = 'Reset your AfroFX password';
  return {
    subject: title,
    text: `${greeting(firstName)}\n\nSomeone asked to reset the password of your AfroFX account. Choose a new password with this link (valid for one hour, usable once):\n\n${link}\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n\nAfroFX`,
    html: layout(
      title,
      `<p>${escapeHtml(greeting(firstName))}</p><p>Someone asked to reset the password of your AfroFX account. The link is valid for one hour and works once.</p>${button(link, 'Choose a new password')}<p style="color:#64748b;font-size:13px">Or paste this link into your browser: ${escapeHtml(link)}</p><p style="color:#64748b;font-size:13px">If it was not you, ignore this e-mail: your password stays as it is.</p>`,
    ),
  };
}

/** Sign-up with an address that already has an activated account: its owner learns it, nobody else does. */
export function accountExistsMail(firstName: string, signinLink: string, resetLink: string): MailContent {
  const title = 'You already have an AfroFX account';
  return {
    subject: title,
    text: `${greeting(firstName)}\n\nSomeone tried to create an AfroFX developer account with this e-mail address, which already has one. Sign in here:\n\n${signinLink}\n\nForgot your password? Ask for a new one here:\n\n${resetLink}\n\nIf it was not you, ignore this e-mail: nothing has changed.\n\nAfroFX`,
    html: layout(
      title,
      `<p>${escapeHtml(greeting(firstName))}</p><p>Someone tried to create an AfroFX developer account with this e-mail address, which already has one.</p>${button(signinLink, 'Sign in')}<p>Forgot your password? <a href="${escapeHtml(resetLink)}">Ask for a new one</a>.</p><p style="color:#64748b;font-size:13px">If it was not you, ignore this e-mail: nothing has changed.</p>`,
    ),
  };
}

/** The 80 % and 100 % usage warnings, each sent once per month of the term. */
export function usageWarningMail(
  firstName: string,
  usage: { appName: string; planName: string; percent: number; used: number; limit: number; resetsAt: Date },
  plansLink: string,
): MailContent {
  const reached = usage.percent >= 100;
  const subject = reached
    ? `${usage.appName} has used all of this month's API requests`
    : `${usage.appName} has used ${usage.percent}% of this month's API requests`;
  const detail = `${usage.appName} (${usage.planName}) has made ${formatNumber(usage.used, 0)} of its ${formatNumber(usage.limit, 0)} requests this month.`;
  const next = reached
    ? `Further requests are refused with 429 until the count resets on ${formatDateTime(usage.resetsAt, 'UTC')}.`
    : `The count resets on ${formatDateTime(usage.resetsAt, 'UTC')}.`;
  return {
    subject,
    text: `${greeting(firstName)}\n\n${detail}\n${next}\n\nPlans: ${plansLink}\n`,
    html: layout(
      subject,
      `<p>${escapeHtml(greeting(firstName))}</p><p>${escapeHtml(detail)}</p><p>${escapeHtml(next)}</p>` +
        `<p><a href="${escapeHtml(plansLink)}">See your plan</a></p>`,
    ),
  };
}

/**
 * The receipt of one payment, with what it bought (plan, term), what it cost (lines, fee, total), its
 * reference and the seller's postal address. Days are UTC, the time the term is counted in.
 */
export function receiptMail(receipt: Receipt, receiptLink: string): MailContent {
  const title = `Your AfroFX receipt: ${formatAmount(receipt.amount, receipt.currency)}`;
  const period = receipt.period
    ? `${formatDay(receipt.period.start, 'UTC')} to ${formatDay(receipt.period.end, 'UTC')} (UTC)`
    : 'not recorded';
  const facts: Array<[string, string]> = [
    ['Reference', receipt.reference],
    ['Paid on', formatDateTime(receipt.paidAt, 'UTC')],
    ['App', receipt.app.name],
    ['Plan', `${receipt.plan.name}, ${formatNumber(receipt.plan.requestLimit, 0)} requests a month`],
    ['Period', receipt.isUpcoming ? `${period}, after your current plan` : period],
    ['Billed to', `${receipt.billedTo.name} <${receipt.billedTo.email}>`],
    ...(receipt.exchangeRate
      ? [['Exchange rate', receiptRateLine(receipt.exchangeRate)] as [string, string]]
      : []),
  ];
  const lines: Array<[string, string]> = [
    ...receipt.lines.map((line): [string, string] => [
      line.label,
      formatAmount(line.amount, receipt.currency),
    ]),
    ['Total paid', formatAmount(receipt.amount, receipt.currency)],
  ];
  const text = [
    greeting(receipt.billedTo.name.split(' ')[0] ?? ''),
    '',
    `Thank you for your payment. This is your receipt.`,
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    ...lines.map(([label, value]) => `${label}: ${value}`),
    '',
    `See or print it any time: ${receiptLink}`,
    '',
    `${receipt.seller.name}, ${receipt.seller.address}`,
  ].join('\n');
  const row = ([label, value]: [string, string], strong = false) =>
    `<tr><td style="padding:6px 0;color:#64748b">${escapeHtml(label)}</td><td style="padding:6px 0;text-align:right${strong ? ';font-weight:bold' : ''}">${escapeHtml(value)}</td></tr>`;
  const html = layout(
    title,
    `<p>${escapeHtml(greeting(receipt.billedTo.name.split(' ')[0] ?? ''))}</p><p>Thank you for your payment. This is your receipt.</p>` +
      `<table width="100%" style="border-collapse:collapse;font-size:14px">${facts.map((fact) => row(fact)).join('')}</table>` +
      `<hr style="border:0;border-top:1px solid #e2e8f0;margin:16px 0">` +
      `<table width="100%" style="border-collapse:collapse;font-size:14px">${lines.map((line, i) => row(line, i === lines.length - 1)).join('')}</table>` +
      button(receiptLink, 'View or print the receipt') +
      `<p style="color:#64748b;font-size:13px">${escapeHtml(`${receipt.seller.name}, ${receipt.seller.address}`)}</p>`,
  );
  return { subject: title, text, html };
}

/** To the admins, once a day per market: the market is past its publication deadline with nothing published. */
export function publicationOverdueMail(
  market: keyof typeof MARKET_LABELS,
  deadline: string,
  timeZone: string,
  adminLink: string,
): MailContent {
  const label = MARKET_LABELS[market];
  const title = `${label} rates are not published yet`;
  const line = `Today's ${label} rates were due by ${deadline} (${timeZone}) and nothing has been published for that market.`;
  return {
    subject: title,
    text: `${line}\n\nPublish them from the admin console: ${adminLink}\n\nAfroFX`,
    html: layout(title, `<p>${escapeHtml(line)}</p>${button(adminLink, 'Open the admin console')}`),
  };
}
