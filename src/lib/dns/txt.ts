/**
 * TXT records of a name, through Node's own resolver (`dns.promises.Resolver`): the system's
 * servers, or the given ones (`QUIRE_DNS_SERVERS`, e.g. a local server in tests). Each record's
 * strings are joined, as RFC 7208 reads them.
 */
import { Resolver } from 'node:dns/promises';

export type DnsSettings = { servers: string[]; timeoutMs?: number };

/** `not_found`: the name or its TXT records do not exist; `failed`: no answer could be had (time-out, server failure). */
export type TxtLookup = { records: string[] } | { error: 'not_found' | 'failed' };

const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

export async function txtRecords(name: string, settings: DnsSettings): Promise<TxtLookup> {
  const resolver = new Resolver({ timeout: settings.timeoutMs ?? 3000, tries: 2 });
  if (settings.servers.length) resolver.setServers(settings.servers);
  try {
    return { records: (await resolver.resolveTxt(name)).map((chunks) => chunks.join('')) };
  } catch (error) {
    return { error: ABSENT.has((error as NodeJS.ErrnoException).code ?? '') ? 'not_found' : 'failed' };
  }
}

/** Whether each entry is an address with an optional port (`1.2.3.4`, `1.2.3.4:53`, `[::1]:53`), as `Resolver.setServers` takes them. */
export function isDnsServerList(value: string): boolean {
  const servers = value.split(',').map((s) => s.trim()).filter(Boolean);
  return servers.every((s) => {
    try {
      new Resolver().setServers([s]);
      return true;
    } catch {
      return false;
    }
  });
}
