/**
 * A real git server for tests: git's own `git-http-backend` (smart HTTP: clone, fetch, push) run
 * as CGI behind node:http, with basic auth, on 127.0.0.1 and a random port. Bare repositories
 * live in a temporary folder removed by close(). `intercept` lets a test answer a request itself
 * (a redirect, a race with another pusher) before the backend sees it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gitText, runGit } from './git-cli.js';

export type GitServerRequest = { method: string; host: string; path: string; authorized: boolean; authorization?: string };

export type GitServer = {
  /** `http://user:pass@127.0.0.1:port/<name>.git` */
  url(name: string): string;
  /** `http://127.0.0.1:port/<name>.git` */
  plainUrl(name: string): string;
  /** A new bare repository `<name>.git` that accepts pushes (its branch: `main`, unborn). */
  createRepo(name: string): Promise<string>;
  /** The folder of the bare repositories. */
  root: string;
  port: number;
  /** Every request received, in order. */
  requests: GitServerRequest[];
  /** When set and answering true, the request was answered by the test. */
  intercept: ((req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>) | null;
  close(): Promise<void>;
};

/** `anonymous`: requests without credentials are served too (a public repository, e.g. a wiki). */
export async function startGitServer(credentials: { user: string; password: string; anonymous?: boolean }): Promise<GitServer> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'quire-git-server-'));
  const backend = path.join((await runGit(['--exec-path'])).toString().trim(), 'git-http-backend');
  const expected = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;

  const state: GitServer = {
    root,
    port: 0,
    requests: [],
    intercept: null,
    url: (name) => `http://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${state.port}/${name}.git`,
    plainUrl: (name) => `http://127.0.0.1:${state.port}/${name}.git`,
    async createRepo(name) {
      const dir = path.join(root, `${name}.git`);
      await runGit(['init', '--quiet', '--bare', '--initial-branch=main', dir]);
      await gitText(dir, ['config', 'http.receivepack', 'true']);
      return dir;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(root, { recursive: true, force: true });
    },
  };

  const server = http.createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const authorized = req.headers.authorization === expected;
    state.requests.push({ method: req.method ?? 'GET', host: req.headers.host ?? '', path: `${url.pathname}${url.search}`, authorized, authorization: req.headers.authorization });
    if (state.intercept && (await state.intercept(req, res))) return;
    if (!authorized && !credentials.anonymous) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' }).end('Authentication required');
      return;
    }
    runBackend(req, res, url);
  }

  function runBackend(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: credentials.user,
      REMOTE_ADDR: '127.0.0.1',
      GIT_CONFIG_NOSYSTEM: '1',
    };
    if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
    if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = req.headers['content-encoding'];
    if (req.headers['git-protocol']) env.GIT_PROTOCOL = String(req.headers['git-protocol']);
    const child = spawn(backend, [], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    req.pipe(child.stdin);
    child.stdin.on('error', () => {});
    let head = Buffer.alloc(0);
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (started) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = headerEnd(head);
      if (!end) return;
      started = true;
      const { status, headers } = cgiHeaders(head.subarray(0, end.at).toString('latin1'));
      res.writeHead(status, headers);
      res.write(head.subarray(end.at + end.length));
    });
    child.stdout.on('end', () => (started ? res.end() : res.writeHead(502).end()));
    child.on('error', () => res.destroy());
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  return state;
}

function headerEnd(bytes: Buffer): { at: number; length: number } | null {
  const crlf = bytes.indexOf('\r\n\r\n');
  const lf = bytes.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { at: crlf, length: 4 };
  return lf >= 0 ? { at: lf, length: 2 } : null;
}

function cgiHeaders(text: string): { status: number; headers: Record<string, string> } {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 500;
    else headers[name] = value;
  }
  return { status, headers };
}
