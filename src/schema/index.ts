/** Builds the GraphQL schema from an explicit list of type modules. */
import { builder } from './builder.js';
import './connection.js';
import './types/enums.js';
import './types/position.js';
import './types/user.js';
import './types/organization.js';
import './types/space.js';
import './types/collection.js';
import './types/content-permission.js';
import './types/content-link.js';
import './types/page.js';
import './types/revision.js';
import './types/revision-content.js';
import './types/content-mutations.js';
import './types/page-links.js';
import './types/change-request.js';
import './types/change-request-mutations.js';
import './types/change-request-reviews.js';
import './types/exports.js';
import './types/search.js';
import './types/member.js';
import './types/member-mutations.js';
import './types/team.js';
import './types/team-mutations.js';
import './types/organization-events.js';
import './types/api-token.js';

export const schema = builder.toSchema({ sortSchema: true });
