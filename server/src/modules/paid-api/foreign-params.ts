// No silent wrong answer for a customer coming from another FX API: a query parameter a call does not know is
// ignored only when it cannot change the answer (a cache-buster, a formatting switch). One that other FX APIs use
// to choose the figures (a date range, a base, the currencies) is a 400 naming the AfroFX parameter to use instead.
import { fromIsoCode } from '@afrofx/shared';
import { badRequest } from '../../errors';

/** A parameter of another FX API, the AfroFX parameters that mean the same, and the calls that take them. */
interface Foreign {
  ours: string[];
  what: string;
  where: string;
}

const RANGE = 'GET /v1/rates/history, /v1/rates/ohlc, /v1/timeseries or /v1/fluctuation';
const rangeStart: Foreign = {
  ours: ['from', 'start_date'],
  what: 'the first day of a range (YYYY-MM-DD)',
  where: RANGE,
};
const rangeEnd: Foreign = {
  ours: ['to', 'end_date'],
  what: 'the last day of a range (YYYY-MM-DD)',
  where: RANGE,
};
const base: Foreign = {
  ours: ['base'],
  what: 'the base currency',
  where: 'GET /v1/rates (our direction) or GET /v1/latest (units per one base)',
};
const currencies: Foreign = {
  ours: ['symbols', 'asset'],
  what: 'the currencies to answer',
  where: 'GET /v1/rates or GET /v1/latest',
};
const day: Foreign = {
  ours: ['date', 'from'],
  what: 'a past day',
  where: 'GET /v1/rates?date= or GET /v1/{date}',
};
const amount: Foreign = {
  ours: ['amount'],
  what: 'an amount to convert',
  where: 'GET /v1/convert or GET /v1/convert/{amount}/{from}/{to}',
};

/**
 * Parameters of Open Exchange Rates, Fixer, currencyapi, currencylayer and Frankfurter that choose the figures. A
 * call that declares one of these names takes it with its AfroFX meaning; only undeclared ones are refused.
 */
export const ANSWER_CHANGING_PARAMETERS: Record<string, Foreign> = {
  start_date: rangeStart,
  date_from: rangeStart,
  datetime_start: rangeStart,
  start: rangeStart,
  end_date: rangeEnd,
  date_to: rangeEnd,
  datetime_end: rangeEnd,
  end: rangeEnd,
  base,
  base_currency: base,
  source: base,
  from: { ...base, ours: ['base', 'from'] },
  currencies,
  symbols: { ...currencies, ours: ['symbols', 'asset'] },
  to: { ...currencies, ours: ['symbols', 'asset', 'to'] },
  quote: currencies,
  target: currencies,
  date: day,
  amount,
  value: amount,
  places: {
    ours: [],
    what: 'a number of decimal places',
    where: 'no call: figures are exact to the precision they were entered with',
  },
  callback: { ours: [], what: 'a JSONP callback', where: 'no call: answers are JSON, and CORS is open' },
};

/** Harmless parameters customers' clients send, ignored wherever they are not declared (for the document). */
export const IGNORED_PARAMETERS = [
  '_',
  'cb',
  'cache',
  'cachebuster',
  'nocache',
  'prettyprint',
  'show_alternative',
];

function refusal(name: string, foreign: Foreign, declared: Record<string, unknown>) {
  const ours = foreign.ours.find((parameter) => parameter in declared);
  if (ours)
    return badRequest(`The ${name} parameter is not AfroFX's: this call takes ${foreign.what} as ${ours}.`);
  return badRequest(
    `The ${name} parameter (${foreign.what}) is not a parameter of this call: use ${foreign.ours[0] ?? 'nothing'} on ${foreign.where}.`,
  );
}

/**
 * Screens a paid call's query in place against the parameters its route declares: undeclared harmless ones are
 * dropped, undeclared answer-changing ones throw a 400, ISO 4217 codes stand for the ids they name, and a list of
 * symbols loses the spaces a hand-typed one carries ("USD, GBP").
 */
export function screenQuery(query: Record<string, unknown>, declared: Record<string, { enum?: unknown[] }>) {
  for (const name in query) {
    const value = query[name];
    if (!(name in declared)) {
      const foreign = ANSWER_CHANGING_PARAMETERS[name];
      if (foreign) throw refusal(name, foreign, declared);
      delete query[name];
    } else if (typeof value === 'string') {
      if (declared[name]!.enum) query[name] = fromIsoCode(value);
      else if (name === 'symbols') query[name] = value.replace(/\s+/g, '');
    }
  }
}
