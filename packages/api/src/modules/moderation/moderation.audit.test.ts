import { describe, expect, it } from 'vitest';
import { toLogEntry } from './moderation.audit.js';
import { moderationLogEntrySchema } from './moderation.schema.js';

describe('toLogEntry', () => {
  it('turns an audit row into the log entry its schema describes', () => {
    const entry = toLogEntry({
      id: '3f2c0d8e-0000-4000-8000-000000000001',
      action: 'suspend',
      moderator_username: 'mod',
      target_type: 'user',
      target_id: '3f2c0d8e-0000-4000-8000-000000000002',
      target_username: 'bob',
      note: 'spam',
      suspended_until: '2026-12-01T10:00:00.123456Z',
      created_at: '2026-11-24T10:00:00.000001Z',
    });
    expect(moderationLogEntrySchema.parse(entry)).toEqual(entry);
    expect(entry).toMatchObject({ moderatorUsername: 'mod', targetUsername: 'bob', action: 'suspend' });
    expect(entry.suspendedUntil?.toISOString()).toBe('2026-12-01T10:00:00.123Z');
    expect(toLogEntry({ ...rowWithoutEnd(), suspended_until: null }).suspendedUntil).toBeNull();
  });
});

function rowWithoutEnd() {
  return {
    id: '3f2c0d8e-0000-4000-8000-000000000003',
    action: 'dismiss' as const,
    moderator_username: 'mod',
    target_type: 'post' as const,
    target_id: '3f2c0d8e-0000-4000-8000-000000000004',
    target_username: 'carol',
    note: '',
    created_at: '2026-11-24T10:00:00.000001Z',
  };
}
