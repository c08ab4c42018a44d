/**
 * The general limit and the session hook decide on the path the router routed (issue #45): a
 * percent-encoded path (`/%61pi/…`, `/%74rpc/…`) or an absolute-form request target
 * (`GET http://x/api/…`) reaches the same routes as the plain path, so it is counted the same,
 * batches included, and carries the member's session. Raw requests over a real socket: an HTTP
 * client would normalise the targets. Each case has its own address (X-Forwarded-For, with the
 * proxy trusted), so its count starts at zero. At scale 0.01 an address gets 6 calls a minute.
 */
import net from 'node:net';
import { describe, expect } from 'vitest';
import { itWith } from './fixtures.js';
import { registerUser } from './harness.js';

const PER_IP = 6;
let port: number;

const it = itWith({ config: { rateLimitScale: 0.01, trustProxy: 1 } });
it.beforeAll(({ base }) => {
  port = Number(new URL(base).port);
});

/** One GET with exactly `target` as its request target; the status and body of the answer. */
function rawGet(
  target: string,
  headers: Record<string, string>,
): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      const lines = Object.entries({ host: 'x', connection: 'close', ...headers }).map(
        ([k, v]) => `${k}: ${v}`,
      );
      socket.write(`GET ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      const end = text.indexOf('\r\n\r\n');
      resolve({ status, head: text.slice(0, end).toLowerCase(), body: text.slice(end + 4) });
    });
  });
}

const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe('the general limit counts what the router routes', () => {
  const forms = [
    ['a percent-encoded /api path', '/%61pi/tags/trending', '10.45.0.1'],
    ['a percent-encoded /trpc path', '/%74rpc/tags.trending', '10.45.0.2'],
    ['an absolute-form target', 'http://x/api/tags/trending', '10.45.0.3'],
  ] as const;

  for (const [name, target, ip] of forms) {
    it(`counts ${name}, and the plain path after it is refused`, async () => {
      for (let i = 1; i <= PER_IP; i += 1) {
        const res = await rawGet(target, from(ip));
        expect(res.status, res.body).toBe(200);
      }
      const over = await rawGet(target, from(ip));
      expect(over.status, over.body).toBe(429);
      expect(JSON.parse(over.body).code).toBe('TOO_MANY_REQUESTS');
      expect((await rawGet('/api/tags/trending', from(ip))).status).toBe(429);
    });
  }

  it('counts each call of a percent-encoded batch', async () => {
    const calls = Array(PER_IP + 1)
      .fill('tags.trending')
      .join(',');
    const input = encodeURIComponent(JSON.stringify({}));
    const res = await rawGet(`/%74rpc/${calls}?batch=1&input=${input}`, from('10.45.0.4'));
    expect(res.status, res.body).toBe(429);
  });

  it('counts each call of a batch in absolute form', async () => {
    const calls = Array(PER_IP + 1)
      .fill('tags.trending')
      .join(',');
    const res = await rawGet(`http://x/trpc/${calls}?batch=1&input=%7B%7D`, from('10.45.0.5'));
    expect(res.status, res.body).toBe(429);
  });
});

describe('the session hook and Cache-Control read the routed path', () => {
  it('knows the member behind a percent-encoded and an absolute-form path, and keeps the answer private', async ({
    t,
  }) => {
    const member = await registerUser(t.app);
    for (const [target, ip] of [
      ['/%61pi/auth/me', '10.45.1.1'],
      ['http://x/api/auth/me', '10.45.1.2'],
      ['/%74rpc/auth.me', '10.45.1.3'],
    ] as const) {
      const res = await rawGet(target, { cookie: member.cookie, ...from(ip) });
      expect(res.status, `${target}: ${res.body}`).toBe(200);
      expect(res.body).toContain(member.user.id);
      // A member's own answer, whatever form its path took: no shared cache may keep it.
      expect(res.head).toContain('\r\ncache-control: private, no-store');
    }
  });
});
