/**
 * What the audit log records: one table, outbox event kind → audit action. An event of a kind
 * listed here becomes an audit row (domain/audit/record.ts) when it is dispatched; other kinds
 * (content edits, comments, jobs…) are not security-relevant and are not kept beyond the outbox.
 *
 * The public document gives action names no enum (`AuditEvent.action` is "a stable action name"):
 * these are quire's, `<target>.<verb>`, listed with their labels by `GET …/audit-event-actions`.
 * An action may depend on the event's facts (`data`): a `siteUpdated` is audited only when it
 * changes who may read the site. To audit a new kind, add its row here (and its action below).
 */
import type { OrganizationEventKind } from '../kernel/event-kinds.js';

/** Every action the log can hold, with its label (`AuditEventAction`). */
export const AUDIT_ACTIONS = {
  'organization.updated': 'Organization settings updated',
  'member.updated': 'Member joined, or their role or SSO changed',
  'member.removed': 'Member removed',
  'team.created': 'Team created',
  'team.updated': 'Team renamed or its members changed',
  'team.deleted': 'Team deleted',
  'content.permissions_updated': 'Access to a space or collection granted, changed or revoked',
  'space.transferred': 'Space transferred to or from another organization',
  'collection.transferred': 'Collection transferred to or from another organization',
  'api_token.created': 'API token created',
  'api_token.revoked': 'API token revoked',
  'sso_provider.created': 'SAML provider added',
  'sso_provider.updated': 'SAML provider updated',
  'sso_provider.deleted': 'SAML provider deleted',
  'member_invite.created': 'Member invited by e-mail',
  'member_invite.revoked': 'E-mail invitation revoked',
  'invite_link.created': 'Invite link created',
  'invite_link.updated': 'Invite link updated',
  'invite_link.deleted': 'Invite link deleted',
  'site.visibility_updated': 'Site visibility or default access changed',
  'site.published': 'Site published',
  'site.unpublished': 'Site unpublished',
  'site.deleted': 'Site deleted',
  'share_link.created': 'Site share link created',
  'share_link.updated': 'Site share link updated',
  'share_link.deleted': 'Site share link deleted',
  'site.permissions_updated': 'Access to a site granted, changed or revoked',
  'site.publishing_auth_updated': 'How visitors authenticate on a site changed, or its key rotated',
  'git_sync.configured': 'Git sync repository, branch or directory set',
  'git_sync.started': 'Git import or export started',
  'webhook.created': 'Webhook endpoint registered',
  'webhook.updated': 'Webhook endpoint changed or its secret rotated',
  'webhook.deleted': 'Webhook endpoint deleted',
  'webhook.disabled': 'Webhook endpoint turned off by the server',
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

export const isAuditAction = (name: string): name is AuditAction => Object.hasOwn(AUDIT_ACTIONS, name);

type Data = Record<string, unknown> | null | undefined;
/** The action of an event of this kind: a name, or a choice by its facts (null: not audited). */
type Rule = AuditAction | ((data: Data) => AuditAction | null);

/** Site fields that change who may read it. */
const SITE_ACCESS_FIELDS = ['visibility', 'defaultLevel', 'hostname', 'basename'];
const fieldsOf = (data: Data) => (Array.isArray(data?.fields) ? (data.fields as unknown[]) : []);

/** Outbox kind → audit action. The one list to extend when a kind is added (see the file's head). */
export const AUDITED_KINDS: Partial<Record<OrganizationEventKind, Rule>> = {
  organizationUpdated: 'organization.updated',
  memberUpdated: 'member.updated',
  memberRemoved: 'member.removed',
  teamCreated: 'team.created',
  teamUpdated: 'team.updated',
  teamDeleted: 'team.deleted',
  permissionsUpdated: 'content.permissions_updated',
  spaceTransferred: 'space.transferred',
  collectionTransferred: 'collection.transferred',
  apiTokenCreated: 'api_token.created',
  apiTokenRevoked: 'api_token.revoked',
  ssoProviderCreated: 'sso_provider.created',
  ssoProviderUpdated: 'sso_provider.updated',
  ssoProviderDeleted: 'sso_provider.deleted',
  memberInviteCreated: 'member_invite.created',
  memberInviteRevoked: 'member_invite.revoked',
  linkInviteCreated: 'invite_link.created',
  linkInviteUpdated: 'invite_link.updated',
  linkInviteDeleted: 'invite_link.deleted',
  siteUpdated: (data) => {
    const fields = fieldsOf(data);
    if (fields.includes('published')) return data?.published ? 'site.published' : 'site.unpublished';
    return fields.some((f) => SITE_ACCESS_FIELDS.includes(String(f))) ? 'site.visibility_updated' : null;
  },
  siteDeleted: 'site.deleted',
  shareLinkCreated: 'share_link.created',
  shareLinkUpdated: 'share_link.updated',
  shareLinkDeleted: 'share_link.deleted',
  sitePermissionsGranted: 'site.permissions_updated',
  sitePermissionUpdated: 'site.permissions_updated',
  sitePermissionRemoved: 'site.permissions_updated',
  sitePublishingAuthUpdated: 'site.publishing_auth_updated',
  spaceGitSyncStarted: (data) => (data?.configured ? 'git_sync.configured' : 'git_sync.started'),
  webhookEndpointCreated: 'webhook.created',
  webhookEndpointUpdated: 'webhook.updated',
  webhookEndpointDeleted: 'webhook.deleted',
  webhookEndpointDisabled: 'webhook.disabled',
};

/** The audit action of an event, or null when its kind (or its facts) are not audited. */
export function auditActionOf(kind: string, data: Data): AuditAction | null {
  const rule = AUDITED_KINDS[kind as OrganizationEventKind];
  if (!rule) return null;
  return typeof rule === 'function' ? rule(data) : rule;
}
