/**
 * Content templates in the graph: `applySpaceTemplate` (a space's content or a change request) and
 * `applySiteTemplate` (an empty site). See src/domain/versions/templates/apply.ts.
 */
import { applyTemplateToSite, applyTemplateToSpace } from '../../domain/versions/templates/apply.js';
import { builder } from '../builder.js';
import { inOrganization, siteArgs } from './site-args.js';
import { fresh } from './site-mutations.js';

builder.mutationFields((t) => ({
  applySpaceTemplate: t.boolean({
    description: "Adds a template's pages after the last top-level page of a space's content, or of one of its change requests (who may edit the space). True once applied.",
    args: {
      spaceId: t.arg.id({ required: true, description: "The space's ID." }),
      input: t.arg({ type: 'JSON', required: true, description: 'The public document\'s body: `id` (the template: `default`), `params`, `changeRequestId` (apply to that change request instead of the content).' }),
    },
    resolve: async (_r, { spaceId, input }, ctx) => fresh(ctx, (await applyTemplateToSpace(ctx.db, ctx.access, String(spaceId), input), true)),
  }),
  applySiteTemplate: t.id({
    description: "Fills an empty site (no site spaces, no sections) with a new space of its organization holding quire's default documentation template; answers the new space's ID (site managers).",
    args: { ...siteArgs(t) },
    resolve: async (_r, { siteId, organizationId }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await applyTemplateToSite(ctx.db, ctx.access, String(siteId))),
  }),
}));
