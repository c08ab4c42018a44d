/**
 * One notification as the bell's popover and the notifications page show it: the actor's avatar
 * and name, what they did, a snippet of what was said (so two "mentioned you" lines can be told
 * apart), the time, and an unread mark. Opening it marks it read and goes where it leads
 * (useOpenNotification in list-queries.ts).
 *
 * A group (issue #49: likes or reposts of one post, or follows, of one day) is one row: up to
 * three stacked avatars and "alice and 3 others liked your post". Opening it reads the whole
 * group and shows everyone in it below the row (a disclosure, so it works inside the bell's
 * popover too), each name linking to their profile, with the post to go to.
 */
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans as TransMessage } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Handle } from '../../components/handle';
import { PagedList } from '../../components/paged-list';
import { RelativeTime } from '../../components/relative-time';
import { UserAvatar } from '../../components/user-avatar';
import { cn } from '../../lib/cn';
import { i18n as appI18n } from '../../lib/i18n';
import { useGroupActorsQuery } from './list-queries';
import { type NotificationItem, notificationTarget } from './queries';

export { type NotificationItem, notificationTarget } from './queries';

type Kind = NotificationItem['type'];

/**
 * The row's sentence for one actor, by kind: `{name}` is the actor (`@name` for a mention). The
 * server's `message` says the same words in English; the sentence is written here so that it is
 * translated whole. A removal and an ended poll name no one: their sentences are below, chosen by
 * the item's `removal` and `poll` (issue #50); the server's English `message` is never shown for
 * them.
 */
const SINGLE_SENTENCES: Partial<Record<Kind, MessageDescriptor>> = {
  like: msg`{name} liked your post`,
  comment: msg`{name} commented on your post`,
  follow: msg`{name} started following you`,
  mention: msg`{name} mentioned you`,
  repost: msg`{name} reposted your post`,
  quote: msg`{name} quoted your post`,
};

type RemovedItem = NonNullable<NotificationItem['removal']>['item'];

/**
 * A removal's sentence, by what was removed ('content' when the server did not say: an old
 * notification). It comes from the moderators as a body, never from one of them by name.
 */
const REMOVAL_SENTENCES: Record<RemovedItem | 'content', MessageDescriptor> = {
  post: msg`Moderators removed your post`,
  comment: msg`Moderators removed your comment`,
  message: msg`Moderators removed your message`,
  content: msg`Moderators removed your content`,
};

/** The moderator's reason under a removal's sentence: `{reason}` is theirs, as they wrote it. */
const REMOVAL_REASON = msg`Reason: {reason}`;

/** An ended poll's sentence: the recipient's own poll, or one they voted in. */
const POLL_ENDED_SENTENCES = {
  own: msg`Your poll has ended`,
  voted: msg`A poll you voted in has ended`,
};

/** The sentence of a kind that names no actor (a removal, an ended poll); null for the others. */
function unnamedSentence(item: NotificationItem): MessageDescriptor | null {
  if (item.type === 'poll_ended') return POLL_ENDED_SENTENCES[item.poll?.own ? 'own' : 'voted'];
  if (item.type === 'removal') return REMOVAL_SENTENCES[item.removal?.item ?? 'content'];
  return null;
}

/** The sentence of a group (issue #49), by kind: `{names}` is actorNames' "alice and 3 others". */
const GROUP_SENTENCES: Partial<Record<Kind, MessageDescriptor>> = {
  like: msg`{names} liked your post`,
  repost: msg`{names} reposted your post`,
  follow: msg`{names} followed you`,
};

/** The name of an opened group's list of actors, by kind. */
const GROUP_LISTS: Partial<Record<Kind, MessageDescriptor>> = {
  like: msg`People who liked your post`,
  repost: msg`People who reposted your post`,
  follow: msg`People who followed you`,
};

/** Whether the item stands for more than one actor (a group of likes, reposts or follows). */
export function isGroup(item: Pick<NotificationItem, 'type' | 'actorsCount'>): boolean {
  return item.actorsCount > 1 && GROUP_SENTENCES[item.type] !== undefined;
}

/**
 * Who did it, as the row says it: "alice" for one actor, "alice and bob" for two, "alice and 3
 * others" for more ("1 other" when only the newest is named).
 */
