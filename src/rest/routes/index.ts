/** The REST route table: every documented /v1 path of the implemented sections, one row each. */
import type { Route } from '../route.js';
import { organizationRoutes } from './organizations.js';
import { spaceRoutes } from './spaces.js';

export const routes: Route[] = [...spaceRoutes, ...organizationRoutes];
