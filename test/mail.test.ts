/**
 * Outgoing e-mail against a real SMTP server (smtp-server on 127.0.0.1, a random port): the
 * invitation arrives with its envelope, subject and link, after AUTH PLAIN with the URL's
 * credentials; refusals, unreachable and silent servers become typed MailErrors; without an SMTP
 * URL the message is logged. Also the invitation's content and e-mail address validation.
 */
import { once } from 'node:events';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { AppError } from '../src/lib/errors.js';
import { createMailer, inviteEmail, MailError, normalizeEmail, type Mailer } from '../src/domain/people/mail/index.js';
import { createLogger } from '../src/observability/logger.js';

type Received = { mailFrom: string; rcptTo: string[]; user?: string; raw: string };
type Auth = { method: string; username?: string; password?: string };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A local SMTP server without TLS that records logins and messages. */
async function smtpServer(options: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = [];
  const auths: Auth[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      auths.push({ method: auth.method, username: auth.username, password: auth.password ?? undefined });
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({ mailFrom, rcptTo: session.envelope.rcptTo.map((r) => r.address), user: session.user, raw: Buffer.concat(chunks).toString('latin1') });
        callback();
      });
    },
    ...options,
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as net.AddressInfo;
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port, received, auths };
}

/** An SMTP reply error as smtp-server sends it. */
const reply = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode });

/** A logger whose JSON lines are kept. */
function capturedLogger() {
  const lines: string[] = [];
  return { logger: createLogger({ destination: { write: (line: string) => void lines.push(line) } }), lines };
}

function mailer(options: Parameters<typeof createMailer>[0]): Mailer {
  const m = createMailer(options);
  cleanups.push(() => m.close());
  return m;
}

async function mailError(promise: Promise<unknown>): Promise<MailError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(MailError);
  return error as MailError;
}

// ——— a small MIME reader: headers, and the decoded text/plain and text/html parts ———

const decodeQuotedPrintable = (body: string) =>
  Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');

function parseEntity(entity: string) {
  const split = entity.indexOf('\r\n\r\n');
  const headerBlock = entity.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = entity.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of headerBlock.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  return Buffer.from(body, 'latin1').toString('utf8');
}

function readMessage(raw: string) {
  const { headers, body } = parseEntity(raw);
  const parts: Record<string, string> = {};
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1];
  const entities = boundary ? body.split(`--${boundary}`).slice(1, -1).map((p) => parseEntity(p.replace(/^\r\n/, ''))) : [{ headers, body }];
  for (const part of entities) parts[(part.headers.get('content-type') ?? 'text/plain').split(';')[0]] = decodeBody(part.headers, part.body);
  const lf = (value = '') => value.replace(/\r\n/g, '\n');
  return { headers, text: lf(parts['text/plain']), html: lf(parts['text/html']) };
}

const LINK = 'https://docs.example.com/invites/inv_7Hq2/join?token=ZmFrZS10b2tlbi1mb3ItdGVzdGluZy1vbmx5LTAxMjM0NTY3ODk&utm=mail';

