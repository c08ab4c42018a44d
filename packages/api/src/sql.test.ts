import { describe, expect, it } from 'vitest';
import { notSuspended, shownMember, shownMemberOf } from './modules/moderation/suspension.sql.js';
import { column, inFeedOf, notBlocked } from './modules/safety/safety.sql.js';
import { raw, sql, uuid, uuids } from './sql.js';

describe('SQL fragments carry their own parameters', () => {
  it('a member id is bound once per place it appears; a column is written in', () => {
    const condition = notBlocked('viewer', column('p.author_id'));
    expect(condition.sql.match(/\?/g)).toHaveLength(2);
    expect(condition.values).toEqual(['viewer', 'viewer']);
    expect(condition.sql).toContain('blk.blocked_id = p.author_id');
  });

  it('nested fragments keep their parameters in the order they appear', () => {
    const query = sql`select 1 from posts p where p.id = ${'post'} and ${inFeedOf('viewer', column('p.author_id'))} limit ${5}`;
    expect(query.values).toEqual(['post', 'viewer', 'viewer', 'viewer', 5]);
    expect(query.sql.match(/\?/g)).toHaveLength(query.values.length);
  });

  it('a visitor (null) is bound as a typed null, which matches no block', () => {
    expect(notBlocked(null, raw('u.id')).values).toEqual([null, null]);
  });

  it('text never enters a statement unless it is raw', () => {
    const hostile = "x'; drop table users; --";
    const query = sql`select ${hostile}`;
    expect(query.sql).toBe('select ?');
    expect(query.values).toEqual([hostile]);
  });

  it('lists are one array parameter, suspension conditions bind their clock', () => {
    expect(uuids(['a', 'b']).values).toEqual(['{a,b}']);
    const now = new Date(0);
    expect(notSuspended('u', now).values).toEqual([now]);
    expect(shownMember('u').values).toEqual([]);
  });

  it('a member known by id is looked up by primary key, once per row', () => {
    expect(shownMemberOf(column('n.actor_id')).sql).toContain('from users sm where sm.id = n.actor_id');
    expect(shownMemberOf(uuid('someone')).values).toEqual(['someone']);
  });
});
