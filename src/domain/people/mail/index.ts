/** Outgoing e-mail: the mailer, the invitation message and e-mail address validation. */
export { createMailer, DEFAULT_FROM, type Mailer, type MailerOptions, type MailMessage, type MailResult } from './mailer.js';
export { MailError, type MailErrorCode } from './mail-error.js';
export { inviteEmail, type InviteEmailParams, type EmailContent } from './invite-email.js';
export { mentionEmail, type MentionEmailParams } from './mention-email.js';
export { normalizeEmail } from './email-address.js';
export { DEFAULT_TIMEOUTS, type SmtpTimeouts } from './smtp-settings.js';
export { webhookDisabledEmail, type WebhookDisabledEmailParams } from './webhook-disabled-email.js';
