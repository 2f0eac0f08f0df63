/**
 * Outgoing e-mail. With an SMTP URL (`smtp://user:pass@host:587`, `smtps://…:465`, options as
 * query parameters, parsed by nodemailer) each message is sent over a fresh connection with
 * bounded connection, greeting and idle times; failures become a MailError and the caller
 * decides whether they matter. Without one, nothing is sent: the message is written to the log
 * (recipient, subject and text, so an invite link can be passed on by hand) and
 * `{delivered: false}` is answered. Credentials never reach logs or error messages.
 */
import type { Logger } from '../../../observability/logger.js';
import { normalizeEmail } from './email-address.js';
import { toMailError } from './mail-error.js';
import { requireNodemailer, smtpSettings, type SmtpTimeouts } from './smtp-settings.js';

export type MailMessage = { to: string; subject: string; text: string; html?: string };
export type MailResult = { delivered: boolean; messageId?: string };
export type Mailer = { send(message: MailMessage): Promise<MailResult>; close(): Promise<void> };
export type MailerOptions = { smtpUrl?: string; from?: string; logger: Logger; timeouts?: Partial<SmtpTimeouts> };

export const DEFAULT_FROM = 'quire <no-reply@localhost>';

export function createMailer(options: MailerOptions): Mailer {
  const from = options.from?.trim() || DEFAULT_FROM;
  const logger = options.logger.child({ component: 'mail' });
  if (!options.smtpUrl) return loggingMailer(logger);

  const settings = smtpSettings(options.smtpUrl, options.timeouts);
  const { createTransport } = requireNodemailer('nodemailer') as typeof import('nodemailer');
  const transport = createTransport(settings.transport);
  return {
    async send(message) {
      const to = normalizeEmail(message.to, 'to');
      try {
        const info = await transport.sendMail({ from, to, subject: message.subject, text: message.text, html: message.html });
        logger.info({ mail: { to, subject: message.subject, messageId: info.messageId }, smtp: settings.server }, 'E-mail delivered to the SMTP server');
        return { delivered: true, messageId: info.messageId };
      } catch (error) {
        const failure = toMailError(error, settings.server, settings.scrub);
        logger.warn({ mail: { to, subject: message.subject }, code: failure.code, responseCode: failure.responseCode }, failure.message);
        throw failure;
      }
    },
    async close() {
      transport.close();
    },
  };
}

/** No SMTP server configured: the message goes to the log, in full, at info level. */
function loggingMailer(logger: Logger): Mailer {
  return {
    async send(message) {
      const to = normalizeEmail(message.to, 'to');
      logger.info({ mail: { to, subject: message.subject, text: message.text } }, 'E-mail not sent (no SMTP_URL configured); its text follows');
      return { delivered: false };
    },
    async close() {},
  };
}
