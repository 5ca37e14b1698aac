// Where a webhook may be sent (SSRF guard) and how it is sent. A target's name is resolved once per attempt, every
// address it resolves to is checked, and the connection is made to the checked address through `lookup`, so a name
// that answers differently a moment later (DNS rebinding) cannot reach an address that was not checked.
import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { badRequest } from '../../errors';

/** An IPv4 address from two 16-bit groups of an IPv6 address. */
const ipv4Of = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);

/**
 * The IPv4 addresses an IPv6 address carries, which is what a connection to it may reach: IPv4-mapped and
 * IPv4-compatible (::a.b.c.d), SIIT (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96 and 64:ff9b:1::/48), 6to4 (2002::/16)
 * and Teredo (2001::/32: its server, and its client with the bits inverted). None for any other address.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const g = address.parts;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return [ipv4Of(g[6]!, g[7]!)];
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return [ipv4Of(g[6]!, g[7]!)];
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return [ipv4Of(g[6]!, g[7]!)];
  if (g[0] === 0x64 && g[1] === 0xff9b && (g[2] === 0 || g[2] === 1)) return [ipv4Of(g[6]!, g[7]!)];
  if (g[0] === 0x2002) return [ipv4Of(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4Of(g[2]!, g[3]!), ipv4Of(~g[6]! & 0xffff, ~g[7]! & 0xffff)];
  return [];
}

/**
 * Classified by ipaddr.js, and only its `unicast` range passes (private, loopback, link-local,
 * site-local, reserved, documentation, multicast and the rest are refused). An IPv6 address that carries IPv4
 * addresses is judged by them instead; anything that does not parse is refused.
 */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const inner = embeddedIpv4(parsed as ipaddr.IPv6);
  if (inner.length > 0) return inner.some((v4) => v4.range() !== 'unicast');
  return parsed.range() !== 'unicast';
}

export interface CheckedTarget {
  url: URL;
  /** The address the connection goes to. */
  address: string;
  family: 4 | 6;
}

const NOT_ALLOWED =
  'This URL points to a private, loopback or link-local address. Webhooks are sent only to public addresses.';

/** Parses and resolves a target; refuses (400) what is not http(s), does not resolve or reaches a private address. */
export async function checkTarget(raw: string, allowPrivate: boolean): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('url must be a valid http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badRequest('url must be a valid http or https URL');
  if (url.username || url.password) throw badRequest('url must not carry a user name or password');
  // The URL parser refuses ports above 65535; port 0 is no port a receiver can listen on.
  if (url.port === '0') throw badRequest('url must have a port from 1 to 65535');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw badRequest(`The host ${host} could not be resolved.`);
    }
    if (addresses.length === 0) throw badRequest(`The host ${host} could not be resolved.`);
  }
  // Every address is checked: a name with one public and one private address could reach either.
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) throw badRequest(NOT_ALLOWED);
  const chosen = addresses[0]!;
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/**
 * Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, one v1 per secret in force (two during
 * a rotation's overlap, so a receiver holding either secret verifies it).
 */
export function signatureHeader(secrets: string[], body: string, unixSeconds: number): string {
  const signatures = secrets.map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`,
  );
  return [`t=${unixSeconds}`, ...signatures].join(',');
}

export interface PostResult {
  statusCode: number | null;
  error: string | null;
}

// Receivers are told to answer quickly; their body is read only so the connection ends cleanly.
const MAX_ANSWER_BYTES = 64 * 1024;

/** POSTs the body to the checked address; never throws (a failure is a result), never follows redirects. */
export function postTo(
  target: CheckedTarget,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<PostResult> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      target.url,
      {
        method: 'POST',
        // A pooled socket could be one opened to an address checked earlier: each attempt connects afresh.
        agent: false,
        lookup: pinned,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const code = response.statusCode ?? null;
        const result = {
          statusCode: code,
          error: code !== null && code >= 200 && code < 300 ? null : `The endpoint answered ${code}`,
        };
        response.on('end', () => finish(result));
        response.on('close', () => finish(result));
        response.on('error', () => finish(result));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ statusCode: null, error: `No answer within ${timeoutMs} ms` });
    }, timeoutMs);
    request.on('error', (err) => finish({ statusCode: null, error: `Could not connect: ${err.message}` }));
    request.end(body);
  });
}
