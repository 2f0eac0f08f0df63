/**
 * Which IP addresses an import may connect to: public unicast only. Everything else (loopback,
 * RFC 1918, link-local, CGNAT, multicast, documentation and reserved blocks…) could reach the
 * server's own network, so a URL resolving there is refused (SSRF).
 */
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** Whether `ip` (a literal, v4 or v6, with or without brackets) is a public unicast address. */
export function isPublicAddress(ip: string): boolean {
  const literal = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // Only the canonical four-part form for v4: `0x7f.1` and friends are not what DNS answers.
  if (ipaddr.IPv4.isValidFourPartDecimal(literal)) return isPublicV4(ipaddr.IPv4.parse(literal));
  if (!ipaddr.IPv6.isValid(literal)) return false;
  return isPublicV6(ipaddr.IPv6.parse(literal));
}

function isPublicV4(address: IPv4): boolean {
  return address.range() === 'unicast';
}

function isPublicV6(address: IPv6): boolean {
  const range = address.range();
  const p = address.parts;
  switch (range) {
    // Forms that carry an IPv4 address (and reach it when used): judged by that address.
    case 'ipv4Mapped':
    case 'rfc6145':
      return isPublicV4(v4(p[6], p[7]));
    case 'rfc6052': // NAT64: the well-known 64:ff9b::/96 only; 64:ff9b:1::/48 is for local use
      return p[2] === 0 && isPublicV4(v4(p[6], p[7]));
    case '6to4': // 2002:VVVV:VVVV::/48
      return isPublicV4(v4(p[1], p[2]));
    case 'teredo': // 2001:0:SSSS:SSSS:flags:port:~CCCC:~CCCC (server, then the obfuscated client)
      return isPublicV4(v4(p[2], p[3])) && isPublicV4(v4(~p[6] & 0xffff, ~p[7] & 0xffff));
    case 'unicast':
      // Only the global unicast block is allocated; the rest of "unicast" to ipaddr.js includes the
      // deprecated IPv4-compatible ::a.b.c.d and other unassigned space.
      return (p[0] & 0xe000) === 0x2000;
    default:
      return false;
  }
}

const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
