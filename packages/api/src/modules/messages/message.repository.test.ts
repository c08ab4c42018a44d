import { describe, expect, it } from 'vitest';
import { sql } from '../../sql.js';
import { textPart } from './message.repository.js';

describe('textPart', () => {
  it('turns text with ? marks and its parameters into a fragment that keeps both', () => {
    const part = textPart({ sql: 'pg_notify(?, ?)', params: ['channel', 'payload'] });
    const query = sql`select ${'a'}, ${part} as notified`;
    expect(query.sql).toBe('select ?, pg_notify(?, ?) as notified');
    expect(query.values).toEqual(['a', 'channel', 'payload']);
  });

  it('refuses text whose marks and parameters do not match', () => {
    expect(() => textPart({ sql: 'pg_notify(?, ?)', params: ['channel'] })).toThrow();
  });
});
