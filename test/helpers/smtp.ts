/**
 * A local SMTP server (smtp-server on 127.0.0.1, a random port, no TLS or login) that keeps every
 * message it accepts, with a small MIME reader for what tests check: the envelope, the subject and
 * the decoded text and HTML parts. `useSmtpServer()` starts it for the test file; call it BEFORE
 * `useServer` so that its port is known when the server reads `env`:
 *
 *   const smtp = useSmtpServer();
 *   const server = useServer({ env: () => ({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` }) });
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';

export type ReceivedMail = {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
  headers: Map<string, string>;
  subject: string;
  /** The decoded text/plain part (LF line ends). */
  text: string;
  /** The decoded text/html part (LF line ends), '' when there is none. */
  html: string;
};

export type SmtpSink = {
  /** The port it listens on (known once the file's beforeAll hooks ran). */
  readonly port: number;
  readonly received: ReceivedMail[];
  /** The messages addressed to `address` (compared case-insensitively), oldest first. */
  to(address: string): ReceivedMail[];
  /** Waits (briefly) until `address` has at least `count` messages, and answers them. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<ReceivedMail[]>;
};

// ——— a small MIME reader ———

const decodeQuotedPrintable = (body: string) =>
  Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');

/** RFC 2047 encoded words (=?utf-8?Q?…?= / =?utf-8?B?…?=), as nodemailer writes non-ASCII headers. */
const decodeWords = (value: string) =>
  value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );

function parseEntity(entity: string) {
  const split = entity.indexOf('\r\n\r\n');
  const headerBlock = (split < 0 ? entity : entity.slice(0, split)).replace(/\r\n[ \t]+/g, ' ');
  const body = split < 0 ? '' : entity.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of headerBlock.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  return Buffer.from(body, 'latin1').toString('utf8');
}

/** Headers and the decoded text/plain and text/html parts (one level of multipart, or nested alternatives). */
export function readMessage(raw: string): Pick<ReceivedMail, 'headers' | 'subject' | 'text' | 'html'> {
  const { headers, body } = parseEntity(raw);
  const parts: Record<string, string> = {};
  const collect = (entityHeaders: Map<string, string>, entityBody: string) => {
    const type = entityHeaders.get('content-type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (boundary) {
      for (const part of entityBody.split(`--${boundary}`).slice(1, -1)) {
        const parsed = parseEntity(part.replace(/^\r\n/, ''));
        collect(parsed.headers, parsed.body);
      }
      return;
    }
    const mime = type.split(';')[0].trim().toLowerCase();
    if (!(mime in parts)) parts[mime] = decodeBody(entityHeaders, entityBody);
  };
  collect(headers, body);
  const lf = (value = '') => value.replace(/\r\n/g, '\n');
  return { headers, subject: decodeWords(headers.get('subject') ?? ''), text: lf(parts['text/plain']), html: lf(parts['text/html']) };
}

// ——— the server ———

export async function startSmtpServer(): Promise<SmtpSink & { close(): Promise<void> }> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1');
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...readMessage(raw),
        });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => received.filter((m) => m.rcptTo.some((r) => r.toLowerCase() === address.toLowerCase()));
  return {
    port,
    received,
    to,
    async waitFor(address, count = 1, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (to(address).length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      return to(address);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One SMTP server for the test file: started in a beforeAll, closed in an afterAll. */
export function useSmtpServer(): SmtpSink {
  let sink: (SmtpSink & { close(): Promise<void> }) | undefined;
  const started = () => {
    if (!sink) throw new Error('the SMTP server is not started yet: use it from tests or hooks, after useSmtpServer()');
    return sink;
  };
  beforeAll(async () => {
    sink = await startSmtpServer();
  });
  afterAll(() => sink?.close());
  return {
    get port() {
      return started().port;
    },
    get received() {
      return started().received;
    },
    to: (address) => started().to(address),
    waitFor: (address, count, timeoutMs) => started().waitFor(address, count, timeoutMs),
  };
}
