/**
 * Content templates (the public document's `applyTemplateToSpace` and `applyTemplateToSite`), as
 * the mutations of schema/types/templates.ts. Neither answers a body: 201 for a space, 200 for a
 * site. Another organization's site is 404; another organization's space is 404 as every space.
 */
import { route } from '../route.js';
import { ids, SITE, writeSite } from './sites.js';

export const templateRoutes = [
  route({
    method: 'POST',
    path: '/spaces/{spaceId}/content/template',
    operation: 'mutation RestApplySpaceTemplate($space: ID!, $input: JSON!) { result: applySpaceTemplate(spaceId: $space, input: $input) }',
    variables: ({ params, body }) => ({ space: params.spaceId, input: body }),
    status: 201,
  }),
  route({
    method: 'POST',
    path: `${SITE}/template`,
    operation: writeSite('RestApplySiteTemplate', '', 'applySiteTemplate(organizationId: $org, siteId: $site)'),
    variables: ids,
    status: 200,
  }),
];
