/**
 * The guard of server-side requests to URLs a member chose (a browser's push endpoint): only
 * `https:` to public addresses. The host name is resolved here, every address it resolves to must
 * be public (not loopback, private, link-local, CGNAT, metadata, multicast, documentation,
 * reserved or unspecified, in IPv4 and IPv6, IPv4-mapped and NAT64/6to4/Teredo forms included),
 * and the request then connects to the very address that was checked (`pinnedLookup`), so a DNS
 * answer that changes between the check and the connection (DNS rebinding) cannot redirect it.
 * The caller follows no redirects. `allowPrivate` (PUSH_ALLOW_PRIVATE_ENDPOINTS=1, tests only)
 * lets `http:` and private addresses through, to reach a push service on 127.0.0.1.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';

/** Why a URL was refused, in words a log can carry. */
export class RefusedEndpointError extends Error {
  override name = 'RefusedEndpointError';
}

/** [first address, prefix length] of each IPv4 range that is not a public unicast address. */
const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT (also Alibaba's metadata at 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata at 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (192.0.0.192 is Oracle's metadata)
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

/** [first address, prefix length] of IPv6 ranges inside 2000::/3 that are not public unicast. */
const V6_BLOCKED_IN_GLOBAL: [string, number][] = [
  ['2001::', 23], // IETF protocol assignments, Teredo (2001::/32) included
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an IPv4 address of any kind
  ['3fff::', 20], // documentation (RFC 9637)
];

function v4ToBigInt(address: string): bigint {
  return address.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

/** The 128-bit value of an IPv6 address, `::` and a trailing dotted IPv4 part included. */
function v6ToBigInt(address: string): bigint {
  let text = address.split('%')[0] ?? '';
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1]) {
    const v4 = v4ToBigInt(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const parts = tail === undefined ? headParts : [...headParts, ...Array(missing).fill('0'), ...tailParts];
  return parts.reduce((n, part) => (n << 16n) | BigInt(Number.parseInt(part, 16)), 0n);
}

function inRange(value: bigint, bits: number, first: bigint, prefix: number): boolean {
  const shift = BigInt(bits - prefix);
  return value >> shift === first >> shift;
}

const V4_RANGES = V4_BLOCKED.map(([first, prefix]) => [v4ToBigInt(first), prefix] as const);
const V6_RANGES = V6_BLOCKED_IN_GLOBAL.map(([first, prefix]) => [v6ToBigInt(first), prefix] as const);
const GLOBAL_UNICAST = v6ToBigInt('2000::');
const NAT64 = v6ToBigInt('64:ff9b::');
const MAPPED_PREFIX = 0xffffn;

function isPublicV4Value(value: bigint): boolean {
  return !V4_RANGES.some(([first, prefix]) => inRange(value, 32, first, prefix));
}

/**
 * True for a public unicast address, one a server may connect to on a member's behalf. Anything
 * that is not an IP address is not public.
 */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return isPublicV4Value(v4ToBigInt(address));
  if (version !== 6) return false;
  const value = v6ToBigInt(address);
  // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64) reach the IPv4 address they carry.
  if (value >> 32n === MAPPED_PREFIX || inRange(value, 128, NAT64, 96)) {
    return isPublicV4Value(value & 0xffff_ffffn);
  }
  // Only global unicast (2000::/3) is public: this leaves out ::, ::1, the IPv4-compatible
  // ::/96, 64:ff9b:1::/48, 100::/64, fc00::/7 (unique local, fd00:ec2::254 metadata included),
  // fe80::/10, fec0::/10 and ff00::/8 (multicast).
  if (!inRange(value, 128, GLOBAL_UNICAST, 3)) return false;
  return !V6_RANGES.some(([first, prefix]) => inRange(value, 128, first, prefix));
}

export interface GuardOptions {
  /** Tests: `http:` and non-public addresses pass. */
  allowPrivate?: boolean;
  /** The resolver (tests give their own); by default the system's, every address. */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

/** A URL that passed the guard, and the address to connect to for it. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

const systemResolve = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * `localhost` and every name under `.localhost` (RFC 6761): the loopback, whatever a resolver
 * answers (browsers and systemd-resolved answer 127.0.0.1 for them without asking DNS).
 */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** The URL's scheme, port and credentials, before any DNS: what needs no network to refuse. */
export function checkEndpointShape(raw: string, options: Pick<GuardOptions, 'allowPrivate'> = {}): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedEndpointError('not a URL');
  }
  const schemes = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    throw new RefusedEndpointError(`scheme ${url.protocol} is not allowed`);
  if (url.username || url.password) throw new RefusedEndpointError('credentials in the URL are not allowed');
  if (!url.hostname) throw new RefusedEndpointError('no host');
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !options.allowPrivate && !isPublicAddress(literal)) {
    throw new RefusedEndpointError(`${literal} is not a public address`);
  }
  if (!options.allowPrivate && isLocalhostName(literal)) {
    throw new RefusedEndpointError(`${literal} is this machine, not a public address`);
  }
  return url;
}

/**
 * Checks `raw` and resolves its host: every address must be public (unless `allowPrivate`).
 * Returns the address to connect to; connect with `pinnedLookup(target)`.
 */
export async function resolvePublicTarget(raw: string, options: GuardOptions = {}): Promise<CheckedTarget> {
  const url = checkEndpointShape(raw, options);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  let addresses: { address: string; family: number }[];
  if (literal) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch (error) {
      throw new RefusedEndpointError(`${host} does not resolve (${(error as Error).message})`);
    }
  }
  if (addresses.length === 0) throw new RefusedEndpointError(`${host} does not resolve`);
  if (!options.allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused)
      throw new RefusedEndpointError(`${host} resolves to ${refused.address}, not a public address`);
  }
  const [first] = addresses as [{ address: string; family: number }];
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A `lookup` for http(s).request that answers the checked address whatever name it is asked. */
export function pinnedLookup(target: CheckedTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}
