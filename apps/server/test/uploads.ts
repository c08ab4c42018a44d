/** A real upload through the app, for tests that need a post or a profile with an image. */
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { expect } from 'vitest';

/** A PNG of this size, one colour. */
export function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3b82f6' } })
    .png()
    .toBuffer();
}

/** A finished upload of the member with `cookie` (signed PUT, set-acl, re-encoding): its object path. */
export async function uploadPng(
  app: FastifyInstance,
  cookie: string,
  width = 64,
  height = 48,
): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/objects/upload', headers: { cookie } });
  const { uploadURL } = res.json() as { uploadURL: string };
  const put = await app.inject({
    method: 'PUT',
    url: uploadURL,
    payload: await png(width, height),
    headers: { 'content-type': 'image/png' },
  });
  expect(put.statusCode, put.body).toBe(200);
  const acl = await app.inject({
    method: 'PUT',
    url: '/api/objects/set-acl',
    headers: { cookie },
    payload: { imageURL: uploadURL, visibility: 'public' },
  });
  expect(acl.statusCode, acl.body).toBe(200);
  return (acl.json() as { objectPath: string }).objectPath;
}
