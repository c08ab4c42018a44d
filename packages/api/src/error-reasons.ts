/**
 * The stable reason of every fixed English message the API answers with: `reason` beside
 * `message` in an error's body over REST and in `data` over tRPC, top level and per issue
 * (docs/api.md, "Errors"). `message` stays the English text for any client; `reason` is what a
 * client keys its own words on (the web app translates each one, apps/web/src/lib/error-reasons.ts).
 *
 * One table holds each message once: the services, the zod schemas and the server's own answers
 * take their text from `ERROR_REASONS.X`, so a reason never drifts from its message. Messages
 * built from constants (`Post must be at most 2000 characters`) are fixed when the module loads
 * and have a reason; the limits not in rules.ts are written out here and checked against their
 * schemas by error-reasons.test.ts. A message that varies per request has no reason, and clients
 * show the English message: a suspension's end date, Cubey's daily token limit (its reset time),
 * a configured number of running answers or provider timeout, the AI provider's own refusals, a poll's choice range or a post's image count beyond
 * one, a push service's refusal, an unknown path or method, the configured body limit, and the
 * generic texts of errors we did not write (tRPC's, zod's defaults, the HTTP status names).
 * error-reasons.test.ts reads the sources and fails on a message outside this table that is not
 * one of those.
 *
 * No imports but constants: the web app loads it for client-side validation messages.
 */
import {
  COMMENT_MAX_LENGTH,
  CONTENT_WARNING_MAX,
  IMAGE_ALT_MAX_LENGTH,
  POLL_MINUTES_MIN,
  POLL_OPTION_MAX_LENGTH,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
  POST_IMAGES_MAX,
  POST_MAX_LENGTH,
} from './rules.js';

/** A `text()` field's refusal (text.ts): "Post contains characters that are not allowed". */
const notAllowed = <L extends string>(label: L) =>
  `${label} contains characters that are not allowed` as const;

