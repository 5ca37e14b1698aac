// Domain constants of SPEC §3 and §9. The server validates against them and the web renders from them.

export const APP_NAME = 'afrofx';

export const MARKETS = ['black_market_cash', 'bank', 'black_market_transfer'] as const;
export type Market = (typeof MARKETS)[number];

export const ASSETS = ['dollar', 'euro', 'british_pounds', 'canadian_dollar'] as const;
export type Asset = (typeof ASSETS)[number];

export const BASES = ['naira', 'kenyan-shilling', 'rand', 'cedis'] as const;
export type Base = (typeof BASES)[number];

/**
 * Central banks whose daily reference figure is imported as the official series, beside the three markets: the
 * Central Bank of Nigeria, the Central Bank of Kenya, the South African Reserve Bank and the Bank of Ghana.
 */
export const OFFICIAL_SOURCES = ['cbn', 'cbk', 'sarb', 'bog'] as const;
export type OfficialSource = (typeof OFFICIAL_SOURCES)[number];
/** Where a rate record came from: the desk, a CSV upload, the admin API, a central bank's figure, or the demo data. */
export const RATE_SOURCES = [
  'desk',
  'csv',
  'api',
  'official:cbn',
  'official:cbk',
  'official:sarb',
  'official:bog',
  'seed',
] as const;
export type RateSource = (typeof RATE_SOURCES)[number];
/** The base currency each central bank publishes against. */
export const OFFICIAL_SOURCE_BASE: Record<OfficialSource, Base> = {
  cbn: 'naira',
  cbk: 'kenyan-shilling',
  sarb: 'rand',
  bog: 'cedis',
};
/** The attribution each source's terms ask for, shown wherever one of its figures is. */
export const OFFICIAL_SOURCE_ATTRIBUTION: Record<OfficialSource, string> = {
  cbn: 'Source: Central Bank of Nigeria',
  cbk: 'Source: Central Bank of Kenya',
  sarb: 'Source: South African Reserve Bank',
  bog: 'Source: Bank of Ghana',
};

export const MAIL_TYPES = ['mailing_list', 'api_wait_list_user'] as const;
export type MailType = (typeof MAIL_TYPES)[number];

/** upgraded: ended early by an upgrade that credited its unused term (not expired: it ran out of nothing). */
export const SUBSCRIPTION_STATUSES = ['active', 'expired', 'exhausted', 'upcoming', 'upgraded'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const PAYMENT_CURRENCIES = ['USD', 'NGN'] as const;
export type PaymentCurrency = (typeof PAYMENT_CURRENCIES)[number];
/**
 * The largest amount one payment may be, in major units: the dearest plan (1,000,000 dollars with the fee) at a
 * naira rate of up to 9,000 stays below it, and its minor units stay exact in a double. Orders above it are refused
 * and the sandbox provider takes no more.
 */
export const PAYMENT_AMOUNT_MAX = 10_000_000_000;

/** SPEC §2 tab order (Bank, Cash, Transfer); `index` is SPEC §3's payment method enumeration. */
export const MARKET_TABS: ReadonlyArray<{ label: string; market: Market; index: number }> = [
  { label: 'Bank', market: 'bank', index: 0 },
  { label: 'Cash', market: 'black_market_cash', index: 2 },
  { label: 'Transfer', market: 'black_market_transfer', index: 1 },
];
export const DEFAULT_MARKET: Market = 'black_market_cash';

export interface AssetDisplay {
  symbol: string;
  code: string;
  flag: string;
  country: string;
}

/** SPEC §3: asset display. */
export const ASSET_DISPLAY: Record<Asset, AssetDisplay> = {
  dollar: { symbol: '$', code: 'USD', flag: '🇺🇸', country: 'United States' },
  euro: { symbol: '€', code: 'EURO', flag: '🇪🇺', country: 'European Union' },
  british_pounds: { symbol: '£', code: 'GBP', flag: '🇬🇧', country: 'United Kingdom' },
  canadian_dollar: { symbol: '$', code: 'CAD', flag: '🇨🇦', country: 'Canada' },
};

/**
 * ISO 4217 codes. The site shows SPEC §3's labels (EURO); the paid API answers these codes and accepts them
 * wherever it takes an asset or base id, as customers of other FX APIs expect.
 */
export const ISO_CODES: Record<Asset | Base, string> = {
  dollar: 'USD',
  euro: 'EUR',
  british_pounds: 'GBP',
  canadian_dollar: 'CAD',
  naira: 'NGN',
  'kenyan-shilling': 'KES',
  rand: 'ZAR',
  cedis: 'GHS',
};

/** The asset or base id an ISO 4217 code (any case) names; anything else as it was. */
export function fromIsoCode(value: string): string {
  const code = value.toUpperCase();
  return Object.entries(ISO_CODES).find(([, iso]) => iso === code)?.[0] ?? value;
}

export interface BaseDisplay {
  name: string;
  code: string;
  symbol: string;
}

/** SPEC §3: base currencies ("Ghanian" is the spec's spelling). */
export const BASE_DISPLAY: Record<Base, BaseDisplay> = {
  naira: { name: 'Naira', code: 'NGN', symbol: '₦' },
  'kenyan-shilling': { name: 'Kenyan Shilling', code: 'KES', symbol: 'KSh' },
  rand: { name: 'South African Rand', code: 'ZAR', symbol: 'R' },
  cedis: { name: 'Ghanian Cedis', code: 'GHS', symbol: 'GH₵' },
};

/** SPEC §3: an unknown base falls back to the naira sign. */
export function baseSymbol(base: string): string {
  return (BASE_DISPLAY as Record<string, BaseDisplay>)[base]?.symbol ?? '₦';
}

export const MARKET_LABELS: Record<Market, string> = {
  bank: 'Bank',
  black_market_cash: 'Cash',
  black_market_transfer: 'Transfer',
};

// SPEC §9 business constants.
export const REQUEST_TIMEOUT_MS = 20000;
export const UPGRADE_WINDOW_DAYS = 5;
export const FALLBACK_USD_RATE = 740;
export const PAGE_SIZE = 20;
export const RANDOM_ID_LENGTH = 5;
export const SUPPORT_MAIL_SUBJECT = 'Hi, I need help with my account.';

// SPEC §8 copy shared by server and web.
export const GENERIC_ERROR_MESSAGE = 'Something bad happended, kindly reach out to support.';
