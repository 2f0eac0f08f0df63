/**
 * The browser side of SAML sign-in, without an API token: `GET /sso/saml/{providerId}/start`
 * redirects to the identity provider; the identity provider posts the response to
 * `POST /sso/saml/{providerId}/acs` (form field `SAMLResponse`), answered with the member's new
 * API token as JSON; `GET /sso/saml/{providerId}` is the service provider's metadata.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { AppError } from '../lib/errors.js';
import { finishLogin, metadataOf, startLogin, type SsoSettings } from '../domain/people/sso/login.js';
import { SamlError } from '../lib/saml/saml-error.js';
import type { Logger } from '../observability/logger.js';
import { sendError } from './error-reply.js';
import { linksAt, SSO_PATH } from './paths.js';
import type { RequestOrigin } from '../domain/kernel/request-origin.js';

/** `from`: where the request comes from (a sign-in's writes record it). */
export type SsoDeps = { db: Db; config: Pick<Config, 'publicUrl' | 'samlPrivateKey' | 'samlCertificate'>; logger: Logger; from: RequestOrigin };

export async function serveSso(req: IncomingMessage, res: ServerResponse, deps: SsoDeps, body: Buffer | null): Promise<void> {
  const [providerId = '', step = ''] = (req.url ?? '').split('?', 1)[0].slice(SSO_PATH.length).split('/');
  const settings: SsoSettings = { samlPrivateKey: deps.config.samlPrivateKey, samlCertificate: deps.config.samlCertificate, serviceOf: linksAt(deps.config.publicUrl).samlService };
  try {
    if (step === 'start' && req.method === 'GET') {
      res.writeHead(302, { location: await startLogin(deps.db, providerId, settings), 'cache-control': 'no-store' });
      return void res.end();
    }
    if (step === '' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
      return void res.end(await metadataOf(deps.db, providerId, settings));
    }
    if (step === 'acs' && req.method === 'POST') {
      const form = new URLSearchParams((body ?? Buffer.alloc(0)).toString('utf8'));
      const response = form.get('SAMLResponse');
      if (!response) return sendError(res, 400, 'Invalid value for "SAMLResponse": required (an HTTP-POST binding form field)');
      const login = await finishLogin(deps.db, providerId, response, settings, deps.from);
      deps.logger.info({ userId: login.userId, organizationId: login.organizationId, joined: login.joined }, 'SAML sign-in');
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      return void res.end(JSON.stringify({ object: 'sso-login', user: { id: login.userId, email: login.email }, organization: login.organizationId, token: login.token, expiresAt: login.expiresAt.toISOString() }));
    }
    return sendError(res, 404, 'No such SSO endpoint');
  } catch (error) {
    if (error instanceof SamlError) {
      deps.logger.warn({ code: error.code, providerId, err: error.cause instanceof Error ? { message: error.cause.message } : undefined }, 'SAML response refused');
      return sendError(res, 401, `The sign-in was refused (${error.code}): ${error.message}`);
    }
    if (error instanceof AppError) return sendError(res, error.status, error.message);
    throw error;
  }
}
