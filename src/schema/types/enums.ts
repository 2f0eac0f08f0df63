import { ROLES } from '../../domain/access/roles.js';
import { builder } from '../builder.js';

export const RoleEnum = builder.enumType('Role', {
  description: 'Content and organization roles, highest first: admin > create > review > edit > comment > read.',
  values: ROLES,
});

export const SpaceVisibilityEnum = builder.enumType('SpaceVisibility', {
  values: {
    public: { value: 'public' },
    unlisted: { value: 'unlisted' },
    share_link: { value: 'share_link', description: 'REST: share-link' },
    visitor_auth: { value: 'visitor_auth', description: 'REST: visitor-auth' },
    in_collection: { value: 'in_collection', description: 'REST: in-collection' },
    private: { value: 'private' },
  } as const,
});

export const SpaceEditModeEnum = builder.enumType('SpaceEditMode', { values: ['live', 'locked'] as const });
export const TeamRoleEnum = builder.enumType('TeamRole', { values: ['owner', 'member'] as const });
export const OrganizationTypeEnum = builder.enumType('OrganizationType', { values: ['business', 'community'] as const });
export const SortOrderEnum = builder.enumType('SortOrder', { values: ['asc', 'desc'] as const });
