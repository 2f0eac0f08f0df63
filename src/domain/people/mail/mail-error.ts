/**
 * Why an e-mail did not go out, as a typed error the caller may catch and decide upon:
 * SMTP_UNAVAILABLE — the server could not be reached or used (refused connection, timeout, TLS,
 * authentication, temporary 4xx replies); SMTP_REJECTED — it answered and refused this message
 * or its recipient for good (5xx). Messages never carry the credentials of the SMTP URL.
 */
export type MailErrorCode = 'SMTP_UNAVAILABLE' | 'SMTP_REJECTED';

export class MailError extends Error {
  constructor(
    readonly code: MailErrorCode,
    message: string,
    /** The SMTP reply code when the server answered (e.g. 550). */
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = 'MailError';
  }
}

/** The fields nodemailer attaches to its errors (see nodemailer's NodemailerError). */
type SmtpFailure = Error & { code?: string; responseCode?: number; response?: string; permanent?: boolean };

/** Errors about what was sent (envelope, message) rather than about the connection. */
const MESSAGE_CODES = new Set(['EENVELOPE', 'EMESSAGE']);

/** Turns a nodemailer failure into a MailError; `scrub` removes secrets from any text kept. */
export function toMailError(error: unknown, server: string, scrub: (text: string) => string): MailError {
  const e = (error instanceof Error ? error : new Error(String(error))) as SmtpFailure;
  const detail = scrub(e.response ?? e.message).replace(/\s+/g, ' ').trim();
  const refused = MESSAGE_CODES.has(e.code ?? '') && e.permanent !== false && (e.responseCode === undefined || e.responseCode >= 500);
  return refused
    ? new MailError('SMTP_REJECTED', `The SMTP server ${server} rejected the message: ${detail}`, e.responseCode)
    : new MailError('SMTP_UNAVAILABLE', `The SMTP server ${server} is unavailable (${e.code ?? 'error'}): ${detail}`, e.responseCode);
}
