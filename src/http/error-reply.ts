import type { ServerResponse } from 'node:http';

/** A JSON answer with its length (compression then knows a small answer is not worth it); nothing more once headers went out. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(json)), ...headers });
  res.end(json);
}

/** A REST error body (`{"error": {"code", "message"}}`) for the routes outside /v1 (downloads), never cached. */
export function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { code: status, message } }, { 'cache-control': 'no-store', ...headers });
}
