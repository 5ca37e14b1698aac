// Where a webhook may be sent (SSRF guard) and how it is sent. A target's name is resolved once per attempt, every
// address it resolves to is checked, and the connection is made to the checked address through `lookup`, so a name
// that answers differently a moment later (DNS rebinding) cannot reach an address that was not checked.
import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { badRequest } from '../../errors';

const refused = new BlockList();
// IPv4: "this network" and the unspecified address, private (RFC 1918), CGNAT (RFC 6598), loopback, link-local
// (cloud metadata at 169.254.169.254), IETF protocol assignments, benchmarking, multicast, reserved and broadcast.
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  refused.addSubnet(network, prefix, 'ipv4');
// IPv6: unspecified, loopback, link-local, unique-local and multicast.
refused.addAddress('::', 'ipv6');
refused.addAddress('::1', 'ipv6');
refused.addSubnet('fe80::', 10, 'ipv6');
refused.addSubnet('fc00::', 7, 'ipv6');
refused.addSubnet('ff00::', 8, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (with a dotted IPv4 tail folded in). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** The IPv4 address an IPv6 address carries (IPv4-mapped, NAT64, 6to4), which is what a connection would reach. */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return undefined;
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refused.check(address, 'ipv4');
  if (family === 6) {
    const inner = embeddedIpv4(address);
    return refused.check(address, 'ipv6') || (inner !== undefined && refused.check(inner, 'ipv4'));
  }
  return true;
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
