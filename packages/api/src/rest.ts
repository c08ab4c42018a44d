/**
 * The REST table: every module's rows (modules/<domain>/<name>.rest.ts), collected as root.ts
 * collects the routers and in the same order. The server's REST adapter (apps/server/src/rest/)
 * serves them and describes them in the OpenAPI document at GET /api/openapi.json. The moderation
 * procedures have no rows: docs/api.md lists them among the tRPC-only ones.
 */
import { accountRest } from './modules/account/account.rest.js';
import { authRest } from './modules/auth/auth.rest.js';
import { bookmarksRest } from './modules/bookmarks/bookmark.rest.js';
import { commentsRest } from './modules/comments/comment.rest.js';
import { cubeyRest } from './modules/cubey/cubey.rest.js';
import { followsRest } from './modules/follows/follow.rest.js';
import { galleryRest } from './modules/gallery/gallery.rest.js';
import { healthRest } from './modules/health/health.rest.js';
import { linkCardsRest } from './modules/link-cards/link-card.rest.js';
import { mentionsRest } from './modules/mentions/mention.rest.js';
import { messagesRest } from './modules/messages/message.rest.js';
import { notificationsRest } from './modules/notifications/notification.rest.js';
import { objectsRest } from './modules/objects/objects.rest.js';
import { pollsRest } from './modules/polls/poll.rest.js';
import { postsRest } from './modules/posts/post.rest.js';
import { pushRest } from './modules/push/push.rest.js';
import { reportsRest } from './modules/reports/report.rest.js';
import { repostsRest } from './modules/reposts/repost.rest.js';
import { safetyRest } from './modules/safety/safety.rest.js';
import { searchRest } from './modules/search/search.rest.js';
import { sessionsRest } from './modules/sessions/sessions.rest.js';
import { settingsRest } from './modules/settings/settings.rest.js';
import { tagsRest } from './modules/tags/tag.rest.js';
import { usersRest } from './modules/users/user.rest.js';
import type { RestRow } from './rest-rows.js';

export const restRows = [
  ...accountRest,
  ...authRest,
  ...bookmarksRest,
  ...pollsRest,
  ...commentsRest,
  ...cubeyRest,
  ...followsRest,
  ...galleryRest,
  ...healthRest,
  ...linkCardsRest,
  ...mentionsRest,
  ...messagesRest,
  ...notificationsRest,
  ...objectsRest,
  ...postsRest,
  ...repostsRest,
  ...pushRest,
  ...safetyRest,
  ...reportsRest,
  ...searchRest,
  ...sessionsRest,
  ...settingsRest,
  ...tagsRest,
  ...usersRest,
] as const satisfies readonly RestRow[];
