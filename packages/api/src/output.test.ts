import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { output, timestamp } from './output.js';

describe('timestamp', () => {
  const answer = z.strictObject({ at: timestamp(), until: timestamp().nullable() });

  it('keeps a Date a Date (tRPC sends it as one)', () => {
    const at = new Date('2026-11-21T10:00:00.123Z');
    expect(output(answer)({ at, until: null })).toEqual({ at, until: null });
  });

  it('refuses text and invalid dates', () => {
    expect(() => answer.parse({ at: '2026-11-21T10:00:00Z', until: null })).toThrow();
    expect(() => answer.parse({ at: new Date(Number.NaN), until: null })).toThrow();
  });

  it('is described as the ISO 8601 text REST sends', () => {
    const json = z.toJSONSchema(answer, { io: 'output' }) as { properties: Record<string, unknown> };
    const iso = z.toJSONSchema(z.iso.datetime());
    expect(json.properties.at).toEqual({ type: 'string', format: 'date-time', pattern: iso.pattern });
    expect(JSON.stringify(json.properties.until)).toContain('date-time');
  });
});
