/**
 * TRUST_PROXY (issue #26): a hop count or the proxies' addresses/CIDRs, never "every hop". With
 * TRUST_PROXY=1 the client's address is the one the proxy appended to X-Forwarded-For, whatever
 * the client wrote before it; 0/false/unset trusts none; anything else stops the start. And HSTS
 * only over HTTPS (or with COOKIE_SECURE=1), so plain-http localhost is never pinned. Set on a port
 * that is neither loopback nor private (issue #45), it makes the start-up log a warning.
 */
import { networkInterfaces } from 'node:os';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect } from 'vitest';
import { fastifyTrustProxy, isLoopbackOrPrivate, readEnv, trustProxyExposure } from '../src/env.js';
import { createLogger } from '../src/logger.js';
import { HSTS } from '../src/plugins/security.js';
import { it as withApp } from './fixtures.js';
import { createTestApp } from './harness.js';

const trustProxyOf = (value: string | undefined) => readEnv({ TRUST_PROXY: value }).TRUST_PROXY;

/** An app behind one trusted proxy, with the real rate limits. */
const it = withApp.extend('proxied', { scope: 'file' }, ({ appWith }) =>
  appWith({ config: { rateLimitScale: 1, trustProxy: trustProxyOf('1') } }),
);

describe('TRUST_PROXY parsing', () => {
  it('takes a hop count, addresses and CIDRs; 0, false and unset trust none', () => {
    expect(trustProxyOf(undefined)).toBe(false);
    expect(trustProxyOf('')).toBe(false);
    expect(trustProxyOf('0')).toBe(false);
    expect(trustProxyOf('false')).toBe(false);
    expect(trustProxyOf('1')).toBe(1);
    expect(trustProxyOf(' 2 ')).toBe(2);
    expect(trustProxyOf('10.0.0.1')).toEqual(['10.0.0.1']);
    expect(trustProxyOf('10.0.0.0/8, 127.0.0.1,::1/128, loopback')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1/128',
      'loopback',
    ]);
  });

  it('refuses anything else at start-up, saying what it takes', () => {
    for (const value of [
      'true',
      'yes',
      '-1',
      '1.5',
      '10.0.0.300',
      '10.0.0.0/33',
      '10.0.0.1,',
      'proxy.local',
    ]) {
      expect(() => trustProxyOf(value), value).toThrow(/TRUST_PROXY: .*number of proxies in front/);
    }
    expect(() => trustProxyOf('true')).toThrow(/"true" would trust every hop/);
  });
});

/** What a bare Fastify with this TRUST_PROXY takes for the client's address and protocol. */
async function seenAs(trustProxy: string, remoteAddress: string, headers: Record<string, string>) {
  const app = Fastify({ trustProxy: fastifyTrustProxy(trustProxyOf(trustProxy)) });
  app.get('/', (req) => ({ ip: req.ip, protocol: req.protocol }));
  try {
    return (await app.inject({ method: 'GET', url: '/', remoteAddress, headers })).json() as {
      ip: string;
      protocol: string;
    };
  } finally {
    await app.close();
  }
}

describe('which address and protocol a request has', () => {
  const forwarded = { 'x-forwarded-for': '198.51.100.9, 203.0.113.7', 'x-forwarded-proto': 'https' };

  it('1: the address the one proxy appended, and its protocol', async () => {
    expect(await seenAs('1', '127.0.0.1', forwarded)).toEqual({ ip: '203.0.113.7', protocol: 'https' });
  });

  it('2: one hop further', async () => {
    expect((await seenAs('2', '127.0.0.1', forwarded)).ip).toBe('198.51.100.9');
  });

  it('addresses: only a listed proxy is believed', async () => {
    expect(await seenAs('10.0.0.0/8', '10.1.2.3', forwarded)).toEqual({
      ip: '203.0.113.7',
      protocol: 'https',
    });
    expect(await seenAs('10.0.0.0/8', '192.0.2.1', forwarded)).toEqual({ ip: '192.0.2.1', protocol: 'http' });
    // Two listed proxies in a row: the client is the first address neither of them is.
    expect((await seenAs('10.0.0.1,203.0.113.7', '10.0.0.1', forwarded)).ip).toBe('198.51.100.9');
  });

  it('0: no header is believed', async () => {
    expect(await seenAs('0', '127.0.0.1', forwarded)).toEqual({ ip: '127.0.0.1', protocol: 'http' });
  });
});

