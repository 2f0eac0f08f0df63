/** The REST route table: every documented /v1 path of the implemented sections, one row each. */
import type { Route } from '../route.js';
import { changeRequestEntityRoutes, changeRequestRoutes } from './change-requests.js';
import { collectionRoutes } from './collections.js';
import { exportRoutes } from './exports.js';
import { gitSyncRoutes } from './git-sync.js';
import { importRoutes, importRunRoutes } from './imports.js';
import { linkRoutes } from './links.js';
import { memberRoutes } from './members.js';
import { organizationRoutes } from './organizations.js';
import { openAPISpecRoutes } from './openapi-specs.js';
import { translationRoutes } from './translations.js';
import { fontRoutes } from './fonts.js';
import { ssoRoutes } from './sso.js';
import { inviteRoutes } from './invites.js';
import { permissionRoutes } from './permissions.js';
import { reviewRoutes } from './reviews.js';
import { commentRoutes } from './comments.js';
import { searchRoutes } from './search.js';
import { siteRoutes } from './sites.js';
import { spaceRoutes } from './spaces.js';
import { spaceContentRoutes } from './space-content.js';
import { teamRoutes } from './teams.js';
import { userRoutes } from './users.js';
import { webhookRoutes } from './webhooks.js';

export const routes: Route[] = [...spaceRoutes, ...changeRequestRoutes, ...changeRequestEntityRoutes, ...spaceContentRoutes, ...linkRoutes, ...reviewRoutes, ...commentRoutes, ...exportRoutes, ...importRoutes, ...importRunRoutes, ...gitSyncRoutes, ...collectionRoutes, ...permissionRoutes, ...organizationRoutes, ...openAPISpecRoutes, ...translationRoutes, ...fontRoutes, ...ssoRoutes, ...inviteRoutes, ...searchRoutes, ...siteRoutes, ...memberRoutes, ...teamRoutes, ...userRoutes, ...webhookRoutes];
