/**
 * Resource IDs: a short type prefix and 20 random base62 characters. The prefix lets
 * `node(id)` resolve any ID without a lookup; the same string is used by REST and GraphQL.
 */
import { randomBytes } from 'node:crypto';

export const ID_PREFIX = {
  Organization: 'org',
  User: 'usr',
  Space: 'spc',
  Collection: 'col',
  Team: 'team',
  Revision: 'rev',
  ContentPermission: 'perm',
  ApiToken: 'tok',
  ChangeRequest: 'cr',
  Comment: 'cmt',
  CommentReply: 'cmtr',
  CommentReaction: 'react',
  RevisionPage: 'page',
  File: 'file',
  ReusableContent: 'rc',
  ChangeRequestReview: 'crr',
  Job: 'job',
  Site: 'site',
  SiteSection: 'sitesc',
  SiteSectionGroup: 'sitesg',
  SiteSpace: 'sitesp',
  SiteShareLink: 'sharelink',
  SitePermission: 'siteperm',
  SiteRedirect: 'siteredir',
  SiteExternalLink: 'sitelink',
  OpenAPISpec: 'oas',
  OpenAPISpecVersion: 'oasv',
  TranslationSettings: 'trs',
  StorageUpload: 'upload',
  CustomFont: 'font',
  SamlProvider: 'saml',
  MemberInvite: 'minv',
  LinkInvite: 'invite',
  OutboxEvent: 'evt',
  WebhookEndpoint: 'whep',
  WebhookDelivery: 'whdl',
  WebhookAttempt: 'what',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function newId(kind: IdKind): string {
  const bytes = randomBytes(20);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 62];
  return `${ID_PREFIX[kind]}_${out}`;
}

const KIND_BY_PREFIX = new Map<string, IdKind>(Object.entries(ID_PREFIX).map(([kind, prefix]) => [prefix, kind as IdKind]));

export function kindOfId(id: string): IdKind | undefined {
  return KIND_BY_PREFIX.get(id.slice(0, id.indexOf('_')));
}
