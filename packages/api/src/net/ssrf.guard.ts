/**
 * The guard of server-side requests to URLs a member chose (a browser's push endpoint): only
 * `https:` to public addresses. The host name is resolved here, every address it resolves to must
 * be public (not loopback, private, link-local, CGNAT, metadata, multicast, documentation,
 * reserved or unspecified, in IPv4 and IPv6, IPv4-mapped and NAT64/6to4/Teredo forms included;
 * ipaddr.js parses the addresses and knows the ranges), and the request then connects to the
 * very address that was checked (`pinnedLookup`), so a DNS answer that changes between the check
 * and the connection (DNS rebinding) cannot redirect it. The caller follows no redirects.
 * `allowPrivate` (PUSH_ALLOW_PRIVATE_ENDPOINTS=1, tests only) lets `http:` and private addresses
 * through, to reach a push service on 127.0.0.1.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a URL was refused, in words a log can carry. */
export class RefusedEndpointError extends Error {
  override name = 'RefusedEndpointError';
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * An IP address written as a resolver or the URL parser writes one (four decimal parts, or IPv6
 * with an optional zone), parsed; null for anything else. Looser forms (`0x7f.1`, `2130706433`)
 * are not addresses here: the URL parser turns them into four parts before they get here.
 */
export function parseAddress(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return null;
}

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address reached. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * ipaddr.js names every special-purpose range of the IANA registries (RFC 6890): unspecified,
 * broadcast, loopback, private, CGNAT (Alibaba's metadata at 100.100.100.200), link-local (cloud
 * metadata at 169.254.169.254), IETF protocol assignments (Oracle's at 192.0.0.192),
 * documentation, benchmarking, 6to4 relays, multicast, reserved, AS112 and AMT; only what it
 * calls `unicast` is public.
 */
function isPublicV4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

/**
 * True for a public unicast address, one a server may connect to on a member's behalf. Anything
 * that is not an IP address is not public.
 */
export function isPublicAddress(text: string): boolean {
  const address = parseAddress(text);
  if (address === null) return false;
  if (address.kind() === 'ipv4') return isPublicV4(address as ipaddr.IPv4);
  const v6 = address as ipaddr.IPv6;
  // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64) reach the IPv4 address they carry.
  if (v6.isIPv4MappedAddress()) return isPublicV4(v6.toIPv4Address());
  if (v6.match(NAT64)) return isPublicV4(new ipaddr.IPv4(v6.toByteArray().slice(12)));
  // Only global unicast (2000::/3) is public: this leaves out ::, ::1, the IPv4-compatible ::/96,
  // 64:ff9b:1::/48, 100::/64, fc00::/7 (unique local, fd00:ec2::254 metadata included), fe80::/10,
  // fec0::/10 and ff00::/8 (multicast). Within it, ipaddr.js's special ranges are not public
  // either: 2001::/23 (IETF protocol assignments, Teredo included), 2001:db8::/32 and 3fff::/20
  // (documentation), 2002::/16 (6to4, which carries an IPv4 address of any kind), AS112.
  return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast';
}

export interface GuardOptions {
  /** Tests: `http:` and non-public addresses pass. */
  allowPrivate?: boolean;
  /** `http:` passes too (link cards fetch http pages; push endpoints are https only). */
  allowHttp?: boolean;
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
export function checkEndpointShape(
  raw: string,
  options: Pick<GuardOptions, 'allowPrivate' | 'allowHttp'> = {},
): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedEndpointError('not a URL');
  }
  const schemes = options.allowPrivate || options.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    throw new RefusedEndpointError(`scheme ${url.protocol} is not allowed`);
  if (url.username || url.password) throw new RefusedEndpointError('credentials in the URL are not allowed');
  if (!url.hostname) throw new RefusedEndpointError('no host');
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (parseAddress(literal) && !options.allowPrivate && !isPublicAddress(literal)) {
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
  const literal = parseAddress(host);
  let addresses: { address: string; family: number }[];
  if (literal) addresses = [{ address: host, family: literal.kind() === 'ipv6' ? 6 : 4 }];
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
