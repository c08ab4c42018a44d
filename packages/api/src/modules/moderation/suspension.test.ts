import { describe, expect, it } from 'vitest';
import { sql } from '../../sql.js';
import { column } from '../safety/safety.sql.js';
import { shownMember, shownMemberById, shownMemberOf } from './suspension.js';

describe('shownMemberOf', () => {
  it('is shownMemberById as a fragment: the same text, no parameter of its own', () => {
    const condition = shownMemberOf(column('p.author_id'));
    expect(condition.sql).toBe(shownMemberById('p.author_id'));
    expect(condition.values).toEqual([]);
    expect(condition.sql).toContain(shownMember('sm').sql);
  });

  it('binds the id when it is a value', () => {
    const condition = sql`select ${shownMemberOf(sql`${'0b7c1e2f-0000-4000-8000-000000000001'}::uuid`)}`;
    expect(condition.values).toEqual(['0b7c1e2f-0000-4000-8000-000000000001']);
    expect(condition.sql).toContain('sm.id = ?::uuid');
  });
});
