/**
 * The SSRF guard: which addresses count as public, which URLs pass before any DNS, what a host
 * that resolves to a private address gets, and that the connection is pinned to the checked address.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  checkEndpointShape,
  isPublicAddress,
  pinnedLookup,
  RefusedEndpointError,
  resolvePublicTarget,
} from './ssrf.guard.js';

const NOT_PUBLIC = [
  '0.0.0.0',
  '0.1.2.3',
  '10.0.0.1',
  '10.255.255.255',
  '100.64.0.1',
  '100.100.100.200',
  '100.127.255.255',
  '127.0.0.1',
  '127.1.2.3',
  '169.254.0.1',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.192',
  '192.0.2.10',
  '192.88.99.1',
  '192.168.1.1',
  '198.18.0.1',
  '198.19.255.255',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '0:0:0:0:0:0:0:1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:0:0',
  '::127.0.0.1',
  '64:ff9b::127.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::1',
  '100::1',
  '2001::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '2001:db8::1',
  '2002:7f00:1::1',
  '3fff::1',
  'fc00::1',
  'fd00:ec2::254',
  'fe80::1',
  'fe80::1%eth0',
  'febf::1',
  'fec0::1',
  'ff02::1',
  'ff05::1:3',
  // IPv4-mapped IPv6 of every kind of IPv4 address that is not public.
  '::ffff:0.0.0.0',
  '::ffff:100.64.0.1',
  '::ffff:192.168.1.1',
  '::ffff:224.0.0.1',
  '::FFFF:A9FE:A9FE',
  // NAT64 (64:ff9b::/96) of a private address, in both spellings; the local-use 64:ff9b:1::/48.
  '64:ff9b::10.0.0.1',
  '64:ff9b::c0a8:101',
  '64:ff9b:1:2::3',
  // 6to4 (2002::/16), whatever IPv4 address it carries.
  '2002:c0a8:101::1',
  '2002:808:808::1',
  // Unique local (fc00::/7), link-local (fe80::/10), multicast (ff00::/8), unspecified.
  'fdff:ffff:ffff::1',
  'fe80::',
  'FE80::1%25eth0',
  'ff0e::1',
  'ff00::',
  '0:0:0:0:0:0:0:0',
  '::0',
  // Benchmarking, AS112 and AMT: inside 2000::/3 but not unicast on the internet.
  '2001:2::1',
  '2620:4f:8000::1',
  '192.175.48.1',
  '192.52.193.1',
  // Not an address as a resolver or the URL parser writes one.
  '2130706433',
  '0x7f.0.0.1',
  '1.1.1',
  '::ffff:1.1.1',
  'not-an-address',
  '',
];

const PUBLIC = [
  '1.1.1.1',
  '8.8.8.8',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '169.253.255.255',
  '192.167.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '142.250.74.110',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '64:ff9b::8.8.8.8',
  '::ffff:1.1.1.1',
  '2a01:4f8:c0c:1234::1',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200a',
  '2001:4860:4860::8888',
];

describe('isPublicAddress', () => {
  it.each(NOT_PUBLIC)('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
  it.each(PUBLIC)('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('checkEndpointShape', () => {
  it.each([
    ['http://push.example.com/x', /scheme http:/],
    ['ftp://push.example.com/x', /scheme ftp:/],
    ['file:///etc/passwd', /scheme file:/],
    ['javascript:alert(1)', /scheme/],
    ['not a url', /not a URL/],
    ['https://user:pw@push.example.com/', /credentials/],
    ['https://127.0.0.1/x', /not a public address/],
    ['https://[::1]/x', /not a public address/],
    ['https://[::ffff:127.0.0.1]/x', /not a public address/],
    // The URL parser reads these as IPv4 addresses: 2130706433 and 0x7f.1 are 127.0.0.1.
    ['https://2130706433/x', /not a public address/],
    ['https://0x7f.1/x', /not a public address/],
    ['https://0177.0.0.1/x', /not a public address/],
    ['https://169.254.169.254/latest/meta-data', /not a public address/],
    // RFC 6761: the loopback by name, whatever this machine's resolver says of them.
    ['https://localhost:8443/a', /this machine/],
    ['https://foo.localhost/', /this machine/],
    ['https://A.B.LOCALHOST./x', /this machine/],
  ])('refuses %s', (raw, message) => {
    expect(() => checkEndpointShape(raw)).toThrow(message);
  });

  it('accepts https to a name or a public address, and http to anything only when allowed', () => {
    expect(checkEndpointShape('https://fcm.googleapis.com/fcm/send/abc').hostname).toBe('fcm.googleapis.com');
    expect(checkEndpointShape('https://8.8.8.8/x').hostname).toBe('8.8.8.8');
    expect(checkEndpointShape('http://127.0.0.1:8090/notify/x', { allowPrivate: true }).port).toBe('8090');
    expect(checkEndpointShape('http://localhost:8090/notify/x', { allowPrivate: true }).port).toBe('8090');
    expect(checkEndpointShape('https://localhost.example.com/x').hostname).toBe('localhost.example.com');
  });
});

describe('resolvePublicTarget', () => {
  const resolver = (answers: Record<string, string[]>) => async (host: string) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a name that resolves to a private address, even among public ones', async () => {
    const resolve = resolver({
      'evil.example': ['127.0.0.1'],
      'mixed.example': ['8.8.8.8', '10.0.0.5'],
      'mapped.example': ['::ffff:169.254.169.254'],
      'v6.example': ['fd00::1'],
      'empty.example': [],
    });
    for (const host of ['evil', 'mixed', 'mapped', 'v6', 'empty']) {
      await expect(resolvePublicTarget(`https://${host}.example/push`, { resolve })).rejects.toThrow(
        RefusedEndpointError,
      );
    }
  });

  it('refuses a name that does not resolve', async () => {
    const resolve = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(resolvePublicTarget('https://nowhere.example/', { resolve })).rejects.toThrow(
      /does not resolve/,
    );
  });

  it('returns the checked address for a public name', async () => {
    const resolve = resolver({ 'push.example': ['2606:4700:4700::1111', '1.1.1.1'] });
    const target = await resolvePublicTarget('https://push.example/x', { resolve });
    expect(target).toMatchObject({ address: '2606:4700:4700::1111', family: 6 });
  });

  it('connects to the checked address, whatever the name resolves to later (no rebinding)', async () => {
    const server = http.createServer((_req, res) => res.end('pinned'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      let calls = 0;
      // First answer 127.0.0.1 (checked, allowed in this test), later a different address: the
      // request must still go to the first.
      const resolve = async () => {
        calls += 1;
        return [{ address: calls === 1 ? '127.0.0.1' : '192.0.2.1', family: 4 }];
      };
      const target = await resolvePublicTarget(`http://rebind.example:${port}/`, {
        resolve,
        allowPrivate: true,
      });
      const body = await new Promise<string>((resolve, reject) => {
        const req = http.request(target.url, { lookup: pinnedLookup(target) }, (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end();
      });
      expect(body).toBe('pinned');
      expect(calls).toBe(1);
    } finally {
      server.close();
    }
  });
});
