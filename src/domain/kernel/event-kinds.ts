/**
 * Every kind of organization event: one for each kind of committed write. The GraphQL enum
 * `OrganizationEventKind` documents each (schema/types/organization-events.ts); webhooks and the
 * audit log will read the same names.
 */
export const ORGANIZATION_EVENT_KINDS = [
  'organizationUpdated',
  'spaceCreated',
  'spaceUpdated',
  'spaceMoved',
  'spaceDeleted',
  'spaceRestored',
  'spaceTransferred',
  'collectionCreated',
  'collectionUpdated',
  'collectionMoved',
  'collectionDeleted',
  'collectionTransferred',
  'permissionsUpdated',
  'memberUpdated',
  'memberRemoved',
  'teamCreated',
  'teamUpdated',
  'teamDeleted',
] as const;

export type OrganizationEventKind = (typeof ORGANIZATION_EVENT_KINDS)[number];
