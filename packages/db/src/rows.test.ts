/**
 * Row<E> and AsText<R, K> are types only: these checks run in the type checker (`pnpm typecheck`
 * compiles the tests) and tell what a repository gets when it derives a row from an entity.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { IAiMedia, INotification, IPost, IUser, NotificationType, UserRole } from './entities/index.js';
import type { AsText, Row, SnakeCase } from './rows.js';

describe('Row<E>', () => {
  it('names columns in snake case', () => {
    expectTypeOf<SnakeCase<'likesCount'>>().toEqualTypeOf<'likes_count'>();
    expectTypeOf<SnakeCase<'id'>>().toEqualTypeOf<'id'>();
    expectTypeOf<SnakeCase<'suspendedUntil'>>().toEqualTypeOf<'suspended_until'>();
  });

  it('turns a many-to-one into its foreign key column', () => {
    expectTypeOf<Row<IPost>>().toHaveProperty('author_id').toEqualTypeOf<string>();
    expectTypeOf<Row<IPost>>().not.toHaveProperty('author');
    expectTypeOf<Row<IAiMedia>>().toHaveProperty('creator_id').toEqualTypeOf<string>();
    // A nullable reference is a nullable key.
    expectTypeOf<Row<INotification>['post_id']>().toEqualTypeOf<string | null>();
  });

  it('keeps scalar types, nullability and enum unions', () => {
    expectTypeOf<Row<IPost>['likes_count']>().toEqualTypeOf<number>();
    expectTypeOf<Row<IPost>['content']>().toEqualTypeOf<string>();
    expectTypeOf<Row<IPost>['created_at']>().toEqualTypeOf<Date>();
    expectTypeOf<Row<IPost>['removed_at']>().toEqualTypeOf<Date | null>();
    expectTypeOf<Row<IUser>['password_hash']>().toEqualTypeOf<string>();
    expectTypeOf<Row<IUser>['email_visible']>().toEqualTypeOf<boolean>();
    // An enum keeps MikroORM's brand on its literals; either way round they are the same values.
    expectTypeOf<Row<IUser>['role']>().toExtend<UserRole>();
    expectTypeOf<UserRole>().toExtend<Row<IUser>['role']>();
    expectTypeOf<Row<INotification>['type']>().toExtend<NotificationType>();
    expectTypeOf<NotificationType>().toExtend<Row<INotification>['type']>();
  });

  it('has every column, none optional', () => {
    expectTypeOf<keyof Row<IPost>>().toEqualTypeOf<
      | 'id'
      | 'author_id'
      | 'content'
      | 'content_warning'
      | 'image_url'
      | 'images'
      | 'likes_count'
      | 'comments_count'
      | 'reposts_count'
      | 'created_at'
      | 'edited_at'
      | 'removed_at'
      | 'pinned_at'
      | 'quote_of'
    >();
    expectTypeOf<Row<IPost>>().toExtend<Required<Row<IPost>>>();
  });

  it('has no property of the entity that is not a column', () => {
    expectTypeOf<Row<IPost>>().not.toHaveProperty('likesCount');
    expectTypeOf<Row<IPost>>().not.toHaveProperty('search_vector');
  });
});

describe('AsText<R, K>', () => {
  type PostRow = AsText<Row<IPost>, 'created_at' | 'removed_at'>;

  it('selects the named timestamps as ISO text, keeping their nullability', () => {
    expectTypeOf<PostRow['created_at']>().toEqualTypeOf<string>();
    expectTypeOf<PostRow['removed_at']>().toEqualTypeOf<string | null>();
  });

  it('leaves the other columns as they are', () => {
    expectTypeOf<PostRow['edited_at']>().toEqualTypeOf<Date | null>();
    expectTypeOf<PostRow['id']>().toEqualTypeOf<string>();
  });

  it('accepts only columns of the row', () => {
    // @ts-expect-error: `createdAt` is the entity's name, not the column's
    expectTypeOf<AsText<Row<IPost>, 'createdAt'>>().toBeObject();
  });
});