export const ERROR_REASONS = {
  // Any call
  LOGIN_REQUIRED: 'You need to be logged in',
  TOO_MANY_REQUESTS: 'Too many requests, please try again later',
  DATABASE_UNAVAILABLE: 'The database is unavailable right now; please try again shortly',
  INTERNAL_ERROR: 'Internal server error',
  INPUT_NOT_JSON: 'Input is not valid JSON',
  TOO_MANY_SUBSCRIPTIONS: 'At most 32 live subscriptions per connection',
  NOT_FOUND: 'Not found',
  INVALID_CURSOR: 'Invalid cursor',
  CURSOR_NOT_ALLOWED_CHARACTERS: notAllowed('Cursor'),
  LIMIT_NOT_A_NUMBER: 'Limit must be a number',
  LIMIT_NOT_WHOLE: 'Limit must be a whole number',
  PAGE_LIMIT_OUT_OF_RANGE: 'Limit must be between 1 and 50',
  SUGGESTION_LIMIT_OUT_OF_RANGE: 'Limit must be between 1 and 20',
  EVENT_ID_INVALID: 'Invalid event id',
  EVENT_ID_NOT_ALLOWED_CHARACTERS: notAllowed('Event id'),
  ID_REQUIRED: 'Id is required',
  ID_TOO_LONG: 'Id is too long',
  ID_NOT_ALLOWED_CHARACTERS: notAllowed('Id'),

  // The server's own answers (apps/server)
  BODY_NOT_JSON: 'Request body is not valid JSON',
  BODY_EMPTY: 'Request body is empty but its content type says JSON',
  BODY_LENGTH_MISMATCH: 'Request body does not match its Content-Length',
  UNSUPPORTED_CONTENT_TYPE: 'Unsupported content type: send JSON',
  URL_MALFORMED: 'The request URL is malformed',
  PATH_PART_TOO_LONG: 'A part of the request path is too long',
  HEADERS_TOO_LARGE: 'Request URL or headers are too large',
  REQUEST_TIMEOUT: 'Request took too long to arrive',
  MALFORMED_REQUEST: 'Malformed HTTP request',
  SUBSCRIPTIONS_NEED_SOCKET: 'Subscriptions are served over the WebSocket at /trpc',
  WEBSOCKET_ONLY: 'This address accepts WebSocket connections only',
  CROSS_ORIGIN_REFUSED: 'Cross-origin request refused',
  INVALID_HOST: 'The Host header is not a valid host',
  BATCH_TOO_LARGE: 'A batch may hold at most 10 calls',
  SOCKET_MESSAGE_TOO_LARGE: 'A socket message may hold at most 32 calls',
  FEED_NOT_FOUND: 'Feed not found',
  SITEMAP_NOT_FOUND: 'Sitemap not found',
  EXPORT_NOT_FOUND: 'Export not found',
  OBJECT_NOT_FOUND: 'Object not found',
  UPLOAD_URL_INVALID: 'Upload URL is invalid or expired',
  UPLOAD_URL_USED: 'This upload URL has already been used',
  UPLOAD_BUSY: 'Another upload to this URL is in progress',
  UPLOAD_INTERRUPTED: 'The upload was interrupted',
  UPLOAD_TOO_LARGE: 'File is larger than 5 MB',

  // Accounts, login, settings
  USERNAME_TAKEN: 'Username is already taken',
  EMAIL_TAKEN: 'Email is already registered',
  INVALID_CREDENTIALS: 'Invalid email or password',
  INVALID_CODE: 'Invalid or expired code',
  WRONG_PASSWORD: 'Password is incorrect',
  WRONG_CURRENT_PASSWORD: 'Current password is incorrect',
  SAME_EMAIL: 'That is already your email address',
  LANGUAGE_INVALID: 'Choose English, Deutsch or العربية',
  PASSWORD_REQUIRED: 'Password is required',
  PASSWORD_TOO_SHORT: 'Must be at least 6 characters',
  PASSWORD_TOO_LONG: 'Must be at most 128 characters',
  PASSWORD_NOT_ALLOWED_CHARACTERS: notAllowed('Password'),
  CURRENT_PASSWORD_REQUIRED: 'Current password is required',
  CURRENT_PASSWORD_NOT_ALLOWED_CHARACTERS: notAllowed('Current password'),
  EMAIL_REQUIRED: 'Email is required',
  EMAIL_TOO_LONG: 'Email is too long',
  EMAIL_INVALID: 'Enter a valid email address',
  EMAIL_NOT_ALLOWED_CHARACTERS: notAllowed('Email'),
  USERNAME_REQUIRED: 'Username is required',
  USERNAME_TOO_SHORT: 'Username must be at least 3 characters',
  USERNAME_TOO_LONG: 'Username must be at most 30 characters',
  USERNAME_INVALID: 'Username may contain only letters, digits and _',
  USERNAME_NOT_ALLOWED_CHARACTERS: notAllowed('Username'),
  DISPLAY_NAME_REQUIRED: 'Display name is required',
  DISPLAY_NAME_TOO_LONG: 'Display name must be at most 50 characters',
  DISPLAY_NAME_NOT_ALLOWED_CHARACTERS: notAllowed('Display name'),
  CODE_REQUIRED: 'Code is required',
  CODE_INVALID_FORMAT: 'Code must be 6 digits',
  CODE_NOT_ALLOWED_CHARACTERS: notAllowed('Code'),
  BIO_NOT_TEXT: 'Bio must be text',
  BIO_TOO_LONG: 'Bio must be at most 500 characters',
  BIO_NOT_ALLOWED_CHARACTERS: notAllowed('Bio'),
  IMAGE_NOT_UPLOADED: 'Must be an image you uploaded',
  URL_TOO_LONG: 'URL is too long',
  URL_NOT_ALLOWED_CHARACTERS: notAllowed('URL'),
  AVATAR_NOT_YOURS: 'Profile picture must be an image you uploaded',
  BANNER_NOT_YOURS: 'Banner must be an image you uploaded',
  EMAIL_VISIBLE_NOT_BOOLEAN: 'emailVisible must be true or false',
  SHOW_CONTENT_WARNINGS_NOT_BOOLEAN: 'alwaysShowContentWarnings must be true or false',
  SHOW_SENSITIVE_MEDIA_NOT_BOOLEAN: 'alwaysShowSensitiveMedia must be true or false',
  MESSAGES_FROM_INVALID: "messagesFrom must be 'everyone', 'following' or 'nobody'",
  SESSION_NOT_FOUND: 'Session not found',
  ACCOUNT_SUSPENDED: 'This account has been suspended',

  // Members
  USER_NOT_FOUND: 'User not found',
  CANNOT_FOLLOW_SELF: 'You cannot follow yourself',
  CANNOT_FOLLOW_BLOCKED: 'You cannot follow this user',
  CANNOT_BLOCK_SELF: 'You cannot block yourself',
  CANNOT_MUTE_SELF: 'You cannot mute yourself',
  MENTION_QUERY_TOO_LONG: 'Query must be at most 30 characters',
  MENTION_QUERY_INVALID: 'Query may contain only letters, digits and _',

  // Posts, images, comments
  POST_NOT_FOUND: 'Post not found',
  POST_EMPTY: 'Post cannot be empty',
  POST_TOO_LONG: `Post must be at most ${POST_MAX_LENGTH} characters`,
  POST_NOT_ALLOWED_CHARACTERS: notAllowed('Post'),
  QUOTED_POST_UNAVAILABLE: 'The post you quote is unavailable',
  FOLLOWING_NEEDS_LOGIN: 'Log in to see the posts of people you follow',
  EDIT_WINDOW_PASSED: 'Posts can only be edited in the first 15 minutes',
  TOO_MANY_PINS: 'You can pin up to 3 posts',
  FEED_SCOPE_INVALID: 'Scope must be everyone or following',
  CONTENT_WARNING_NOT_TEXT: 'Content warning must be text',
  CONTENT_WARNING_TOO_LONG: `A content warning must be at most ${CONTENT_WARNING_MAX} characters`,
  CONTENT_WARNING_NOT_ALLOWED_CHARACTERS: notAllowed('Content warning'),
  IMAGES_NOT_LIST: 'Images must be a list',
  IMAGES_EMPTY: 'Images must hold at least one image',
  TOO_MANY_IMAGES: `A post holds at most ${POST_IMAGES_MAX} images`,
  IMAGE_TWICE: 'The same image is attached twice',
  IMAGES_AND_IMAGE_URL: 'Send images or imageUrl, not both',
  LINK_CARD_NOT_BOOLEAN: 'linkCard must be true or false',
  IMAGE_DESCRIPTION_TOO_LONG: `An image description must be at most ${IMAGE_ALT_MAX_LENGTH} characters`,
  IMAGE_DESCRIPTION_NOT_ALLOWED_CHARACTERS: notAllowed('Image description'),
  DESCRIPTIONS_NOT_LIST: 'Descriptions must be a list',
  SENSITIVE_NOT_BOOLEAN: 'sensitive must be true or false',
  SENSITIVE_NOT_LIST: 'sensitive must be a list of true or false',
  NO_IMAGES_TO_DESCRIBE: 'This post has no images to describe',
  ONE_DESCRIPTION_EXPECTED: 'This post has 1 image: send 1 description',
  NO_IMAGES_TO_MARK: 'This post has no images to mark sensitive',
  ONE_SENSITIVE_FLAG_EXPECTED: 'This post has 1 image: send 1 sensitive flag',
  IMAGE_URL_INVALID: 'Invalid image URL',
  IMAGE_URL_NOT_ALLOWED_CHARACTERS: notAllowed('Image URL'),
  IMAGE_PATH_INVALID: 'Invalid image path',
  IMAGE_PATH_NOT_ALLOWED_CHARACTERS: notAllowed('Image path'),
  COMMENT_NOT_FOUND: 'Comment not found',
  COMMENT_EMPTY: 'Comment cannot be empty',
  COMMENT_TOO_LONG: `Comment must be at most ${COMMENT_MAX_LENGTH} characters`,
  COMMENT_NOT_ALLOWED_CHARACTERS: notAllowed('Comment'),

  // Uploads
  UPLOAD_NOT_FOUND: 'Upload not found',
  INVALID_IMAGE: 'Only PNG, JPEG, GIF or WebP images up to 5 MB are allowed',
  IMAGE_NOT_FOUND: 'Image not found: upload it first',
  UPLOAD_IN_PROGRESS: 'The upload is still in progress: publish it once it has finished',
  UPLOAD_BEING_PUBLISHED: 'The upload is already being published',
  OBJECT_PATH_INVALID: 'objectPath must be an uploaded image path',
  OBJECT_PATH_NOT_ALLOWED_CHARACTERS: notAllowed('objectPath'),
  IMAGE_URL_REQUIRED: 'imageURL is required',
  IMAGE_URL_TOO_LONG: 'imageURL is too long',
  IMAGE_URL_FIELD_NOT_ALLOWED_CHARACTERS: notAllowed('imageURL'),
  VISIBILITY_INVALID: "visibility must be 'public'",

  // Polls
  POLL_NOT_FOUND: 'Poll not found',
  POLL_ENDED: 'This poll has ended',
  ALREADY_VOTED: 'You already voted in this poll',
  ONE_CHOICE_ONLY: 'This poll takes one choice',
  POLL_NOT_OBJECT: 'A poll must be an object',
  POLL_OPTIONS_NOT_LIST: 'Poll options must be a list',
  POLL_TOO_FEW_OPTIONS: `A poll needs at least ${POLL_OPTIONS_MIN} options`,
  POLL_TOO_MANY_OPTIONS: `A poll has at most ${POLL_OPTIONS_MAX} options`,
  POLL_OPTIONS_NOT_DIFFERENT: 'Poll options must all be different',
  POLL_OPTION_NOT_TEXT: 'A poll option must be text',
  POLL_OPTION_EMPTY: 'A poll option cannot be empty',
  POLL_OPTION_TOO_LONG: `A poll option must be at most ${POLL_OPTION_MAX_LENGTH} characters`,
  POLL_OPTION_NOT_ALLOWED_CHARACTERS: notAllowed('A poll option'),
  POLL_DURATION_NOT_WHOLE: 'The poll’s duration must be a whole number of minutes',
  POLL_TOO_SHORT: `A poll runs at least ${POLL_MINUTES_MIN} minutes`,
  POLL_TOO_LONG: 'A poll runs at most 7 days',
  POLL_MULTIPLE_NOT_BOOLEAN: 'multiple must be true or false',
  CHOICES_NOT_LIST: 'Choices must be a list of option indexes',
  CHOICE_INVALID: 'A choice must be an option’s index',
  CHOICE_REQUIRED: 'Choose at least one option',
  CHOICE_TWICE: 'An option is chosen twice',

  // Messages
  MESSAGE_NOT_FOUND: 'Message not found',
  MESSAGE_EMPTY: 'Message cannot be empty',
  MESSAGE_TOO_LONG: 'Message must be at most 2000 characters',
  MESSAGE_NOT_ALLOWED_CHARACTERS: notAllowed('Message'),
  CANNOT_MESSAGE_SELF: 'You cannot message yourself',
  NOT_ACCEPTING_MESSAGES: 'This user does not accept messages from you',
  CLIENT_ID_REUSED: 'This clientId was already used for a message to someone else',
  CLIENT_ID_NOT_TEXT: 'Client id must be text',
  CLIENT_ID_INVALID_LENGTH: 'Client id must be 1 to 64 characters',
  CLIENT_ID_NOT_ALLOWED_CHARACTERS: notAllowed('Client id'),
  ACTIVE_NOT_BOOLEAN: 'active must be true or false',

  // Cubey
  CHAT_NOT_FOUND: 'Chat session not found',
  CUBEY_ANSWERING: 'Cubey is still answering: wait for the answer or stop it',
  ONLY_LAST_MESSAGE_EDITABLE: 'Only your last message can be edited',
  ONLY_LAST_MESSAGE_VERSIONS: 'Only the versions of your last message can be switched',
  NOTHING_TO_REGENERATE: 'There is no answer to regenerate',
  AI_PROVIDER_FAILED: 'The AI provider failed',
  AI_PROVIDER_UNREACHABLE: 'The AI provider could not be reached',
  AI_PROVIDER_MALFORMED_STREAM: 'The AI provider sent a malformed stream',
  AI_PROVIDER_ENDED_EARLY: 'The AI provider ended the answer early',
  AI_PROVIDER_NO_TITLE: 'The AI provider sent no title',
  ANSWER_ABANDONED: 'The server answering stopped before the end; please try again',
  CUBEY_MESSAGE_TOO_LONG: 'Message must be at most 4000 characters',
  TITLE_EMPTY: 'Title cannot be empty',
  TITLE_TOO_LONG: 'Title must be at most 120 characters',
  TITLE_NOT_ALLOWED_CHARACTERS: notAllowed('Title'),

  // Search, tags, gallery
  QUERY_TOO_LONG: 'Query must be at most 200 characters',
  QUERY_NOT_ALLOWED_CHARACTERS: notAllowed('Query'),
  TAG_REQUIRED: 'Tag is required',
  TAG_INVALID: 'Tag may contain only letters, digits and _',
  TAG_TOO_LONG: 'Tag must be at most 64 characters',
  TAG_NOT_ALLOWED_CHARACTERS: notAllowed('Tag'),
  MEDIA_NOT_FOUND: 'Media not found',
  GALLERY_TYPE_INVALID: 'Type must be all, art, music, fun or video',
  FILTER_TOO_LONG: 'Filter must be at most 50 characters',
  FILTER_NOT_ALLOWED_CHARACTERS: notAllowed('Filter'),

  // Notifications and push
  NOTIFICATION_NOT_FOUND: 'Notification not found',
  NOTIFICATION_FILTER_INVALID: "filter must be 'all' or 'mentions'",
  PUSH_NOT_SET_UP: 'Push notifications are not set up on this server',
  PUSH_ENDPOINT_TAKEN:
    'This push endpoint is registered to another member; it can be registered again once they remove it',
  ENDPOINT_REQUIRED: 'Endpoint is required',
  ENDPOINT_TOO_LONG: 'Endpoint is too long',
  ENDPOINT_NOT_HTTP: 'Endpoint must be an http(s) URL',
  ENDPOINT_NOT_ALLOWED_CHARACTERS: notAllowed('Endpoint'),
  PUSH_KEY_NOT_BASE64URL: 'p256dh must be base64url',
  PUSH_KEY_WRONG_SIZE: 'p256dh must hold 65 bytes',
  PUSH_KEY_NOT_ALLOWED_CHARACTERS: notAllowed('p256dh'),
  PUSH_AUTH_NOT_BASE64URL: 'auth must be base64url',
  PUSH_AUTH_WRONG_SIZE: 'auth must hold 16 bytes',
  PUSH_AUTH_NOT_ALLOWED_CHARACTERS: notAllowed('auth'),
  NOTHING_TO_CHANGE: 'Nothing to change',

  // Reports and moderation
  REPORT_REASON_REQUIRED: 'Say why you are reporting this',
  ALREADY_REPORTED: 'You have already reported this',
  CANNOT_REPORT_SELF: 'You cannot report yourself',
  CANNOT_REPORT_OWN_POST: 'You cannot report your own post',
  CANNOT_REPORT_OWN_COMMENT: 'You cannot report your own comment',
  CANNOT_REPORT_OWN_MESSAGE: 'You cannot report your own message',
  REPORT_NOT_FOUND: 'Report not found',
  REPORT_CLOSED: 'This report is already closed',
  REASON_REQUIRED: 'Give a reason',
  REASON_TOO_LONG: 'A reason can be at most 1000 characters',
  REASON_NOT_ALLOWED_CHARACTERS: notAllowed('Reason'),
  NOTE_TOO_LONG: 'A note can be at most 1000 characters',
  NOTE_NOT_ALLOWED_CHARACTERS: notAllowed('Note'),
  MEMBER_CANNOT_BE_REMOVED: 'A member cannot be removed; suspend them instead',
  CANNOT_SUSPEND_SELF: 'You cannot suspend yourself',
  CANNOT_SUSPEND_MODERATOR: 'A moderator cannot be suspended',
  REPORT_ABOUT_SOMEONE_ELSE: 'That report is about someone else',
  NOT_SUSPENDED: 'This member is not suspended',
  SUSPENSION_DAYS_NOT_WHOLE: 'Days must be a whole number',
  SUSPENSION_TOO_SHORT: 'A suspension lasts at least a day',
  SUSPENSION_TOO_LONG: 'At most 3650 days; choose "for ever" for longer',
} as const;

/** A stable reason: `POST_NOT_FOUND`, `USERNAME_TAKEN`, … */
export type ErrorReason = keyof typeof ERROR_REASONS;

const byMessage = new Map<string, ErrorReason>(
  Object.entries(ERROR_REASONS).map(([reason, message]) => [message, reason as ErrorReason]),
);

/** The reason of an English message the API answers with, or undefined when it has none. */
export function reasonOf(message: string): ErrorReason | undefined {
  return byMessage.get(message);
}
