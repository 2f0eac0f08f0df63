/**
 * The invitation e-mail: subject, plain text and a self-contained HTML version (inline styles,
 * no external images or fonts). Organization and inviter names are user input: they are put on
 * one line for the subject and text, and escaped in the HTML.
 */
import { escapeHtml } from '../../../lib/html-escape.js';

export type InviteEmailParams = { organizationTitle: string; inviterName?: string; role: string; link: string; expiresAt?: Date };
export type EmailContent = { subject: string; text: string; html: string };

const PRODUCT = 'quire';

/** How each role reads in a sentence ("as an editor") and what it allows. */
const ROLE_WORDING: Record<string, { as: string; can: string }> = {
  admin: { as: 'an administrator', can: 'manage the organization, its members and all of its content' },
  create: { as: 'a creator', can: 'create spaces and collections and edit content' },
  review: { as: 'a reviewer', can: 'edit content and review change requests' },
  edit: { as: 'an editor', can: 'edit content through change requests' },
  comment: { as: 'a commenter', can: 'read content and leave comments' },
  read: { as: 'a reader', can: 'read the organization’s content' },
};

/** User-provided names on a single line, without control characters. */
const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();

const formatDate = (date: Date) =>
  `${new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;

function checkedLink(link: string): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new Error('The invite link must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('The invite link must be an http(s) URL');
  return url.href;
}

export function inviteEmail(params: InviteEmailParams): EmailContent {
  const organization = oneLine(params.organizationTitle) || 'an organization';
  const inviter = params.inviterName ? oneLine(params.inviterName) : '';
  const link = checkedLink(params.link);
  if (params.expiresAt && Number.isNaN(params.expiresAt.getTime())) throw new Error('The invite expiry is not a valid date');
  const wording = ROLE_WORDING[params.role];
  const as = wording ? `as ${wording.as}` : `with the “${oneLine(params.role)}” role`;

  const subject = inviter ? `${inviter} invited you to join ${organization} on ${PRODUCT}` : `You are invited to join ${organization} on ${PRODUCT}`;
  /** The opening sentence; the user-provided parts arrive formatted for the target (plain or HTML). */
  const invitation = (org: string, by: string, role: string) =>
    `${by ? `${by} invited you` : 'You have been invited'} to join ${org} on ${PRODUCT} ${role}.${wording ? ` As ${wording.as}, you can ${wording.can}.` : ''}`;
  const expiry = params.expiresAt ? `This invitation expires on ${formatDate(params.expiresAt)}.` : '';
  const ignore = 'If you were not expecting this invitation, you can ignore this e-mail: nothing happens until you accept it.';

  const text = [
    'Hello,',
    '',
    invitation(organization, inviter, as),
    '',
    'Accept the invitation by opening this link:',
    link,
    '',
    ...(expiry ? [expiry, ''] : []),
    ignore,
    '',
  ].join('\n');

  const e = escapeHtml;
  const p = (content: string, style = '') => `<p style="margin:0 0 16px;${style}">${content}</p>`;
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f6f7f9;font-family:-apple-system,BlinkMacSystemFont,\'Segoe UI\',Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#1f2328;">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d8dee4;border-radius:8px;padding:32px;">',
    `<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3;">Join ${e(organization)} on ${PRODUCT}</h1>`,
    p(invitation(`<strong>${e(organization)}</strong>`, e(inviter), e(as))),
    `<p style="margin:24px 0;"><a href="${e(link)}" style="display:inline-block;padding:10px 20px;background:#0969da;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600;">Accept the invitation</a></p>`,
    p(`Or copy this link into your browser:<br><a href="${e(link)}" style="color:#0969da;word-break:break-all;">${e(link)}</a>`, 'font-size:13px;color:#59636e;'),
    expiry ? p(e(expiry), 'font-size:13px;color:#59636e;') : '',
    p(e(ignore), 'margin:0;font-size:13px;color:#59636e;'),
    '</div>',
    '</body>',
    '</html>',
  ]
    .filter(Boolean)
    .join('\n')
    .concat('\n');

  return { subject, text, html };
}
