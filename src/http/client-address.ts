/**
 * Who is at the other end of a request: the client's address, and whether the request reached
 * quire over HTTPS. The rate limit, the WebSocket connection limit and the published sites'
 * cookies all ask here, so that they agree on one answer.
 *
 * With no proxy trusted (QUIRE_TRUST_PROXY empty, the default), the client is the socket's peer
 * and HTTPS means this server's own TLS: X-Forwarded-For and X-Forwarded-Proto are anyone's to
 * write, so they are ignored. With a trusted proxy, the chain of addresses — the peer, then
 * X-Forwarded-For from right to left (each proxy appends the address it was reached from) — is
 * walked while its addresses are trusted proxies; the first that is not is the client, so
 * whatever a client wrote itself into the header is never believed. The setting is a number of
 * proxy hops in front of quire (e.g. `1` behind one load balancer), or a comma-separated list of
 * proxy addresses and CIDR ranges (e.g. `10.0.0.0/8, 127.0.0.1`). The protocol is the first
 * X-Forwarded-Proto value (the outermost proxy's) when the peer is a trusted proxy.
 *
 * `network` is what limits count per client: the address for IPv4, its /64 for IPv6 (the block
 * one subscriber gets, whose addresses a client may rotate through at will).
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
/** Whether the address at position `hop` of the chain (0: the peer) is a proxy quire trusts. */
type Trust = (address: Address, hop: number) => boolean;

export type Client = { address: string; network: string; https: boolean };

function parse(text: string | undefined): Address | undefined {
  const literal = text?.trim().replace(/^\[(.*)\]$/, '$1');
  // IPv4 in its four-part form only (`1.2.3` and `0x7f.1` are not what a proxy writes); process():
  // an IPv4-mapped IPv6 address (a dual-stack socket's view of IPv4) is the IPv4 one.
  const valid = literal && (ipaddr.IPv4.isValidFourPartDecimal(literal) || ipaddr.IPv6.isValid(literal));
  return valid ? ipaddr.process(literal) : undefined;
}

function compile(setting: string): Trust | undefined {
  const text = setting.trim();
  if (text === '' || text === '0' || text === 'false') return undefined;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return (_address, hop) => hop < hops;
  }
  const ranges = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry): [Address, number] => {
      const [text, bits] = entry.split('/');
      const address = parse(text);
      if (!address) throw new Error(`not an IP address: ${entry}`);
      return bits === undefined ? [address, address.kind() === 'ipv4' ? 32 : 128] : ipaddr.parseCIDR(`${address.toString()}/${bits}`);
    });
  return (address) => ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

const compiled = new Map<string, Trust | undefined>();
function trustOf(setting: string): Trust | undefined {
  if (!compiled.has(setting)) compiled.set(setting, compile(setting));
  return compiled.get(setting);
}

/** Whether `setting` is a valid QUIRE_TRUST_PROXY (checked when the configuration loads). */
export function isTrustSetting(setting: string): boolean {
  try {
    trustOf(setting);
    return true;
  } catch {
    return false;
  }
}

function networkOf(address: Address | undefined): string {
  if (!address) return 'unknown';
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

const resolved = new WeakMap<IncomingMessage, Client>();
/**
 * The answer for a connection whose peer is no trusted proxy: its headers play no part then, so
 * it holds for every request of the connection (keep-alive), and the peer is parsed once.
 */
const direct = new WeakMap<Socket, { trustSetting: string; client: Client }>();

/** The client of a request, under the QUIRE_TRUST_PROXY `setting` (computed once per request, or per connection). */
export function clientOf(req: IncomingMessage, trustSetting: string): Client {
  const known = resolved.get(req);
  if (known) return known;
  const connection = direct.get(req.socket);
  if (connection?.trustSetting === trustSetting) return connection.client;
  const trust = trustOf(trustSetting);
  const peer = parse(req.socket.remoteAddress);
  let client = peer;
  let https = (req.socket as TLSSocket).encrypted === true;
  if (trust && peer && trust(peer, 0)) {
    const chain = String(req.headers['x-forwarded-for'] ?? '').split(',').reverse();
    for (let hop = 0; hop < chain.length && trust(client!, hop); hop++) {
      const next = parse(chain[hop]);
      if (!next) break; // not an address: the proxy before it is the last one known
      client = next;
    }
    const proto = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim().toLowerCase();
    if (proto) https = proto === 'https';
  }
  const answer = { address: client?.toString() ?? 'unknown', network: networkOf(client), https };
  if (client === peer && !(trust && peer && trust(peer, 0)) && req.socket) direct.set(req.socket, { trustSetting, client: answer });
  else resolved.set(req, answer);
  return answer;
}
