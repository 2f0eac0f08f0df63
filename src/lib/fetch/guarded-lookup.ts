/**
 * A DNS lookup for node:http(s) that refuses hosts resolving to a non-public address. The socket
 * connects to exactly what this answers, so a second resolution (DNS rebinding between a check
 * and the connect) cannot slip a private address through. IP-literal hosts skip lookups: the
 * fetcher checks those itself.
 */
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from './addresses.js';

/** Raised inside the lookup; the fetcher turns it into BLOCKED_ADDRESS. */
export class BlockedAddressError extends Error {
  constructor(readonly hostname: string) {
    super(`${hostname} resolves to a non-public address`);
    this.name = 'BlockedAddressError';
  }
}

export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    // Every address, not just the first: the connection may try any of them (happy eyeballs).
    if (addresses.length === 0 || addresses.some((entry) => !isPublicAddress(entry.address))) {
      return callback(new BlockedAddressError(hostname), '', 0);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};
