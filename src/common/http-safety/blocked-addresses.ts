import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

type Cidr<T> = [T, number];

const v4 = (cidrs: string[]): Cidr<ipaddr.IPv4>[] => cidrs.map((c) => ipaddr.IPv4.parseCIDR(c));
const v6 = (cidrs: string[]): Cidr<ipaddr.IPv6>[] => cidrs.map((c) => ipaddr.IPv6.parseCIDR(c));

/** IPv4 ranges that are not globally reachable (IANA special-purpose registry, RFC 6890 and successors). */
const BLOCKED_V4 = v4([
  '0.0.0.0/8', // "this network", unspecified
  '10.0.0.0/8', // RFC 1918
  '100.64.0.0/10', // CGNAT, RFC 6598
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, cloud metadata (169.254.169.254)
  '172.16.0.0/12', // RFC 1918
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // TEST-NET-1
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16', // RFC 1918
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // TEST-NET-2
  '203.0.113.0/24', // TEST-NET-3
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, includes broadcast 255.255.255.255
]);

/** Only global unicast (2000::/3) is reachable; within it these are not. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const BLOCKED_V6_IN_GLOBAL = v6([
  '2001::/23', // IETF protocol assignments (benchmarking, ORCHID, ...); Teredo is handled before
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation, RFC 9637
]);

const MAPPED = ipaddr.IPv6.parseCIDR('::ffff:0:0/96');
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');
const TEREDO = ipaddr.IPv6.parseCIDR('2001::/32');

const inAny = <T extends ipaddr.IPv4 | ipaddr.IPv6>(ip: T, ranges: Cidr<T>[]) =>
  ranges.some((range) => ip.match(range));

function isBlockedV4(ip: ipaddr.IPv4): boolean {
  return inAny(ip, BLOCKED_V4);
}

const embeddedV4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/**
 * IPv6 forms that carry an IPv4 address are judged by that address: a mapped, NAT64 or 6to4 address
 * reaches the embedded v4 host. Teredo is refused when either its server or (obfuscated) client
 * address is blocked.
 */
function isBlockedV6(ip: ipaddr.IPv6): boolean {
  const p = ip.parts;
  if (ip.match(MAPPED)) return isBlockedV4(embeddedV4(p[6], p[7]));
  if (ip.match(NAT64)) return isBlockedV4(embeddedV4(p[6], p[7]));
  if (ip.match(SIX_TO_FOUR)) return isBlockedV4(embeddedV4(p[1], p[2]));
  if (ip.match(TEREDO)) {
    return isBlockedV4(embeddedV4(p[2], p[3])) || isBlockedV4(embeddedV4(p[6] ^ 0xffff, p[7] ^ 0xffff));
  }
  // Everything outside 2000::/3 is refused: ::/128, ::1, IPv4-compatible ::/96, discard 100::/64,
  // local-use NAT64 64:ff9b:1::/48, fc00::/7, fec0::/10, fe80::/10, ff00::/8, ...
  if (!ip.match(GLOBAL_UNICAST_V6)) return true;
  return inAny(ip, BLOCKED_V6_IN_GLOBAL);
}

/**
 * Parses through WHATWG URL first: it gives the canonical form a URL host would have (legacy IPv4
 * spellings resolved like inet_aton), and ipaddr.js alone misreads `::a.b.c.d` as `::ffff:a.b.c.d`.
 */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  try {
    if (text.includes(':')) {
      const withoutZone = text.replace(/%[^%]*$/, '');
      if (!isIPv6(withoutZone)) return null;
      return ipaddr.IPv6.parse(new URL(`http://[${withoutZone}]/`).hostname.slice(1, -1));
    }
    if (!/^[0-9a-fx.]+$/i.test(text)) return null;
    const host = new URL(`http://${text}/`).hostname;
    return isIPv4(host) ? ipaddr.IPv4.parse(host) : null;
  } catch {
    return null;
  }
}

/**
 * True when connecting to `ip` could reach a loopback, private, link-local or otherwise non-public
 * host. Anything that does not parse as an IP address is reported blocked (fail closed).
 * Accepts the legacy IPv4 spellings inet_aton understands (`127.1`, `0x7f.0.0.1`, `2130706433`).
 */
export function isBlockedAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  if (parsed === null) return true;
  return parsed.kind() === 'ipv4' ? isBlockedV4(parsed as ipaddr.IPv4) : isBlockedV6(parsed as ipaddr.IPv6);
}
