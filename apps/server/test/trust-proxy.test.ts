/**
 * TRUST_PROXY (issue #26): a hop count or the proxies' addresses/CIDRs, never "every hop". With
 * TRUST_PROXY=1 the client's address is the one the proxy appended to X-Forwarded-For, whatever
 * the client wrote before it; 0/false/unset trusts none; anything else stops the start. And HSTS
 * only over HTTPS (or with COOKIE_SECURE=1), so plain-http localhost is never pinned.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyTrustProxy, readEnv } from '../src/env.js';
import { HSTS } from '../src/plugins/security.js';
import { createTestApp, type TestApp } from './harness.js';

const trustProxyOf = (value: string | undefined) => readEnv({ TRUST_PROXY: value }).TRUST_PROXY;

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
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimitScale: 1, trustProxy: trustProxyOf('1') });
  });
  afterAll(() => t.close());

  it('60 logins whose X-Forwarded-For starts with a random address reach 429 (50 per minute per IP)', async () => {
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

  it('sends HSTS when the proxy says the request came over HTTPS, not otherwise', async () => {
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
  it('is not sent over plain http without COOKIE_SECURE, even if a client says https', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('is sent on every answer with COOKIE_SECURE=1', async () => {
    const t = await createTestApp({ cookieSecure: true });
    try {
      for (const url of ['/api/health', '/api/nothing-here', '/trpc/health.check']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.headers['strict-transport-security'], url).toBe(HSTS);
      }
    } finally {
      await t.close();
    }
  });
});
