import type { ServerResponse } from 'node:http';

/** A REST error body (`{"error": {"code", "message"}}`) for the routes outside /v1 (downloads), never cached. */
export function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const json = JSON.stringify({ error: { code: status, message } });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(json)), 'cache-control': 'no-store', ...headers });
  res.end(json);
}
