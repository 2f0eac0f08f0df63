/**
 * Section 4.3 of the API description: e-mail invites, joining with an invite, and link invites.
 * Shapes "not shown" follow the public document: link invites are `InviteLinkToOrganization`,
 * `InviteLinkToSpace` or `InviteLinkToCollection` (with `expiresAt` added).
 */
import { badRequest } from '../../lib/errors.js';
import { ROLES } from '../../domain/access/roles.js';
import { accountEmail } from '../../domain/people/invites/email-invites.js';
import { COLLECTION_FRAGMENT, presentCollection } from '../present-content.js';
import { presentSpace, SPACE_FRAGMENT } from '../present.js';
import { CONNECTION_FIELDS, defined, listOf, pageArgs, route } from '../route.js';

const LINKS = '/orgs/{organizationId}/link-invites';
const FRAGMENT = `fragment RestLinkInvite on LinkInvite { id kind role level redundant expiresAt space { ...RestSpace } collection { ...RestCollection } } ${SPACE_FRAGMENT} ${COLLECTION_FRAGMENT}`;

function present(i: Record<string, any>) {
  const common = { object: 'invite', id: i.id };
  if (i.kind === 'organization') return { ...common, role: i.role, redundant: i.redundant, expiresAt: i.expiresAt };
  const content = i.kind === 'space' ? { space: presentSpace(i.space) } : { collection: presentCollection(i.collection) };
  return { ...common, level: i.level, redundant: i.redundant, expiresAt: i.expiresAt, ...content };
}

/** A role of the body (a `MemberRoleOrGuest`: a role, or null for a guest), checked here so the 400 names the field. */
function roleOrGuest(value: unknown, field: string): unknown {
  if (value !== undefined && value !== null && !(ROLES as readonly string[]).includes(value as string)) {
    throw badRequest(`Invalid value for "${field}": must be one of ${ROLES.join(', ')}, or null for a guest`, field);
  }
  return value;
}

/** `emails` as the GraphQL `[InviteeInput!]!`: an address string becomes `{email}`. */
function invitees(value: unknown) {
  if (!Array.isArray(value)) throw badRequest('Invalid value for "emails": an array of e-mail addresses is required', 'emails');
  return value.map((item, i) => {
    if (typeof item === 'string') return { email: accountEmail(item, `emails.${i}`) };
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw badRequest(`Invalid value for "emails.${i}": expected an e-mail address or {email, role}`, `emails.${i}`);
    const { email, role } = item as Record<string, unknown>;
    if (typeof email !== 'string') throw badRequest(`Invalid value for "emails.${i}.email": an e-mail address is required`, `emails.${i}.email`);
    return defined({ email, role: roleOrGuest(role, `emails.${i}.role`) });
  });
}

function expiresAt(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw badRequest('Invalid value for "expiresAt": must be an ISO 8601 date-time', 'expiresAt');
  return value;
}

export const inviteRoutes = [
  route({
    method: 'POST',
    path: '/orgs/{organizationId}/invites',
    operation: `mutation RestInviteMembers($org: ID!, $emails: [InviteeInput!]!, $role: Role, $sso: Boolean) {
      result: inviteMembers(organizationId: $org, emails: $emails, role: $role, sso: $sso) { users invited failedSSOEmails }
    }`,
    variables: ({ params, body }) => {
      if (body.sso !== undefined && typeof body.sso !== 'boolean') throw badRequest('Invalid value for "sso": must be a boolean', 'sso');
      return defined({ org: params.organizationId, emails: invitees(body.emails), role: roleOrGuest(body.role, 'role'), sso: body.sso });
    },
    result: (data) => data.result,
  }),
  route({
    method: 'POST',
    path: '/orgs/{organizationId}/invites/{inviteId}',
    operation: `mutation RestJoinOrganization($org: ID!, $invite: ID!) { joinOrganization(organizationId: $org, inviteId: $invite) { id } }`,
    variables: ({ params }) => ({ org: params.organizationId, invite: params.inviteId }),
    result: () => ({}),
  }),
  route({
    method: 'GET',
    path: LINKS,
    // The public document lists organization invites (`InviteLinkToOrganization`); those to a space
    // or collection are read by ID, or listed in GraphQL.
    operation: `query RestListLinkInvites($org: ID!, $first: Int, $after: String) {
      organization(id: $org) { linkInvites(first: $first, after: $after, kind: organization) { ${CONNECTION_FIELDS} edges { node { ...RestLinkInvite } } } }
    } ${FRAGMENT}`,
    variables: ({ params, query }) => ({ org: params.organizationId, ...pageArgs(query) }),
    result: (data) => listOf(data.organization.linkInvites, present),
  }),
  route({
    method: 'POST',
    path: LINKS,
    operation: `mutation RestCreateLinkInvite($org: ID!, $role: Role, $level: Role, $space: ID, $collection: ID, $expiresAt: DateTime) {
      result: createLinkInvite(organizationId: $org, role: $role, level: $level, spaceId: $space, collectionId: $collection, expiresAt: $expiresAt) { ...RestLinkInvite }
    } ${FRAGMENT}`,
    variables: ({ params, body }) =>
      defined({
        org: params.organizationId,
        role: roleOrGuest(body.role, 'role'),
        level: roleOrGuest(body.level, 'level'),
        space: body.space,
        collection: body.collection,
        expiresAt: expiresAt(body.expiresAt),
      }),
    status: 201,
    result: (data) => present(data.result),
  }),
  route({
    method: 'GET',
    path: `${LINKS}/{inviteId}`,
    operation: `query RestGetLinkInvite($org: ID!, $id: ID!) { organization(id: $org) { linkInvite(id: $id) { ...RestLinkInvite } } } ${FRAGMENT}`,
    variables: ({ params }) => ({ org: params.organizationId, id: params.inviteId }),
    result: (data) => present(data.organization.linkInvite),
  }),
  route({
    method: 'PATCH',
    path: `${LINKS}/{inviteId}`,
    operation: `mutation RestUpdateLinkInvite($org: ID!, $id: ID!, $role: Role, $level: Role) {
      result: updateLinkInvite(organizationId: $org, id: $id, role: $role, level: $level) { ...RestLinkInvite }
    } ${FRAGMENT}`,
    variables: ({ params, body }) => defined({ org: params.organizationId, id: params.inviteId, role: roleOrGuest(body.role, 'role'), level: roleOrGuest(body.level, 'level') }),
    result: (data) => present(data.result),
  }),
  route({
    method: 'DELETE',
    path: `${LINKS}/{inviteId}`,
    operation: `mutation RestDeleteLinkInvite($org: ID!, $id: ID!) { deleted: deleteLinkInvite(organizationId: $org, id: $id) }`,
    variables: ({ params }) => ({ org: params.organizationId, id: params.inviteId }),
    status: (data) => (data.deleted ? 205 : 204),
  }),
];
