/**
 * The HTTP paths of this server besides /graphql and /v1, each a prefix followed by a token or an
 * ID, and the absolute URLs made of them at the server's public URL (QUIRE_PUBLIC_URL). They are
 * the transport's: app.ts routes by these prefixes, and the domain, which signs the tokens, is
 * handed the URL builders (`linksAt`) rather than knowing any path.
 */
import type { SamlService } from '../domain/people/sso/providers.js';

/** A file's download (http/files.ts): `/files/{signed token}`. */
export const FILE_DOWNLOAD_PATH = '/files/';
/** The bytes of a storage upload (http/storage.ts): `/uploads/{signed token}`. */
export const UPLOAD_PATH = '/uploads/';
/** A custom font's face (http/storage.ts): `/fonts/{fontId}/{weight}.{woff|woff2}`. */
export const FONT_PATH = '/fonts/';
/** An e-mail invitation's acceptance page (http/invites.ts): `/invites/{secret}`. */
export const INVITE_PATH = '/invites/';
/** SAML sign-in (http/sso.ts): `/sso/saml/{providerId}` (metadata), `…/start`, `…/acs`. */
export const SSO_PATH = '/sso/saml/';
/** A change request's PDF (http/exports.ts): `/exports/pdf/{signed token}`. */
export const PDF_DOWNLOAD_PATH = '/exports/pdf/';

/** A public OpenAPI specification given as text (http/openapi.ts): `/openapi/{specId}` (its latest version), `…/{versionId}`. */
export const OPENAPI_PATH = '/openapi/';

/**
 * The paths answered by handlers of their own (app.ts), each with what follows its prefix as the
 * metrics and the access log name it (`GET /files/{token}`).
 */
export const OWN_HANDLER_ROUTES = [
  [FILE_DOWNLOAD_PATH, '{token}'],
  [PDF_DOWNLOAD_PATH, '{token}'],
  [UPLOAD_PATH, '{token}'],
  [FONT_PATH, '{fontId}/{face}'],
  [OPENAPI_PATH, '{specId}/…'],
  [INVITE_PATH, '{secret}'],
  [SSO_PATH, '{providerId}/…'],
] as const;

/** Builds a URL of this server from what follows its path's prefix. */
export type UrlOf = (tokenOrId: string) => string;

export type Links = {
  file: UrlOf;
  upload: UrlOf;
  invite: UrlOf;
  pdf: UrlOf;
  /** A custom font's face: `{fontId}/{weight}.{format}`. */
  font: UrlOf;
  /** A public OpenAPI specification: `{specId}` or `{specId}/{versionId}`. */
  openapi: UrlOf;
  /** Where a SAML identity provider reaches this server for one provider of an organization. */
  samlService: (provider: { id: string }) => SamlService;
};

/** The URLs of this server at `publicUrl` (no trailing slash: config.ts strips it). */
export function linksAt(publicUrl: string): Links {
  return {
    file: (token) => `${publicUrl}${FILE_DOWNLOAD_PATH}${token}`,
    upload: (token) => `${publicUrl}${UPLOAD_PATH}${token}`,
    invite: (secret) => `${publicUrl}${INVITE_PATH}${secret}`,
    pdf: (token) => `${publicUrl}${PDF_DOWNLOAD_PATH}${token}`,
    font: (face) => `${publicUrl}${FONT_PATH}${face}`,
    openapi: (spec) => `${publicUrl}${OPENAPI_PATH}${spec}`,
    samlService: (provider) => ({
      acsURL: `${publicUrl}${SSO_PATH}${provider.id}/acs`,
      startURL: `${publicUrl}${SSO_PATH}${provider.id}/start`,
      entityID: `${publicUrl}${SSO_PATH}${provider.id}`,
    }),
  };
}
