/**
 * Talking to a real server process over HTTP, as the tests of several instances do: a JSON call
 * with the Origin a browser would send, and a member registered on one instance.
 */
import { expect } from 'vitest';

export async function api(base: string, method: string, url: string, cookie?: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      origin: base,
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, cookie: res.headers.get('set-cookie') };
}

/** Registers `name` through `base`: the member's id and session cookie. */
export async function registerOver(base: string, name: string) {
  const res = await api(base, 'POST', '/api/auth/register', undefined, {
    username: name,
    email: `${name}@example.com`,
    password: 'secret12',
    displayName: name,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.user.id as string, cookie: res.cookie!.split(';')[0]! };
}
