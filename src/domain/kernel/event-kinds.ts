/**
 * Every kind of organization event, one for each kind of committed write, with what it means.
 * The GraphQL enum `OrganizationEventKind` is printed from this table (its descriptions
 * included); webhooks and the audit log will read the same names.
 */
export const EVENT_KINDS = {
  organizationUpdated: 'The organization\'s settings changed.',
  spaceCreated: 'A space was created (or duplicated: the copy).',
  spaceUpdated: 'A space\'s settings changed.',
  spaceMoved: 'A space moved within its organization (collection or position).',
  spaceDeleted: 'A space went to the trash.',
  spaceRestored: 'A space came back from the trash.',
  spaceTransferred: 'A space moved to another organization (told to the organization it left).',
  collectionCreated: 'A collection was created.',
  collectionUpdated: 'A collection\'s settings changed.',
  collectionMoved: 'A collection moved within its organization.',
  collectionDeleted: 'A collection was deleted.',
  collectionTransferred: 'A collection moved to another organization (told to the organization it left).',
  permissionsUpdated: 'Who may read or write a space or collection changed.',
  memberUpdated: 'A member joined, or a member\'s role changed.',
  memberRemoved: 'A member left the organization.',
  teamCreated: 'A team was created.',
  teamUpdated: 'A team\'s name or members changed.',
  teamDeleted: 'A team was deleted.',
} as const satisfies Record<string, string>;

export type OrganizationEventKind = keyof typeof EVENT_KINDS;

export const ORGANIZATION_EVENT_KINDS = Object.keys(EVENT_KINDS) as OrganizationEventKind[];
