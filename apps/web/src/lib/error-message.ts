/** Toast descriptions for failed requests: the server's own words for client errors, else a fallback. */
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { TRPCClientError } from '@trpc/client';
import { isOnline } from './connectivity';
import { errorText } from './error-text';
import { serverMessage, serverReason } from './trpc';

/** tRPC error code of a server answer ('NOT_FOUND', 'TOO_MANY_REQUESTS'...), or null. */
export function errorCode(error: unknown): string | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data = error.data as { code?: unknown } | undefined;
  return typeof data?.code === 'string' ? data.code : null;
}

/**
 * What a request that failed without a network says (docs/web.md, "Installable app and offline"),
 * translated where it is shown (`i18n._(OFFLINE_MESSAGE)`).
 */
export const OFFLINE_MESSAGE: MessageDescriptor = msg`You're offline`;

/** The fallback when the server's words are of no use: 'Please try again', in the active language. */
export function tryAgainMessage(): string {
  return i18n._(msg`Please try again`);
}

/**
 * What to tell the user: a 4xx message from the server ('Too many requests, try again in a
 * minute', 'Post not found') is useful, in the app's words for its reason (lib/error-text.ts), or
 * the server's English when it has none; a request that failed because the browser has no network
 * says "You're offline"; a 500 or another failure gets `fallback` ('Please try again' unless given).
 */
export function describeError(error: unknown, fallback?: string): string {
  const otherwise = () => fallback ?? tryAgainMessage();
  const code = errorCode(error);
  if (!code && !isOnline()) return i18n._(OFFLINE_MESSAGE);
  if (!code || code === 'INTERNAL_SERVER_ERROR') return otherwise();
  const message = serverMessage(error);
  return message ? errorText(message, serverReason(error)) : otherwise();
}
