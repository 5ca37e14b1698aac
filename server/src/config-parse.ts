// How config.ts reads one environment variable: a value of the expected kind, or the default when it is unset or
// empty, or a ConfigError that names the variable and what it takes.

/** pretty: coloured, one readable line per entry (development); json: one JSON object per line, for collectors. */
export type LogFormat = 'pretty' | 'json';

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${raw}"`);
  }
  return port;
}

export function parsePositiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`${name} must be a whole number above 0, got "${raw}"`);
  return value;
}

export function parseCount(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new ConfigError(`${name} must be a whole number from 0 up, got "${raw}"`);
  return value;
}

export function parseBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

export function parseLogFormat(raw: string | undefined, fallback: LogFormat): LogFormat {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'pretty' || raw === 'json') return raw;
  throw new ConfigError(`LOG_FORMAT must be pretty or json, got "${raw}"`);
}

export function parseUrl(name: string, raw: string | undefined, protocols: string[]): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

export function parseEmail(name: string, raw: string | undefined, fallback: string): string {
  const value = raw === undefined || raw === '' ? fallback : raw.trim();
  if (!/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(value)) {
    throw new ConfigError(`${name} must be an e-mail address such as support@example.com, got "${value}"`);
  }
  return value;
}

export function parseTimeOfDay(
  name: string,
  raw: string | undefined,
  fallback: string,
): { hour: number; minute: number } {
  const value = raw === undefined || raw === '' ? fallback : raw;
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) throw new ConfigError(`${name} must be a 24-hour time as HH:MM, e.g. 07:00, got "${value}"`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

export function parseTimeZone(name: string, raw: string | undefined, fallback: string): string {
  const value = raw === undefined || raw === '' ? fallback : raw;
  try {
    // Throws a RangeError for a name the IANA database does not know.
    new Intl.DateTimeFormat('en', { timeZone: value });
  } catch {
    throw new ConfigError(`${name} must be an IANA time zone such as Africa/Lagos, got "${value}"`);
  }
  return value;
}