describe('sending through SMTP', () => {
  it('delivers the invitation after AUTH PLAIN with the URL credentials, to the right recipient', async () => {
    const smtp = await smtpServer({ authOptional: false, authMethods: ['PLAIN'] });
    const { logger, lines } = capturedLogger();
    const m = mailer({ smtpUrl: `smtp://inviter%40quire.test:s3cr%3At%2Fpw@127.0.0.1:${smtp.port}`, from: 'quire <no-reply@quire.test>', logger });
    const email = inviteEmail({ organizationTitle: 'Acme Docs', inviterName: 'Ada Lovelace', role: 'edit', link: LINK });

    const result = await m.send({ to: '  New.Member@EXAMPLE.com ', ...email });

    expect(result.delivered).toBe(true);
    expect(smtp.auths).toEqual([{ method: 'PLAIN', username: 'inviter@quire.test', password: 's3cr:t/pw' }]);
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.user).toBe('inviter@quire.test');
    expect(mail.mailFrom).toBe('no-reply@quire.test');
    expect(mail.rcptTo).toEqual(['New.Member@example.com']);
    const message = readMessage(mail.raw);
    expect(message.headers.get('subject')).toBe('Ada Lovelace invited you to join Acme Docs on quire');
    expect(message.headers.get('message-id')).toBe(result.messageId);
    expect(message.text).toContain(`\n${LINK}\n`);
    expect(message.html).toContain(`href="${LINK.replace('&', '&amp;')}"`);
    // Credentials stay out of the log lines.
    expect(lines.join('')).toContain('E-mail delivered');
    expect(lines.join('')).not.toMatch(/s3cr/);
  });

  it('reports a login the server refuses as SMTP_UNAVAILABLE, without the password', async () => {
    const smtp = await smtpServer({
      authOptional: false,
      authMethods: ['PLAIN'],
      onAuth: (_auth, _session, callback) => callback(reply(535, 'Authentication credentials invalid')),
    });
    const m = mailer({ smtpUrl: `smtp://someone:wrong-password@127.0.0.1:${smtp.port}`, logger: capturedLogger().logger });
    const error = await mailError(m.send({ to: 'a@example.com', subject: 'x', text: 'y' }));
    expect(error.code).toBe('SMTP_UNAVAILABLE');
    expect(error.responseCode).toBe(535);
    expect(error.message).toContain(`127.0.0.1:${smtp.port}`);
    expect(error.message).not.toContain('wrong-password');
    expect(smtp.received).toHaveLength(0);
  });

  it('turns a permanently refused recipient (550) into SMTP_REJECTED', async () => {
    const smtp = await smtpServer({ onRcptTo: (_address, _session, callback) => callback(reply(550, 'No such mailbox here')) });
    const m = mailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, logger: capturedLogger().logger });
    const error = await mailError(m.send({ to: 'nobody@example.com', subject: 'x', text: 'y' }));
    expect(error.code).toBe('SMTP_REJECTED');
    expect(error.responseCode).toBe(550);
    expect(error.message).toContain('No such mailbox here');
    expect(smtp.received).toHaveLength(0);
  });

  it('treats a temporary refusal (450) as SMTP_UNAVAILABLE', async () => {
    const smtp = await smtpServer({ onRcptTo: (_address, _session, callback) => callback(reply(450, 'Mailbox busy, try later')) });
    const m = mailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, logger: capturedLogger().logger });
    const error = await mailError(m.send({ to: 'busy@example.com', subject: 'x', text: 'y' }));
    expect(error.code).toBe('SMTP_UNAVAILABLE');
    expect(error.responseCode).toBe(450);
  });

  it('answers SMTP_UNAVAILABLE at once when nothing listens', async () => {
    const probe = net.createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((resolve) => probe.close(resolve));

    const m = mailer({ smtpUrl: `smtps://user:hunter22@127.0.0.1:${port}`, logger: capturedLogger().logger, timeouts: { connectionMs: 500, greetingMs: 500, socketMs: 500 } });
    const started = Date.now();
    const error = await mailError(m.send({ to: 'a@example.com', subject: 'x', text: 'y' }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error.code).toBe('SMTP_UNAVAILABLE');
    expect(error.message).not.toContain('hunter22');
  });

  it('gives up on a server that never greets after the greeting timeout', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    cleanups.push(async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => silent.close(resolve));
    });
    const { port } = silent.address() as net.AddressInfo;

    const m = mailer({ smtpUrl: `smtp://127.0.0.1:${port}`, logger: capturedLogger().logger, timeouts: { connectionMs: 5_000, greetingMs: 400, socketMs: 5_000 } });
    const started = Date.now();
    const error = await mailError(m.send({ to: 'a@example.com', subject: 'x', text: 'y' }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(sockets.length).toBe(1);
    expect(error.code).toBe('SMTP_UNAVAILABLE');
  });

  it('refuses a recipient that is not one valid address before connecting', async () => {
    const smtp = await smtpServer();
    const m = mailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, logger: capturedLogger().logger });
    for (const to of ['a@example.com, b@example.com', 'Someone <a@example.com>', 'a@example.com\r\nBcc: b@example.com']) {
      await expect(m.send({ to, subject: 'x', text: 'y' })).rejects.toMatchObject({ code: 'BAD_REQUEST', field: 'to' });
    }
    expect(smtp.received).toHaveLength(0);
  });

  it('accepts only smtp:// and smtps:// URLs, without echoing them', () => {
    const { logger } = capturedLogger();
    expect(() => createMailer({ smtpUrl: 'https://user:topsecret@mail.example.com', logger })).toThrow(/smtp:\/\/ or smtps:\/\//);
    expect(() => createMailer({ smtpUrl: 'https://user:topsecret@mail.example.com', logger })).not.toThrow(/topsecret/);
  });
});

describe('without an SMTP URL', () => {
  it('logs the message with its link at info level and answers delivered: false', async () => {
    const { logger, lines } = capturedLogger();
    const m = mailer({ logger });
    const email = inviteEmail({ organizationTitle: 'Acme Docs', role: 'read', link: LINK });
    expect(await m.send({ to: 'reader@Example.COM', ...email })).toEqual({ delivered: false });

    const line = lines.find((l) => l.includes(LINK));
    expect(line).toBeDefined();
    const entry = JSON.parse(line!);
    expect(entry.level).toBe('info');
    expect(entry.mail).toMatchObject({ to: 'reader@example.com', subject: 'You are invited to join Acme Docs on quire' });
    expect(entry.mail.text).toContain(LINK);
  });
});

