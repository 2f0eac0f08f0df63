/** A small HTTP server on 127.0.0.1 serving fixed files, for imports to fetch. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

export type SiteFile = { body: string | Uint8Array; type: string; delayMs?: number; status?: number };

export type Site = { url: string; hits: string[]; close(): Promise<void> };

export async function serveSite(files: Record<string, SiteFile>): Promise<Site> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.push(path);
    const file = files[path];
    const send = () => {
      if (!file) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      res.writeHead(file.status ?? 200, { 'content-type': file.type }).end(file.body);
    };
    if (file?.delayMs) setTimeout(send, file.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** A `serveSite` for one test file: every site it serves is closed after the file's tests. */
export function useSites(): (files: Record<string, SiteFile>) => Promise<Site> {
  const sites: Site[] = [];
  afterAll(async () => {
    for (const site of sites) await site.close();
  });
  return async (files) => {
    const site = await serveSite(files);
    sites.push(site);
    return site;
  };
}
