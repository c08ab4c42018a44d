/**
 * Avatars, banners and post images are our own uploads only: the migration that made it so
 * clears the URLs of other sites members had set before (viewers' browsers would fetch them),
 * keeps uploads, and from then on the database refuses anything but an `/objects/` path, however
 * it is written.
 */
import { describe, expect, it } from 'vitest';
import { createMember, publicObject, useDatabase } from '../../../test/harness.js';

const MIGRATION = 'Migration20261126040000LocalProfileImages';

const db = useDatabase();

const sql = <T>(text: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(text, params);

describe(MIGRATION, () => {
  it('clears the remote images set before it, keeps uploads, and then refuses remote ones', async () => {
    const migrator = db.orm.getMigrator();
    await migrator.down({ migrations: [MIGRATION] });

    // As a database from before it may hold.
    const remote = await createMember(db.orm);
    const local = await createMember(db.orm);
    const upload = await publicObject(db.orm, local.user.id);
    await sql(
      `update users set avatar_url = 'https://tracker.example/a.png', header_url = 'http://10.0.0.1/b.png' where id = ?`,
      [remote.user.id],
    );
    await sql('update users set avatar_url = ?, header_url = ? where id = ?', [
      upload,
      upload,
      local.user.id,
    ]);
    const { post } = await local.caller.posts.create({ content: 'with an old image' });
    await sql(`update posts set image_url = 'https://tracker.example/p.png' where id = ?`, [post.id]);

    await migrator.up({ migrations: [MIGRATION] });

    const images = async (id: string) =>
      (
        await sql<{ avatar_url: string | null; header_url: string | null }>(
          'select avatar_url, header_url from users where id = ?',
          [id],
        )
      )[0];
    expect(await images(remote.user.id)).toEqual({ avatar_url: null, header_url: null });
    expect(await images(local.user.id)).toEqual({ avatar_url: upload, header_url: upload });
    expect(
      (await sql<{ image_url: string | null }>('select image_url from posts where id = ?', [post.id]))[0],
    ).toEqual({ image_url: null });
    // The profile shows the generated avatar and default banner now.
    expect((await local.caller.users.byUsername({ username: remote.user.username })).user).toMatchObject({
      avatarUrl: null,
      headerUrl: null,
    });

    for (const [table, column, id] of [
      ['users', 'avatar_url', remote.user.id],
      ['users', 'header_url', remote.user.id],
      ['posts', 'image_url', post.id],
    ] as const) {
      await expect(
        sql(`update ${table} set ${column} = 'https://tracker.example/x.png' where id = ?`, [id]),
        `${table}.${column}`,
      ).rejects.toThrow(/check constraint/);
    }
  });
});
