import type { Role } from '../../domain/access/roles.js';
import { builder } from '../builder.js';

export const RoleEnum = builder.enumType('Role', {
  description: 'Content and organization roles, highest first: admin > create > review > edit > comment > read.',
  values: {
    admin: { description: 'Everything: manage access, settings, moving and deleting, and moderate comments.' },
    create: { description: 'Review, and create spaces and collections (inside a collection, or at the root as an organization role).' },
    review: { description: 'Edit, and review and merge change requests.' },
    edit: { description: 'Comment, and write content: open and edit change requests, sync with git (refused on a locked space).' },
    comment: { description: 'Read, and post comments and replies and react to them.' },
    read: { description: 'Read the content, its comments and its links.' },
  } as const satisfies Record<Role, { description: string }>,
});

export const SpaceVisibilityEnum = builder.enumType('SpaceVisibility', {
  description: 'Who may read a space.',
  values: {
    public: { value: 'public', description: "Marked public (this server publishes through sites, not spaces); members with an organization role get its `defaultLevel`." },
    unlisted: { value: 'unlisted', description: "Marked unlisted (this server publishes through sites, not spaces); members with an organization role get its `defaultLevel`." },
    share_link: { value: 'share_link', description: 'REST: share-link' },
    visitor_auth: { value: 'visitor_auth', description: 'REST: visitor-auth' },
    in_collection: { value: 'in_collection', description: 'REST: in-collection' },
    private: { value: 'private', description: "Members read it only through their organization role or grants; its `defaultLevel` does not apply." },
  } as const,
});

export const SpaceEditModeEnum = builder.enumType('SpaceEditMode', { description: 'Whether a space is edited directly (`live`) or only through change requests (`locked`).', values: { live: { description: 'Edited directly, without change requests.' }, locked: { description: 'Edited only through change requests.' } } as const });
export const TeamRoleEnum = builder.enumType('TeamRole', { description: 'A member\'s role in a team: its owner or a member.', values: { owner: { description: 'Manages the team and its members.' }, member: { description: 'Belongs to the team.' } } as const });
export const OrganizationTypeEnum = builder.enumType('OrganizationType', { description: 'Whether an organization is a business or a community.', values: { business: { description: 'A company\'s or team\'s organization.' }, community: { description: 'A community or open-source project\'s organization.' } } as const });
export const SortOrderEnum = builder.enumType('SortOrder', { description: 'Ascending or descending order.', values: { asc: { description: 'Ascending: smallest or oldest first.' }, desc: { description: 'Descending: largest or newest first.' } } as const });
