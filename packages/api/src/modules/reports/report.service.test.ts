import { describe, expect, it } from 'vitest';
import { createMember, expectCode, UNKNOWN_ID, useDatabase, visitor } from '../../../test/harness.js';

const db = useDatabase();

async function reportRows(targetId: string) {
  return db.orm.em
    .fork()
    .execute<{ reporter_id: string; target_user_id: string; reason: string; status: string }[]>(
      'select reporter_id, target_user_id, reason, status from reports where target_id = ?',
      [targetId],
    );
}

describe('reports.create', () => {
  it('reports a post, a comment, a received message and a member, each about its author', async () => {
    const author = await createMember(db.orm);
    const reporter = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'spam spam spam' });
    const comment = await author.caller.comments.create({ postId: post.id, content: 'more spam' });
    const message = await author.caller.messages.send({ receiverId: reporter.user.id, content: 'buy now' });

    for (const [targetType, targetId] of [
      ['post', post.id],
      ['comment', comment.id],
      ['message', message.id],
      ['user', author.user.id],
    ] as const) {
      const { id } = await reporter.caller.reports.create({ targetType, targetId, reason: '  Spam  ' });
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await reportRows(targetId)).toEqual([
        { reporter_id: reporter.user.id, target_user_id: author.user.id, reason: 'Spam', status: 'open' },
      ]);
    }
  });

  it('takes one report per reporter and item: a repeat is 409, another reporter is welcome', async () => {
    const author = await createMember(db.orm);
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'hello' });
    await a.caller.reports.create({ targetType: 'post', targetId: post.id, reason: 'rude' });
    await expectCode(
      a.caller.reports.create({ targetType: 'post', targetId: post.id.toUpperCase(), reason: 'still rude' }),
      'CONFLICT',
      'You have already reported this',
    );
    await b.caller.reports.create({ targetType: 'post', targetId: post.id, reason: 'rude' });
    expect(await reportRows(post.id)).toHaveLength(2);
    // The same id as another kind of item is another item.
    await expectCode(
      a.caller.reports.create({ targetType: 'comment', targetId: post.id, reason: 'x' }),
      'NOT_FOUND',
      'Comment not found',
    );
  });

  it('refuses what the reporter cannot see, their own things, and bad reasons', async () => {
    const author = await createMember(db.orm);
    const other = await createMember(db.orm);
    const outsider = await createMember(db.orm);
    const message = await author.caller.messages.send({ receiverId: other.user.id, content: 'private' });
    await expectCode(
      outsider.caller.reports.create({ targetType: 'message', targetId: message.id, reason: 'x' }),
      'NOT_FOUND',
      'Message not found',
    );
    // The sender has nothing to report about their own message.
    await expectCode(
      author.caller.reports.create({ targetType: 'message', targetId: message.id, reason: 'x' }),
      'NOT_FOUND',
    );
    const { post } = await author.caller.posts.create({ content: 'mine' });
    await expectCode(
      author.caller.reports.create({ targetType: 'post', targetId: post.id, reason: 'x' }),
      'BAD_REQUEST',
      'You cannot report your own post',
    );
    await expectCode(
      author.caller.reports.create({ targetType: 'user', targetId: author.user.id, reason: 'x' }),
      'BAD_REQUEST',
      'You cannot report yourself',
    );
    for (const targetId of [UNKNOWN_ID, 'not-a-uuid']) {
      await expectCode(
        other.caller.reports.create({ targetType: 'user', targetId, reason: 'x' }),
        'NOT_FOUND',
      );
    }
    await expectCode(
      other.caller.reports.create({ targetType: 'post', targetId: post.id, reason: '   ' }),
      'BAD_REQUEST',
      'Say why you are reporting this',
    );
    await expectCode(
      other.caller.reports.create({ targetType: 'post', targetId: post.id, reason: 'x'.repeat(1001) }),
      'BAD_REQUEST',
      'A reason can be at most 1000 characters',
    );
    await expectCode(
      other.caller.reports.create({ targetType: 'post', targetId: post.id, reason: 'bad\u0000' }),
      'BAD_REQUEST',
      'Reason contains characters that are not allowed',
    );
    await expectCode(
      other.caller.reports.create({ targetType: 'video' as 'post', targetId: post.id, reason: 'x' }),
      'BAD_REQUEST',
    );
    // The limit counts UTF-16 units, as the web form does: 500 emoji are exactly 1000.
    await other.caller.reports.create({ targetType: 'post', targetId: post.id, reason: '😡'.repeat(500) });
    await expectCode(
      visitor(db.orm).reports.create({ targetType: 'post', targetId: post.id, reason: 'x' }),
      'UNAUTHORIZED',
    );
  });

  it('counts against the report rate limit', async () => {
    const author = await createMember(db.orm);
    const buckets: string[] = [];
    const reporter = await createMember(
      db.orm,
      {},
      {
        rateLimit: async (bucket) => {
          buckets.push(bucket);
          return bucket === 'report' && buckets.filter((b) => b === 'report').length > 1
            ? { allowed: false, retryAfterSeconds: 60 }
            : { allowed: true };
        },
      },
    );
    await reporter.caller.reports.create({ targetType: 'user', targetId: author.user.id, reason: 'one' });
    await expectCode(
      reporter.caller.reports.create({ targetType: 'user', targetId: author.user.id, reason: 'two' }),
      'TOO_MANY_REQUESTS',
    );
    expect(buckets).toEqual(['report', 'report']);
  });
});
