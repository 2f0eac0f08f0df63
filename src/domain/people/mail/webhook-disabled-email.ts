/**
 * The message to an organization's admins when the server turned one of its webhook endpoints
 * off (its deliveries failed for too long). Names and the URL are user input: on one line in the
 * subject and text, escaped in the HTML.
 */
import { escapeHtml } from '../../../lib/html-escape.js';
import type { EmailContent } from './invite-email.js';

export type WebhookDisabledEmailParams = { organizationTitle: string; url: string; reason: string; endpointId: string };

const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();

export function webhookDisabledEmail(params: WebhookDisabledEmailParams): EmailContent {
  const organization = oneLine(params.organizationTitle) || 'your organization';
  const url = oneLine(params.url);
  const reason = oneLine(params.reason);
  const subject = `A webhook endpoint of ${organization} was turned off`;
  const advice = `Deliveries to it have stopped; new events are not queued for it. Once the receiver answers again, turn the endpoint back on (its webhook settings, or PATCH /v1/orgs/{organizationId}/webhooks/${params.endpointId} with {"active": true}): deliveries still pending are then sent in order.`;
  const text = ['Hello,', '', `quire turned off the webhook endpoint ${url} of ${organization}.`, '', `Why: ${reason}.`, '', advice, ''].join('\n');
  const e = escapeHtml;
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${e(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;font-family:-apple-system,BlinkMacSystemFont,\'Segoe UI\',Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#1f2328;">',
    `<p>quire turned off the webhook endpoint <code>${e(url)}</code> of <strong>${e(organization)}</strong>.</p>`,
    `<p>Why: ${e(reason)}.</p>`,
    `<p style="font-size:13px;color:#59636e;">${e(advice)}</p>`,
    '</body></html>',
    '',
  ].join('\n');
  return { subject, text, html };
}