describe('with TRUST_PROXY=1, X-Forwarded-For cannot dodge the IP limits', () => {
  it('60 logins whose X-Forwarded-For starts with a random address reach 429 (50 per minute per IP)', async ({
    proxied: t,
  }) => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i += 1) {
      const random = `198.51.${Math.floor(Math.random() * 256)}.${i}`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        // A different address each time: only the per-IP bucket can stop these.
        payload: { email: `visitor${i}@example.com`, password: 'whatever-1' },
        headers: { 'x-forwarded-for': `${random}, 203.0.113.7` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.indexOf(429)).toBe(50);
    expect(statuses.slice(50)).toEqual(Array(10).fill(429));
    // Another client behind the same proxy is not affected.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'someone@example.com', password: 'whatever-1' },
      headers: { 'x-forwarded-for': '203.0.113.8' },
    });
    expect(other.statusCode).toBe(401);
  });

  it('sends HSTS when the proxy says the request came over HTTPS, not otherwise', async ({ proxied: t }) => {
    const https = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' },
    });
    expect(https.headers['strict-transport-security']).toBe(HSTS);
    const http = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(http.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('HSTS', () => {
  it('is not sent over plain http without COOKIE_SECURE, even if a client says https', async ({ t }) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent on every answer with COOKIE_SECURE=1', async ({ appWith }) => {
    const t = await appWith({ config: { cookieSecure: true } });
    for (const url of ['/api/health', '/api/nothing-here', '/trpc/health.check']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['strict-transport-security'], url).toBe(HSTS);
    }
  });
});

describe('TRUST_PROXY on a port clients can reach directly', () => {
  it('counts loopback, private, link-local and unique local addresses as safe, and no others', () => {
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.20',
      '169.254.1.1',
      '::1',
      '[::1]',
      'fd00::2',
      'fe80::1',
      '::ffff:10.0.0.1',
      'localhost',
    ]) {
      expect(isLoopbackOrPrivate(address), address).toBe(true);
    }
    for (const address of [
      '0.0.0.0',
      '::',
      '203.0.113.7',
      '172.32.0.1',
      '11.0.0.1',
      '2001:db8::1',
      '::ffff:8.8.8.8',
      'cubes.example',
    ]) {
      expect(isLoopbackOrPrivate(address), address).toBe(false);
    }
    expect(trustProxyExposure(1, ['10.0.0.5', 'fd00::2'])).toBeNull();
    expect(trustProxyExposure(['10.0.0.0/8'], ['127.0.0.1', '::1'])).toBeNull();
    expect(trustProxyExposure(false, ['0.0.0.0'])).toBeNull();
    expect(trustProxyExposure(['10.0.0.0/8'], ['0.0.0.0', '127.0.0.1'])).toMatch(/listens on 0\.0\.0\.0,/);
  });

  /**
   * The app's log at warn level, from its start to listening on `host` with this TRUST_PROXY: an
   * app of its own, closed before its log is read (not the fixtures', which live to the file's end).
   */
  async function startupLog(trustProxy: string, host: string): Promise<string[]> {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const t = await createTestApp({ trustProxy: trustProxyOf(trustProxy) }, createLogger('warn', { stream }));
    try {
      await t.app.listen({ host, port: 0 });
    } finally {
      await t.close();
    }
    return lines.map((line) => JSON.parse(line).msg as string);
  }

  it('logs a warning naming the risk when the app listens on every address (HOST=0.0.0.0)', async () => {
    const warnings = (await startupLog('1', '0.0.0.0')).filter((msg) => msg.includes('TRUST_PROXY'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('TRUST_PROXY is set and the app listens on 0.0.0.0');
    expect(warnings[0]).toContain(
      'picks the IP address the app sees (rate limits, logs) with one X-Forwarded-For',
    );
  });

  it('logs none on a loopback host, on a private one, or without TRUST_PROXY', async () => {
    expect(await startupLog('1', '127.0.0.1')).toEqual([]);
    expect(await startupLog('1', 'localhost')).toEqual([]);
    expect(await startupLog('0', '0.0.0.0')).toEqual([]);
    // A private address of this machine, when it has one (fd00::2 here; none in some CI runners).
    const own = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && isLoopbackOrPrivate(i.address) && !i.address.startsWith('fe80'));
    if (own) expect(await startupLog('1', own.address), own.address).toEqual([]);
  });
});
