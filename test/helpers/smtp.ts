/**
 * A local SMTP server (smtp-server on 127.0.0.1, a random port, no TLS or login) that keeps every
 * message it accepts, read with mailparser: the envelope, the subject and the decoded text and
 * HTML parts. `useSmtpServer()` starts it for the test file; call it BEFORE
 * `useServer` so that its port is known when the server reads `env`:
 *
 *   const smtp = useSmtpServer();
 *   const server = useServer({ env: () => ({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` }) });
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';

export type ReceivedMail = {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
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
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            received.push({
              mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              rcptTo: session.envelope.rcptTo.map((r) => r.address),
              raw: raw.toString('latin1'),
              subject: parsed.subject ?? '',
              text: (parsed.text ?? '').replace(/\r\n/g, '\n'),
              html: typeof parsed.html === 'string' ? parsed.html.replace(/\r\n/g, '\n') : '',
            });
            callback();
          },
          (error: Error) => callback(error),
        );
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
