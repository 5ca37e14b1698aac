// Every spelling of a loopback, link-local, private or otherwise non-public address is refused as
// a webhook target, the IPv6 forms that carry an IPv4 address included; public addresses pass. checkTarget is what
// registration and every delivery attempt call (on the resolved address), so the table holds for both.
import { checkTarget } from '../src/modules/webhooks/webhook-target';

const REFUSED = [
  // IPv4 loopback, private, link-local (cloud metadata), CGNAT, "this network", reserved, multicast, broadcast
  'http://127.0.0.1/',
  'http://127.1/',
  'http://127.255.255.254/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0177.0.0.1/',
  'http://0.0.0.0/',
  'http://0/',
  'http://10.0.0.1/',
  'http://10.255.255.255/',
  'http://172.16.0.1/',
  'http://172.31.255.254/',
  'http://192.168.0.1/',
  'http://169.254.169.254/',
  'http://169.254.0.1/',
  'http://100.64.0.1/',
  'http://100.127.255.254/',
  'http://192.0.0.8/',
  'http://192.0.2.1/',
  'http://198.18.0.1/',
  'http://198.51.100.7/',
  'http://203.0.113.9/',
  'http://224.0.0.1/',
  'http://239.255.255.250/',
  'http://240.0.0.1/',
  'http://255.255.255.255/',
  'http://localhost/',
  // IPv6 loopback, unspecified, link-local, unique-local, site-local, multicast, documentation, discard
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::]/',
  'http://[fe80::1]/',
  'http://[febf::1]/',
  'http://[fc00::1]/',
  'http://[fd12:3456::1]/',
  'http://[fec0::1]/',
  'http://[feff::1]/',
  'http://[ff02::1]/',
  'http://[2001:db8::1]/',
  'http://[100::1]/',
  // IPv4-mapped
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[0:0:0:0:0:ffff:127.0.0.1]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:192.168.1.1]/',
  // IPv4-compatible
  'http://[::127.0.0.1]/',
  'http://[::7f00:1]/',
  'http://[::169.254.169.254]/',
  'http://[::10.0.0.1]/',
  // SIIT (::ffff:0:a.b.c.d)
  'http://[::ffff:0:127.0.0.1]/',
  'http://[::ffff:0:a9fe:a9fe]/',
  // NAT64, well-known and local-use prefixes
  'http://[64:ff9b::127.0.0.1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[64:ff9b:1::7f00:1]/',
  'http://[64:ff9b:1::a00:1]/',
  // 6to4
  'http://[2002:7f00:1::]/',
  'http://[2002:a9fe:a9fe::1]/',
  'http://[2002:c0a8:101::1]/',
  // Teredo, with a loopback or private client, and the whole prefix when its server is not public
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
  'http://[2001::1]/',
  'http://[2001:0:a00:1::1]/',
  // A public address on port 0
  'http://8.8.8.8:0/',
];

const ACCEPTED = [
  'http://8.8.8.8/',
  'https://1.1.1.1:8443/hooks',
  'http://100.128.0.1/',
  'http://172.32.0.1/',
  'http://[2001:4860:4860::8888]/',
  'http://[2606:4700:4700::1111]:65535/',
  'http://[::ffff:8.8.8.8]/',
  'http://[64:ff9b::808:808]/',
  'http://[2002:808:808::1]/',
];

describe('the webhook address guard', () => {
  it(`has a table of at least 60 refused spellings`, () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(60);
  });

  it.each(REFUSED)('refuses %s with 400', async (url) => {
    await expect(checkTarget(url, false)).rejects.toMatchObject({ statusCode: 400 });
  });

  it.each(ACCEPTED)('accepts %s', async (url) => {
    await expect(checkTarget(url, false)).resolves.toMatchObject({ url: new URL(url) });
  });
});
