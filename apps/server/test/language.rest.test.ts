/**
 * The member's language over REST: GET and PUT /api/settings with `language`, /api/auth/me
 * carrying it, registration taking the visitor's, the JSON error shape for anything but en, de
 * and ar, and the OpenAPI document describing it. Every answer is checked against the served
 * OpenAPI document (the harness's contract).
 */
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { call, newUserInput, registerUser, sessionCookie } from './harness.js';

const CHOOSE = 'Choose English, Deutsch or العربية';

describe('REST language', () => {
  it('reads and changes the member’s language; auth.me carries it', async ({ t }) => {
    const member = await registerUser(t.app);
    const initial = await call(t, 'GET', '/api/settings', member.cookie);
    expect(initial.json().language).toBe('en');
    expect((await call(t, 'GET', '/api/auth/me', member.cookie)).json().language).toBe('en');

    const put = await call(t, 'PUT', '/api/settings', member.cookie, { language: 'de' });
    expect(put.statusCode, put.body).toBe(200);
    const after = await call(t, 'GET', '/api/settings', member.cookie);
    expect(after.json()).toEqual({ ...initial.json(), language: 'de' });
    expect((await call(t, 'GET', '/api/auth/me', member.cookie)).json().language).toBe('de');

    // Another device: login answers with it too.
    const login = await call(t, 'POST', '/api/auth/login', undefined, {
      email: member.input.email,
      password: member.input.password,
    });
    expect(login.json().language).toBe('de');

    // A field left out stays.
    await call(t, 'PUT', '/api/settings', member.cookie, { bio: 'Hallo' });
    expect((await call(t, 'GET', '/api/settings', member.cookie)).json().language).toBe('de');
  });

  it('refuses anything but en, de and ar with a 400, and changes nothing', async ({ t }) => {
    const member = await registerUser(t.app);
    await call(t, 'PUT', '/api/settings', member.cookie, { language: 'ar' });
    const before = (await call(t, 'GET', '/api/settings', member.cookie)).json();
    for (const bad of ['fr', '', 'EN', '\u0000', 42, null, ['de'], { code: 'de' }, 'x'.repeat(60_000)]) {
      const res = await call(t, 'PUT', '/api/settings', member.cookie, { language: bad, bio: 'changed' });
      expect(res.statusCode, JSON.stringify(bad).slice(0, 40)).toBe(400);
      expect(res.json()).toMatchObject({ message: CHOOSE, code: 'BAD_REQUEST' });
      expect(res.json().issues).toEqual([expect.objectContaining({ path: 'language', message: CHOOSE })]);
    }
    // Over the 64 KB body limit: refused before any validation.
    const huge = await call(t, 'PUT', '/api/settings', member.cookie, { language: 'x'.repeat(70_000) });
    expect(huge.statusCode).toBe(413);
    expect((await call(t, 'GET', '/api/settings', member.cookie)).json()).toEqual(before);
    const visitor = await call(t, 'PUT', '/api/settings', undefined, { language: 'de' });
    expect(visitor.statusCode).toBe(401);
  });

  it('registers in the visitor’s language; a wrong one makes no account', async ({ t }) => {
    const input = newUserInput('ar');
    const created = await call(t, 'POST', '/api/auth/register', undefined, { ...input, language: 'ar' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().language).toBe('ar');
    const cookie = sessionCookie(created);
    expect((await call(t, 'GET', '/api/settings', cookie)).json().language).toBe('ar');

    const wrong = newUserInput('fr');
    const refused = await call(t, 'POST', '/api/auth/register', undefined, { ...wrong, language: 'fr' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: CHOOSE, code: 'BAD_REQUEST' });
    const login = await call(t, 'POST', '/api/auth/login', undefined, {
      email: wrong.email,
      password: wrong.password,
    });
    expect(login.statusCode).toBe(401);
  });

  it('is described in the OpenAPI document', async ({ t }) => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const language = { type: 'string', enum: ['en', 'de', 'ar'] };
    const settings = doc.components.schemas.Settings;
    expect(settings.required).toContain('language');
    expect(settings.properties.language).toMatchObject(language);
    const body = (path: string, method: string) =>
      doc.paths[path][method].requestBody.content['application/json'].schema;
    expect(body('/api/settings', 'put').properties.language).toMatchObject(language);
    const register = body('/api/auth/register', 'post');
    expect(register.properties.language).toMatchObject(language);
    expect(register.required).not.toContain('language');
    const me = doc.paths['/api/auth/me'].get.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(me)).toContain('"language"');
  });
});
