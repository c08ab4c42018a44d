/**
 * The link cards' one way out to the web: a GET of a URL a member wrote, through the SSRF guard
 * (net/ssrf.guard.ts). Every hop is checked before it connects: http or https only, the host
 * resolved and every address public (not loopback, private, link-local, metadata…), and the
 * connection pinned to the checked address; a redirect is followed by hand, at most
 * MAX_REDIRECTS times, each new URL checked again. The whole fetch (DNS, redirects, body) has
 * FETCH_TIMEOUT_MS; the body is read up to `maxBytes` (a page is cut there, an image over it is
 * refused), and only the media types `accept` takes are read at all.
 */
import http from 'node:http';
import https from 'node:https';
import {
  type GuardOptions,
  isLocalhostName,
  pinnedLookup,
  RefusedEndpointError,
  resolvePublicTarget,
} from '../../net/ssrf.guard.js';

export const MAX_REDIRECTS = 5;
export const FETCH_TIMEOUT_MS = 5_000;
/** A page is read up to this; what follows is not parsed (the head is at the top). */
export const PAGE_MAX_BYTES = 1024 * 1024;

/** Why a fetch gave nothing: words for the log, never shown to members. */
export class LinkFetchError extends Error {
  override name = 'LinkFetchError';
}

export interface SafeFetchOptions {
  /** LINK_PREVIEW_ALLOW_PRIVATE=1 (tests): loopback and private addresses pass. */
  allowPrivate: boolean;
  /** The media types read (lower case, without parameters). */
  accept: (mediaType: string) => boolean;
  /** The request's Accept header. */
  acceptHeader: string;
  maxBytes: number;
  /** Past maxBytes: `cut` keeps what came (pages), `refuse` fails (images). */
  overLimit: 'cut' | 'refuse';
  timeoutMs?: number;
  maxRedirects?: number;
  resolve?: GuardOptions['resolve'];
}

export interface FetchedBody {
  /** The URL answered, after redirects. */
  url: URL;
  mediaType: string;
  /** The charset named in Content-Type, lower case, or null. */
  charset: string | null;
  body: Buffer;
  /** The body was longer than maxBytes and was cut. */
  cut: boolean;
}

const USER_AGENT = 'CubesLinkPreview/1.0 (+link cards)';

/**
 * Names that never serve a public page (RFC 2606, 6761, 6762, 7686, 8375 and ICANN's `.internal`):
 * refused without asking DNS, so a post naming `https://example.com` or `http://cubes.test` (as
 * tests and docs do) sends nothing out.
 */
const SPECIAL_USE_SUFFIXES = [
  'test',
  'example',
  'invalid',
  'localhost',
  'local',
  'onion',
  'internal',
  'home.arpa',
];
const EXAMPLE_DOMAINS = ['example.com', 'example.net', 'example.org'];

export function isSpecialUseName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  const under = (suffix: string) => name === suffix || name.endsWith(`.${suffix}`);
  return SPECIAL_USE_SUFFIXES.some(under) || EXAMPLE_DOMAINS.some(under);
}

function contentTypeOf(header: string | undefined): { mediaType: string; charset: string | null } {
  const [type = '', ...params] = (header ?? '').split(';');
  let charset: string | null = null;
  for (const param of params) {
    const [name, value] = param.split('=');
    if (name?.trim().toLowerCase() === 'charset' && value) {
      charset = value.trim().replace(/^"|"$/g, '').toLowerCase();
    }
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

/** Rejects once `signal` aborts; otherwise as `promise`. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new LinkFetchError('timed out'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function request(
  url: URL,
  lookup: ReturnType<typeof pinnedLookup>,
  options: SafeFetchOptions,
  signal: AbortSignal,
) {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'GET',
      lookup,
      signal,
      agent: false,
      headers: {
        'user-agent': USER_AGENT,
        accept: options.acceptHeader,
        'accept-encoding': 'identity',
      },
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

async function readBody(
  response: http.IncomingMessage,
  options: SafeFetchOptions,
): Promise<{ body: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response) {
      const buffer = chunk as Buffer;
      if (size + buffer.length > options.maxBytes) {
        if (options.overLimit === 'refuse') throw new LinkFetchError(`larger than ${options.maxBytes} bytes`);
        chunks.push(buffer.subarray(0, options.maxBytes - size));
        return { body: Buffer.concat(chunks), cut: true };
      }
      chunks.push(buffer);
      size += buffer.length;
    }
  } finally {
    response.destroy();
  }
  return { body: Buffer.concat(chunks), cut: false };
}

/** GETs `raw` under the rules above; throws LinkFetchError (or RefusedEndpointError) otherwise. */
export async function safeFetch(raw: string, options: SafeFetchOptions): Promise<FetchedBody> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS);
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  let current = raw;
  try {
    for (let hop = 0; ; hop++) {
      let host = '';
      try {
        host = new URL(current).hostname;
      } catch {
        // The guard says why.
      }
      // LINK_PREVIEW_ALLOW_PRIVATE lets `localhost` through (a test's page), no other such name.
      const local = options.allowPrivate && isLocalhostName(host);
      if (host && !local && isSpecialUseName(host)) {
        throw new RefusedEndpointError(`${host} is a special-use name`);
      }
      const target = await untilAborted(
        resolvePublicTarget(current, {
          allowPrivate: options.allowPrivate,
          allowHttp: true,
          ...(options.resolve ? { resolve: options.resolve } : {}),
        }),
        signal,
      );
      const response = await request(target.url, pinnedLookup(target), options, signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && status !== 304) {
        response.destroy();
        const location = response.headers.location;
        if (!location) throw new LinkFetchError(`redirect ${status} without a location`);
        if (hop >= maxRedirects) throw new LinkFetchError(`more than ${maxRedirects} redirects`);
        try {
          current = new URL(location, target.url).href;
        } catch {
          throw new LinkFetchError('redirect to something that is not a URL');
        }
        continue;
      }
      if (status < 200 || status >= 300) {
        response.destroy();
        throw new LinkFetchError(`answered ${status}`);
      }
      const { mediaType, charset } = contentTypeOf(response.headers['content-type']);
      if (!options.accept(mediaType)) {
        response.destroy();
        throw new LinkFetchError(`content type ${mediaType || '(none)'} is not taken`);
      }
      const length = Number(response.headers['content-length']);
      if (options.overLimit === 'refuse' && Number.isFinite(length) && length > options.maxBytes) {
        response.destroy();
        throw new LinkFetchError(`larger than ${options.maxBytes} bytes`);
      }
      const { body, cut } = await readBody(response, options);
      return { url: target.url, mediaType, charset, body, cut };
    }
  } catch (error) {
    if (error instanceof LinkFetchError || error instanceof RefusedEndpointError) throw error;
    if (signal.aborted) throw new LinkFetchError('timed out');
    throw new LinkFetchError((error as Error).message || 'the request failed');
  }
}