export function actorNames(
  item: Pick<NotificationItem, 'username' | 'actors' | 'actorsCount'>,
  i18n: I18n = appI18n,
): string {
  const first = item.actors[0]?.username ?? item.username;
  if (item.actorsCount <= 1) return first;
  const second = item.actors[1]?.username;
  if (item.actorsCount === 2 && second) return i18n._(msg`${first} and ${second}`);
  const others = item.actorsCount - 1;
  return i18n._(msg`${first} and ${plural(others, { one: '# other', other: '# others' })}`);
}

/**
 * The row's sentence as a message and its one value, the names (bold in the row); null for a line
 * the server wrote whole (a removal, an ended poll, a kind this app does not know yet).
 */
function sentenceOf(
  item: NotificationItem,
  i18n: I18n,
): { message: MessageDescriptor; key: 'name' | 'names'; names: string } | null {
  const group = isGroup(item) ? GROUP_SENTENCES[item.type] : undefined;
  if (group) return { message: group, key: 'names', names: actorNames(item, i18n) };
  const single = SINGLE_SENTENCES[item.type];
  if (!single) return null;
  return {
    message: single,
    key: 'name',
    names: item.type === 'mention' ? `@${item.username}` : item.username,
  };
}

/**
 * The row's sentence: SPEC's single lines for one actor, the group's for more; a removal's and an
 * ended poll's own (without a removal's reason, the row's second line).
 */
export function notificationSentence(item: NotificationItem, i18n: I18n = appI18n): string {
  const unnamed = unnamedSentence(item);
  if (unnamed) return i18n._(unnamed);
  const sentence = sentenceOf(item, i18n);
  // A kind this app does not know yet: the server's English line is all there is.
  if (!sentence) return `${item.username} ${item.message}`;
  const descriptor: MessageDescriptor = { ...sentence.message, values: { [sentence.key]: sentence.names } };
  return i18n._(descriptor);
}

function Avatars({ item }: { item: NotificationItem }) {
  if (!isGroup(item)) {
    return (
      <UserAvatar
        user={{ username: item.username, displayName: item.username, avatarUrl: item.userAvatar }}
        size={36}
        decorative
      />
    );
  }
  const shown = item.actors.slice(0, 3);
  return (
    <span data-testid="notification-avatars" className="flex shrink-0 -space-x-2 rtl:space-x-reverse">
      {shown.map((actor) => (
        <UserAvatar
          key={actor.id}
          user={actor}
          size={shown.length > 2 ? 28 : 32}
          decorative
          className="ring-2 ring-background"
        />
      ))}
    </span>
  );
}

function Sentence({ item }: { item: NotificationItem }) {
  const { i18n } = useLingui();
  const unnamed = unnamedSentence(item);
  if (unnamed) {
    // The whole line, no one named: 'Your poll has ended', 'Moderators removed your comment'.
    return <span className="font-semibold">{i18n._(unnamed)}</span>;
  }
  const sentence = sentenceOf(item, i18n);
  if (!sentence) {
    // A kind this app does not know yet: the server's English line.
    return (
      <span className="user-text">
        <span className="font-semibold">{item.username}</span> {item.message}
      </span>
    );
  }
  const names: ReactNode = <span className="font-semibold">{sentence.names}</span>;
  const values = { [sentence.key]: names };
  return (
    <span className="user-text">
      <TransMessage id={sentence.message.id} message={sentence.message.message} values={values} />
    </span>
  );
}