describe('the invitation e-mail', () => {
  const expiresAt = new Date('2030-03-05T14:00:00Z');

  it('escapes the organization title and inviter name in the HTML and keeps them in the text', () => {
    const email = inviteEmail({ organizationTitle: '<script>alert("x")</script> & Co', inviterName: "O'Brien <ob@example.com>", role: 'admin', link: LINK, expiresAt });
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(email.html).toContain('O&#39;Brien &lt;ob@example.com&gt;');
    expect(email.text).toContain(`O'Brien <ob@example.com> invited you to join <script>alert("x")</script> & Co on quire as an administrator.`);
    expect(email.subject).toBe(`O'Brien <ob@example.com> invited you to join <script>alert("x")</script> & Co on quire`);
  });

  it('states the role, the link and the expiry, and loads nothing external', () => {
    const email = inviteEmail({ organizationTitle: 'Acme Docs', role: 'edit', link: LINK, expiresAt });
    expect(email.text).toContain('You have been invited to join Acme Docs on quire as an editor.');
    expect(email.text).toContain('This invitation expires on March 5, 2030 at 2:00 PM UTC.');
    expect(email.text).toContain(LINK);
    expect(email.html).toContain('March 5, 2030 at 2:00 PM UTC');
    expect(email.html.match(/href="([^"]+)"/g)).toEqual([`href="${LINK.replace('&', '&amp;')}"`, `href="${LINK.replace('&', '&amp;')}"`]);
    expect(email.html).not.toMatch(/<img|<link|src=|url\(/i);
  });

  it('keeps user input on one line and names unknown roles as given', () => {
    const email = inviteEmail({ organizationTitle: 'Acme\r\nBcc: x@example.com', role: 'custom', link: LINK });
    expect(email.subject).toBe('You are invited to join Acme Bcc: x@example.com on quire');
    expect(email.text).toContain('with the “custom” role.');
  });

  it('refuses links that are not http(s) URLs', () => {
    expect(() => inviteEmail({ organizationTitle: 'Acme', role: 'read', link: 'javascript:alert(1)' })).toThrow(/http\(s\)/);
    expect(() => inviteEmail({ organizationTitle: 'Acme', role: 'read', link: '/relative/join' })).toThrow(/absolute/);
  });
});

describe('normalizeEmail', () => {
  const LONGEST = `user@${'a'.repeat(61)}.${'b'.repeat(61)}.${'c'.repeat(61)}.${'d'.repeat(59)}.com`; // 254 characters
  it.each([
    ['user@example.com', 'user@example.com'],
    ['  User.Name+tag@Example.COM  ', 'User.Name+tag@example.com'],
    ["o'brien@sub.example.co.uk", "o'brien@sub.example.co.uk"],
    ['first_last-1@my-domain.io', 'first_last-1@my-domain.io'],
    ['user@xn--bcher-kva.example', 'user@xn--bcher-kva.example'],
    ['user@BÜCHER.example', 'user@bücher.example'],
    [`${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`],
    [LONGEST, LONGEST],
  ])('accepts %j as %j', (input, expected) => {
    expect(normalizeEmail(input, 'emails.0')).toBe(expected);
  });

  it.each([
    ['not a string', 42],
    ['null', null],
    ['empty', '   '],
    ['no at sign', 'user.example.com'],
    ['no local part', '@example.com'],
    ['no domain', 'user@'],
    ['two at signs', 'a@b@example.com'],
    ['no dot in the domain', 'user@localhost'],
    ['numeric top-level domain', 'user@127.0.0.1'],
    ['domain literal', 'user@[127.0.0.1]'],
    ['leading dot', '.user@example.com'],
    ['double dot', 'us..er@example.com'],
    ['space inside', 'us er@example.com'],
    ['display name', 'User <user@example.com>'],
    ['list', 'a@example.com,b@example.com'],
    ['header injection', 'a@example.com\nBcc: b@example.com'],
    ['label starting with a hyphen', 'user@-example.com'],
    ['underscore in the domain', 'user@ex_ample.com'],
    ['trailing dot', 'user@example.com.'],
    ['local part over 64', `${'a'.repeat(65)}@example.com`],
    ['over 254 characters (255)', `user@${'a'.repeat(61)}.${'b'.repeat(61)}.${'c'.repeat(61)}.${'d'.repeat(60)}.com`],
  ])('refuses %s', (_name, input) => {
    let error: unknown;
    try {
      normalizeEmail(input, 'emails.0');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', field: 'emails.0' });
    expect((error as Error).message).toContain('"emails.0"');
  });
});
