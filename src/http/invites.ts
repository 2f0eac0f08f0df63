/**
 * The e-mailed invitation link, opened in a browser: `GET /invites/{secret}` shows the invitation
 * and a button; `POST /invites/{secret}` accepts it (an HTML page; JSON when the client asks for
 * `application/json`). A new invitee gets their first API token, confined to the inviting
 * organization, shown once; an existing account accepts only signed in as itself — its API token
 * in the page's field (form field `token`) or as `Authorization: Bearer` — and gets no new token
 * (domain/invites/accept.ts). A GET never accepts: mail scanners open links. The page keeps the
 * secret out of caches and referrers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from '../db/client.js';
import type { Authenticator } from '../domain/people/identity/tokens.js';
import { acceptInvitation, previewInvitation, type Acceptance } from '../domain/people/invites/accept.js';
import type { RequestOrigin } from '../domain/kernel/request-origin.js';
import { AppError } from '../lib/errors.js';
import { escapeHtml as e } from '../lib/html-escape.js';
import { sendError, sendJson } from './error-reply.js';
import { INVITE_PATH } from './paths.js';

const HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
};

const wantsJson = (req: IncomingMessage) => /application\/json/i.test(req.headers.accept ?? '');

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, { ...HEADERS, 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title></head>
<body style="margin:0;padding:24px;background:#f6f7f9;font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#1f2328">
<main style="max-width:560px;margin:0 auto;background:#fff;border:1px solid #d8dee4;border-radius:8px;padding:32px">
<h1 style="margin:0 0 16px;font-size:20px">${e(title)}</h1>
${body}
</main></body></html>
`);
}

const roleName = (role: string | null) => (role ? `the “${role}” role` : 'as a guest');

const NOT_FOUND = 'This invitation is not valid any more: it was used, withdrawn, replaced by a newer one, or it expired. Ask for a new one.';

function accepted(req: IncomingMessage, res: ServerResponse, done: Acceptance): void {
  if (wantsJson(req)) {
    return sendJson(res, 200, { object: 'invite-acceptance', organization: done.organizationId, user: done.user, role: done.role, ...(done.token ? { token: done.token } : {}) }, HEADERS);
  }
  const token = done.token
    ? `<p>Your API token — shown this once, keep it safe — is:</p><p><code style="display:block;padding:12px;background:#f6f8fa;border-radius:6px;word-break:break-all">${e(done.token)}</code></p>
<p>Send it as <code>Authorization: Bearer &lt;token&gt;</code> to this server’s API.</p>`
    : '<p>Your existing API token now reaches this organization too.</p>';
  page(res, 200, `You joined ${done.organizationTitle}`, `<p>${e(done.user.email)} is now a member of <strong>${e(done.organizationTitle)}</strong>, with ${e(roleName(done.role))}.</p>${token}`);
}

const BUTTON = 'padding:10px 20px;background:#0969da;color:#fff;border:0;border-radius:6px;font-weight:600;font-size:15px;cursor:pointer';

/** The acceptance form: an existing account signs in with its API token first. */
function acceptForm(existingAccount: boolean): string {
  const signIn = existingAccount
    ? `<p>This address belongs to an existing account: sign in with one of its API tokens to accept.</p>
<p><label>API token <input name="token" type="password" required autocomplete="off" style="width:100%;padding:8px;border:1px solid #d8dee4;border-radius:6px;font-family:monospace"></label></p>`
    : '';
  return `<form method="post">${signIn}<button type="submit" style="${BUTTON}">Accept the invitation</button></form>`;
}

/** The API token the acceptance was sent with: the Authorization header, or the form's `token` field. */
function tokenOf(req: IncomingMessage, body: Buffer | null): string | null {
  if (req.headers.authorization) return req.headers.authorization;
  if (!/^application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '') || !body) return null;
  const token = new URLSearchParams(body.toString('utf8')).get('token')?.trim();
  return token ? `Bearer ${token}` : null;
}

/** `from`: where the request comes from (an acceptance's writes record it). */
export type InvitationDeps = { db: Db; authenticate: Authenticator; from: RequestOrigin };

export async function serveInvitation(req: IncomingMessage, res: ServerResponse, { db, authenticate, from }: InvitationDeps, body: Buffer | null): Promise<void> {
  const secret = (req.url ?? '').split('?', 1)[0].slice(INVITE_PATH.length);
  const json = wantsJson(req);
  const missing = () => (json ? sendError(res, 404, NOT_FOUND, HEADERS) : page(res, 404, 'Invitation not found', `<p>${e(NOT_FOUND)}</p>`));
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(secret)) return missing();
  if (req.method === 'GET' || req.method === 'HEAD') {
    const invitation = await previewInvitation(db, secret);
    if (!invitation) return missing();
    if (json) {
      const { id, organizationId, organizationTitle, email, role, expiresAt, existingAccount } = invitation;
      return sendJson(res, 200, { object: 'invitation', id, organization: organizationId, organizationTitle, email, role, expiresAt: expiresAt.toISOString(), existingAccount }, HEADERS);
    }
    return page(
      res,
      200,
      `Join ${invitation.organizationTitle}`,
      `<p>${e(invitation.email)} is invited to join <strong>${e(invitation.organizationTitle)}</strong> with ${e(roleName(invitation.role))}.</p>
${acceptForm(invitation.existingAccount)}
<p style="font-size:13px;color:#59636e">It expires on ${e(invitation.expiresAt.toUTCString())}.</p>`,
    );
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'GET, HEAD, POST' });
    return void res.end();
  }
  try {
    const authorization = tokenOf(req, body);
    const caller = authorization ? await authenticate(authorization) : null;
    if (authorization && !caller) return json ? sendError(res, 401, 'The API token is not valid', HEADERS) : page(res, 401, 'The invitation could not be accepted', '<p>The API token is not valid.</p>');
    return accepted(req, res, await acceptInvitation(db, secret, caller, from));
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return missing();
    if (error instanceof AppError) return json ? sendError(res, error.status, error.message, HEADERS) : page(res, error.status, 'The invitation could not be accepted', `<p>${e(error.message)}</p>`);
    throw error;
  }
}