function RowBody({ item, expanded }: { item: NotificationItem; expanded?: boolean }) {
  const snippet = item.snippet;
  return (
    <>
      <Avatars item={item} />
      <span className="grid min-w-0 flex-1 gap-0.5 text-sm">
        <Sentence item={item} />
        {item.type === 'removal' && item.removal?.reason ? (
          <span data-testid="notification-reason" className="line-clamp-2 text-muted-foreground">
            <span className="sr-only">. </span>
            <TransMessage
              id={REMOVAL_REASON.id}
              message={REMOVAL_REASON.message}
              values={{ reason: <span className="user-text">{item.removal.reason}</span> }}
            />
          </span>
        ) : null}
        {snippet ? (
          <span data-testid="notification-snippet" className="user-text line-clamp-2 text-muted-foreground">
            <span className="sr-only">: </span>
            {/* Each language's own quotation marks (German „…“, Arabic «…»). */}
            <Trans context="quoting what was said">“{snippet}”</Trans>
          </span>
        ) : null}
        <RelativeTime date={item.timestamp} className="text-xs text-muted-foreground" />
      </span>
      {expanded !== undefined ? (
        <ChevronDown
          aria-hidden="true"
          className={cn(
            'mt-1 size-4 shrink-0 text-muted-foreground transition-transform',
            expanded && 'rotate-180',
          )}
        />
      ) : null}
      {!item.isRead ? (
        <span className="mt-1.5 flex shrink-0 items-center">
          <span aria-hidden="true" className="size-2.5 rounded-full bg-primary" />
          <span className="sr-only">
            <Trans>Unread</Trans>
          </span>
        </span>
      ) : null}
    </>
  );
}

const ROW_CLASS =
  'flex w-full items-start gap-3 px-4 py-3 text-start transition-colors hover:bg-accent focus-visible:bg-accent focus-visible:outline-none';

export function NotificationRow({
  item,
  onOpen,
  onRead,
  onLeave,
  className,
}: {
  item: NotificationItem;
  onOpen: (item: NotificationItem) => void;
  /** A group opened: read it without leaving (list-queries.ts's useReadNotification). */
  onRead?: (item: NotificationItem) => void;
  /** A link in an opened group was followed (the bell's popover closes). */
  onLeave?: () => void;
  className?: string;
}) {
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const unreadClass = !item.isRead && 'bg-primary/[0.07] dark:bg-primary/[0.12]';
  if (!isGroup(item)) {
    return (
      <button
        type="button"
        onClick={() => onOpen(item)}
        data-unread={!item.isRead || undefined}
        className={cn(ROW_CLASS, unreadClass, className)}
      >
        <RowBody item={item} />
      </button>
    );
  }
  const toggle = () => {
    if (!expanded && !item.isRead) (onRead ?? onOpen)(item);
    setExpanded(!expanded);
  };
  return (
    <div className={className}>
      <button
        type="button"
        onClick={toggle}
        aria-expanded={expanded}
        aria-controls={expanded ? listId : undefined}
        data-unread={!item.isRead || undefined}
        data-group={item.groupKey}
        className={cn(ROW_CLASS, unreadClass)}
      >
        <RowBody item={item} expanded={expanded} />
      </button>
      {expanded ? <GroupActors id={listId} item={item} onLeave={onLeave} /> : null}
    </div>
  );
}

/** Everyone in an opened group, newest first, paged; and where the group leads. */
export function GroupActors({
  id,
  item,
  onLeave,
}: {
  id?: string;
  item: NotificationItem;
  onLeave?: () => void;
}) {
  const { i18n, t } = useLingui();
  const query = useGroupActorsQuery(item.id);
  const list = GROUP_LISTS[item.type];
  const label = list ? i18n._(list) : notificationSentence(item, i18n);
  return (
    <div id={id} className="grid gap-2 border-t border-dashed bg-muted/40 px-4 py-3 ps-16">
      <PagedList
        query={query}
        label={label}
        loading={t`Loading...`}
        empty={
          <p className="text-sm text-muted-foreground">
            <Trans>No one to show.</Trans>
          </p>
        }
        listClassName="grid gap-2 divide-y-0"
        renderItem={(actor) => (
          <li key={actor.id} className="flex min-w-0 items-center gap-2">
            <UserAvatar user={actor} size={28} decorative />
            <Link
              to={`/profile/${encodeURIComponent(actor.username)}`}
              onClick={onLeave}
              className="user-text min-w-0 truncate text-sm font-semibold hover:underline"
            >
              {actor.displayName}
            </Link>
            <Handle
              username={actor.username}
              className="user-text min-w-0 truncate text-xs text-muted-foreground"
            />
          </li>
        )}
      />
      {item.type !== 'follow' && item.postId ? (
        <Link
          to={notificationTarget(item)}
          onClick={onLeave}
          className="w-fit text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          <Trans>View post</Trans>
        </Link>
      ) : null}
    </div>
  );
}
