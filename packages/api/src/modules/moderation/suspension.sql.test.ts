import { describe, expect, it } from 'vitest';
import { sql } from '../../sql.js';
import { column } from '../safety/safety.sql.js';
import { notSuspended, shownMember, shownMemberOf } from './suspension.sql.js';

describe('suspension conditions', () => {
  it('shownMember reads the database clock and binds nothing', () => {
    const condition = shownMember('u');
    expect(condition.sql).toBe(
      '(u.suspended_at is null or (u.suspended_until is not null and u.suspended_until <= now()))',
    );
    expect(condition.values).toEqual([]);
  });

  it('notSuspended binds the clock it is given', () => {
    const now = new Date('2026-11-26T00:00:00Z');
    const condition = notSuspended('u', now);
    expect(condition.sql).toContain('u.suspended_until <= ?');
    expect(condition.values).toEqual([now]);
  });

  it('shownMemberOf a column is a look-up by primary key with no parameter of its own', () => {
    const condition = shownMemberOf(column('p.author_id'));
    expect(condition.sql).toBe(
      `coalesce((select ${shownMember('sm').sql} from users sm where sm.id = p.author_id), false)`,
    );
    expect(condition.values).toEqual([]);
  });

  it('shownMemberOf a value binds it', () => {
    const condition = sql`select ${shownMemberOf(sql`${'0b7c1e2f-0000-4000-8000-000000000001'}::uuid`)}`;
    expect(condition.values).toEqual(['0b7c1e2f-0000-4000-8000-000000000001']);
    expect(condition.sql).toContain('sm.id = ?::uuid');
  });
});
