/**
 * The SMTP URL turned into nodemailer transport options: nodemailer parses it (scheme, host,
 * port, credentials, query options), quire adds time limits and keeps nodemailer's own logging
 * off (its debug output would include the AUTH exchange). Also a name for the server that is
 * safe to show and a scrubber that removes the credentials from any text. nodemailer (some 5 MB
 * of heap) is loaded, synchronously, by the first SMTP URL read: a process without one never loads it.
 */
import { createRequire } from 'node:module';
import type { SMTPTransportOptions } from 'nodemailer/lib/smtp-transport';

export const requireNodemailer = createRequire(import.meta.url);

export type SmtpTimeouts = { connectionMs: number; greetingMs: number; socketMs: number };

export const DEFAULT_TIMEOUTS: SmtpTimeouts = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 30_000 };

export type SmtpSettings = { transport: SMTPTransportOptions; server: string; scrub: (text: string) => string };

export function smtpSettings(smtpUrl: string, timeouts: Partial<SmtpTimeouts> = {}): SmtpSettings {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(smtpUrl.trim())?.[1]?.toLowerCase();
  if (scheme !== 'smtp' && scheme !== 'smtps') throw new Error('The SMTP URL must start with smtp:// or smtps://');
  const { parseConnectionUrl } = requireNodemailer('nodemailer/lib/shared') as typeof import('nodemailer/lib/shared');
  const parsed = parseConnectionUrl(smtpUrl.trim()) as SMTPTransportOptions;
  if (!parsed.host) throw new Error('The SMTP URL has no host');
  const limits = { ...DEFAULT_TIMEOUTS, ...timeouts };
  const secure = scheme === 'smtps';
  const port = Number(parsed.port) || (secure ? 465 : 587);

  const secrets = [parsed.auth?.pass, parsed.auth?.pass && encodeURIComponent(parsed.auth.pass), smtpUrl]
    .filter((s): s is string => typeof s === 'string' && s.length >= 3);
  const scrub = (text: string) => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);

  return {
    transport: {
      connectionTimeout: limits.connectionMs,
      greetingTimeout: limits.greetingMs,
      socketTimeout: limits.socketMs,
      dnsTimeout: Math.min(limits.connectionMs, 10_000),
      ...parsed,
      secure,
      port,
      logger: false,
      debug: false,
    },
    server: `${parsed.host}:${port}`,
    scrub,
  };
}
