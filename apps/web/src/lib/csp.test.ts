import { describe, expect, it } from 'vitest';

describe('csp', () => {
  it('makes zod, loaded after it, parse without eval', async () => {
    await import('./csp');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    // and it still parses
    expect(z.strictObject({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
  });
});
