import { describe, expect, it } from 'vitest';
import { memberRowDeletions } from './deletion.repository.js';

describe('memberRowDeletions', () => {
  it('deletes table by table, each statement naming the member once per column', () => {
    const id = '3f2c0d8e-0000-4000-8000-000000000001';
    const deletions = memberRowDeletions(id);
    expect(deletions.map((d) => d.sql)).toEqual([
      'delete from notifications where actor_id = ? or recipient_id = ?',
      'delete from likes where user_id = ?',
      'delete from reposts where user_id = ?',
      'delete from bookmarks where user_id = ?',
      'delete from comments where author_id = ?',
      'delete from posts where author_id = ?',
      'delete from follows where follower_id = ? or followee_id = ?',
      'delete from favorites where user_id = ?',
      'delete from ai_media where creator_id = ?',
      'delete from chat_sessions where owner_id = ?',
      'delete from password_resets where user_id = ?',
      'delete from uploaded_objects where owner_id = ?',
      'delete from account_exports where user_id = ?',
      'delete from sessions where user_id = ?',
      'delete from blocks where blocker_id = ? or blocked_id = ?',
      'delete from mutes where muter_id = ? or muted_id = ?',
      'delete from push_subscriptions where user_id = ?',
      'delete from push_preferences where user_id = ?',
      'delete from reports where reporter_id = ? or target_user_id = ?',
    ]);
    for (const d of deletions) expect(d.values.every((v) => v === id)).toBe(true);
  });
});
