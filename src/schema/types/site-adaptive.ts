/**
 * Adaptive content in the graph: a site's visitor attributes JSON schema (`Site.adaptiveSchema`),
 * the condition templates derived from it (`Site.adaptiveTemplateConditions`) and its
 * replacement (`updateSiteAdaptiveSchema`). Validated and derived by the domain
 * (src/domain/publishing/sites/visitors/adaptive-schema.ts).
 */
import { siteAdaptiveSchema, siteTemplateConditions, updateAdaptiveSchema, type SiteAdaptiveSchema, type TemplateCondition } from '../../domain/publishing/sites/visitors/adaptive-schema.js';
import { builder } from '../builder.js';
import { SiteRef } from './site.js';
import { inOrganization, siteArgs } from './site-args.js';
import { fresh } from './site-mutations.js';

export const SiteAdaptiveSchemaRef = builder.objectRef<SiteAdaptiveSchema>('SiteAdaptiveSchema');
SiteAdaptiveSchemaRef.implement({
  description: "The JSON schema of the attributes (claims) a site's visitors bring, which adaptive content conditions read.",
  fields: (t) => ({
    jsonSchema: t.field({ type: 'JSON', description: 'The schema: a draft-07 JSON schema of type object, whose `properties` are the claims (`unsigned`: the claims a visitor may set themselves).', resolve: (s) => s.jsonSchema }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last replaced.' }),
  }),
});

export const SiteAdaptiveTemplateConditionRef = builder.objectRef<TemplateCondition>('SiteAdaptiveTemplateCondition');
SiteAdaptiveTemplateConditionRef.implement({
  description: "A condition suggested by a site's visitor attributes schema, to use as a site section's, site space's or link's `condition`.",
  fields: (t) => ({
    description: t.exposeString('description', { description: 'What the condition checks, in words.' }),
    condition: t.exposeString('condition', { description: 'The expression over `visitor.claims`.' }),
  }),
});

builder.objectFields(SiteRef, (t) => ({
  adaptiveSchema: t.field({ type: SiteAdaptiveSchemaRef, nullable: true, description: 'Its visitor attributes schema; null when none was set.', resolve: (s) => siteAdaptiveSchema(s) }),
  adaptiveTemplateConditions: t.field({
    type: [SiteAdaptiveTemplateConditionRef],
    description: 'Conditions derived from its visitor attributes schema (none without one): booleans, each value of an enum, each value an array of enum strings may include, and whether a free string or number is set.',
    resolve: (s) => siteTemplateConditions(s),
  }),
}));

builder.mutationFields((t) => ({
  updateSiteAdaptiveSchema: t.field({
    type: SiteAdaptiveSchemaRef,
    description: "Replaces a site's visitor attributes schema (site managers).",
    args: { ...siteArgs(t), input: t.arg({ type: 'JSON', required: true, description: 'The public document\'s body: `{ jsonSchema }`, a `SiteAdaptiveJSONSchema` (at most 64 KiB of JSON).' }) },
    resolve: async (_r, { siteId, organizationId, input }, ctx) => (await inOrganization(ctx, organizationId, siteId)) || fresh(ctx, await updateAdaptiveSchema(ctx.db, ctx.access, String(siteId), input)),
  }),
}));
