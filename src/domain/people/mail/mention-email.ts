/**
 * The e-mail telling a member that a comment or a reply mentions them: who, where (space, page,
 * change request) and an excerpt of the post as plain text, with a link to the comment. Every
 * name and the excerpt are user input: put on one line (names) and escaped in the HTML; the post's
 * body only ever reaches the message as text (`postExcerpt`), never as markup.
 *
 * quire has no web page for a comment: the link is the comment in the REST API
 * (`/v1/spaces/{spaceId}/comments/{commentId}`, or under the change request), which a client
 * with the member's token can open.
 */
import { escapeHtml } from '../../../lib/html-escape.js';
import type { EmailContent } from './invite-email.js';

export type MentionEmailParams = {
  authorName: string;
  spaceTitle: string;
  /** The page the comment is on, when it is on one. */
  pageTitle?: string | null;
  /** The change request the comment is in, when it is in one. */
  changeRequest?: { number: number; subject: string } | null;
  /** A reply to a comment rather than the comment itself. */
  reply?: boolean;
  /** The post as plain text, already cut short. */
  excerpt: string;
  /** An absolute http(s) URL of the comment. */
  link: string;
};

/** Inline styles only: mail clients drop style sheets and external resources. */
const BODY = "margin:0;padding:24px;background:#f6f7f9;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#1f2328;";
const CARD = 'max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d8dee4;border-radius:8px;padding:32px;';
const BUTTON = 'display:inline-block;padding:10px 20px;background:#0969da;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600;';
const MUTED = 'font-size:13px;color:#59636e;';

const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();

function checkedLink(link: string): string {
  const url = URL.canParse(link) ? new URL(link) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new Error('The comment link must be an absolute http(s) URL');
  return url.href;
}

export function mentionEmail(params: MentionEmailParams): EmailContent {
  const author = oneLine(params.authorName) || 'Someone';
  const space = oneLine(params.spaceTitle) || 'a space';
  const page = params.pageTitle ? oneLine(params.pageTitle) || 'Untitled page' : '';
  const cr = params.changeRequest ? { number: params.changeRequest.number, subject: oneLine(params.changeRequest.subject) } : null;
  const link = checkedLink(params.link);
  const what = params.reply ? 'a reply' : 'a comment';

  const subject = `${author} mentioned you in ${space}`;
  /** Where the post is, one fact a line; the user-provided parts arrive formatted for the target. */
  const where = (f: (value: string) => string): string[] => [
    `Space: ${f(space)}`,
    ...(page ? [`Page: ${f(page)}`] : []),
    ...(cr ? [`Change request: #${cr.number}${cr.subject ? ` ${f(cr.subject)}` : ''}`] : []),
  ];
  const opening = (by: string) => `${by} mentioned you in ${what}:`;
  const footer = 'You receive this e-mail because you were mentioned. The link opens the comment in the quire API.';

  const text = [opening(author), '', ...params.excerpt.split('\n').map((line) => `> ${line}`), '', ...where((v) => v), '', 'The comment:', link, '', footer, ''].join('\n');

  const e = escapeHtml;
  const content = [
    `<p style="margin:0 0 16px;">${opening(`<strong>${e(author)}</strong>`)}</p>`,
    `<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:3px solid #d8dee4;white-space:pre-wrap;">${e(params.excerpt)}</blockquote>`,
    `<p style="margin:0 0 16px;${MUTED}">${where(e).join('<br>')}</p>`,
    `<p style="margin:24px 0;"><a href="${e(link)}" style="${BUTTON}">Open the comment</a></p>`,
    `<p style="margin:0;${MUTED}">${e(footer)}</p>`,
  ];
  const html = `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${e(subject)}</title></head>\n<body style="${BODY}">\n<div style="${CARD}">\n${content.join('\n')}\n</div>\n</body>\n</html>\n`;

  return { subject, text, html };
}
