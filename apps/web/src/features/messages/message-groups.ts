/**
 * How a thread reads as a conversation: messages from one sender a few minutes apart form a group
 * that shows one time, under its last message; "Seen" shows once, under the newest own message
 * the other member has read, and "Sent" once, under the newest own message when they have not read
 * it yet.
 */

/** Messages of one sender at most this far apart share a group (and its one time). */
export const GROUP_WINDOW_MS = 5 * 60_000;

export interface ThreadMessage {
  id: string;
  senderId: string;
  createdAt: Date;
  readAt: Date | null;
}

export interface PlacedMessage<M extends ThreadMessage> {
  message: M;
  mine: boolean;
  /** the first of its group: the thread leaves room above it */
  groupStart: boolean;
  /** the last of its group: its time shows under it */
  groupEnd: boolean;
  receipt: 'Seen' | 'Sent' | null;
}

function sameGroup(a: ThreadMessage, b: ThreadMessage): boolean {
  return a.senderId === b.senderId && b.createdAt.getTime() - a.createdAt.getTime() <= GROUP_WINDOW_MS;
}

/**
 * `messages` (oldest first) as `me` sees them. `pendingOwn`: own messages still being sent follow
 * them, so the newest own group goes on into those and its receipt waits for them.
 */
export function placeMessages<M extends ThreadMessage>(
  messages: readonly M[],
  me: string,
  pendingOwn = false,
): PlacedMessage<M>[] {
  let lastOwn: M | undefined;
  let lastSeen: M | undefined;
  for (const m of messages) {
    if (m.senderId !== me) continue;
    lastOwn = m;
    if (m.readAt) lastSeen = m;
  }
  return messages.map((message, i) => {
    const previous = messages[i - 1];
    const next = messages[i + 1];
    const mine = message.senderId === me;
    const groupEnd = next ? !sameGroup(message, next) : !(mine && pendingOwn);
    let receipt: PlacedMessage<M>['receipt'] = null;
    if (message === lastSeen) receipt = 'Seen';
    else if (message === lastOwn && !pendingOwn) receipt = 'Sent';
    return { message, mine, groupStart: !previous || !sameGroup(previous, message), groupEnd, receipt };
  });
}
