/**
 * OpenAPI specifications in the graph: `Organization.openAPISpecs` and `openAPISpec(slug)`, their
 * versions, and the mutations that create, replace the source of and delete them. Processing is
 * a job (`openapi_process`): watch it with `subscription { job(id) }` or read `processingState`.
 */
import type { OpenAPISpec, OpenAPISpecVersion } from '../../generated/prisma/client.js';
import { mayOrganization } from '../../domain/access/capabilities.js';
import { createSpec, deleteSpec, findSpec, putSpec, specsPage, updateSpecVisibility } from '../../domain/publishing/openapi-specs/specs.js';
import { parsedContent } from '../../domain/publishing/openapi-specs/versions.js';
import { notFound } from '../../lib/errors.js';
import type { Context } from '../context.js';
import { linksAt } from '../../http/paths.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { specVersions } from '../../domain/loaders/lists.js';
import { forgetLoaded } from '../context.js';
import { apiUrl, appUrl } from '../urls.js';
import { JobRef } from './job.js';
import { OrganizationRef } from './organization.js';

const SpecErrorRef = builder.simpleObject('OpenAPISpecError', { description: 'A problem found while reading an OpenAPI specification.', fields: (t) => ({ message: t.string({ description: 'What is wrong, for people.' }), code: t.string({ nullable: true, description: 'A stable code of the problem, when it has one.' }) }) });

const OpenAPISpecVisibilityEnum = builder.enumType('OpenAPISpecVisibility', {
  description: 'Who may read an OpenAPI specification\'s content.',
  values: {
    private: { description: 'Members with an organization role only (the default).' },
    public: { description: 'Anyone with its public URL (`publicURL`): where a fetched specification is fetched from, or this server\'s copy of one given as text.' },
  } as const,
});

/** The specification a version belongs to (through the request's loaders). */
async function specOf(ctx: Context, version: OpenAPISpecVersion): Promise<OpenAPISpec> {
  const spec = await ctx.loaders.openAPISpec.load(version.specId);
  if (!spec) throw notFound('OpenAPI specification');
  return spec;
}

/**
 * Where anyone may read a public specification (null for a private one): the URL it is fetched
 * from, or for one given as text this server's copy (http/openapi.ts) — of `versionId`, or the latest.
 */
function publicUrlOf(ctx: Context, spec: OpenAPISpec, sourceUrl: string | null, versionId?: string): string | null {
  if (spec.visibility !== 'public') return null;
  return sourceUrl ?? linksAt(ctx.config.publicUrl).openapi(versionId ? `${spec.id}/${versionId}` : spec.id);
}

const versionPath = (spec: OpenAPISpec, versionId: string) => `/orgs/${spec.organizationId}/openapi/${spec.slug}/versions/${versionId}`;

export const OpenAPISpecVersionRef = builder.objectRef<OpenAPISpecVersion>('OpenAPISpecVersion').implement({
  description: 'One stored version of an OpenAPI specification.',
  interfaces: [builder.nodeInterfaceRef()],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    title: t.exposeString('title', { description: "The specification's `info.title`." }),
    version: t.exposeString('version', { description: "The specification's `info.version`." }),
    openapi: t.exposeString('openapi', { description: '`openapi` or `swagger` version of the document.' }),
    operations: t.exposeInt('operations', { description: 'How many operations it has (HTTP methods under `paths`).' }),
    format: t.exposeString('format', { description: "The source's format: `json` or `yaml`." }),
    contentHash: t.exposeString('contentHash', { description: 'The SHA-256 (hex) of the source text, its line endings and trailing spaces normalized.' }),
    text: t.exposeString('text', { description: 'The source as it was processed.' }),
    sourceURL: t.exposeString('sourceUrl', { nullable: true, description: 'The URL the text was fetched from; null when it was given as text.' }),
    url: t.string({
      description: 'Where the specification of this version can be read: the URL it was fetched from, else its content in this API.',
      resolve: async (v, _a, ctx) => v.sourceUrl ?? apiUrl(ctx, `${versionPath(await specOf(ctx, v), v.id)}/content`),
    }),
    publicURL: t.string({
      nullable: true,
      description: 'Where anyone may read it, for a public specification: the URL it was fetched from, or this server\'s copy of its text; null for a private one.',
      resolve: async (v, _a, ctx) => publicUrlOf(ctx, await specOf(ctx, v), v.sourceUrl, v.id),
    }),
    content: t.field({ type: 'JSON', description: 'The document, parsed (from JSON or YAML).', resolve: async (v) => (await parsedContent(v)) as never }),
    urls: t.field({
      description: 'Its URLs in this API.',
      type: builder.simpleObject('OpenAPISpecVersionUrls', { description: 'Where a version of an OpenAPI specification is in this API.', fields: (u) => ({ location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }) }) }),
      resolve: async (v, _a, ctx) => ({ location: apiUrl(ctx, versionPath(await specOf(ctx, v), v.id)) }),
    }),
  }),
});

export const OpenAPISpecRef = builder.objectRef<OpenAPISpec>('OpenAPISpec').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: 'An OpenAPI specification of the organization, by slug.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    slug: t.exposeString('slug', { description: 'Its slug, unique in the organization: lowercase letters and digits in words separated by dashes.' }),
    sourceURL: t.exposeString('sourceUrl', { description: 'The URL its source is fetched from; null when it was given as text.', nullable: true }),
    processingState: t.exposeString('processingState', { description: '`pending`, `progress` or `complete`.' }),
    lastProcessedAt: t.expose('lastProcessedAt', { description: 'When it was last processed; null before.', type: 'DateTime', nullable: true }),
    lastProcessErrorCode: t.exposeString('lastProcessErrorCode', { nullable: true, description: '`FETCH_TIMEOUT`, `FETCH_ERROR` or `PARSE_ERROR`.' }),
    lastProcessedErrors: t.field({ description: 'The problems found by the last processing (at most 100).', type: [SpecErrorRef], resolve: (s) => s.lastProcessedErrors as { message: string; code?: string }[] }),
    lastProcessedErrorCount: t.exposeInt('lastProcessedErrorCount', { description: 'How many problems the last processing found (all of them, beyond the 100 listed).' }),
    lastVersion: t.field({ description: 'Its newest version; null until a processing succeeded.', type: OpenAPISpecVersionRef, nullable: true, resolve: (s, _a, ctx) => (s.lastVersionId ? ctx.loaders.openAPISpecVersion.load(s.lastVersionId) : null) }),
    visibility: t.field({ type: OpenAPISpecVisibilityEnum, description: 'Who may read its content.', resolve: (s) => s.visibility }),
    publicURL: t.string({
      nullable: true,
      description: 'Where anyone may read it, when public: the URL it is fetched from, or this server\'s copy of its latest text (`/openapi/{id}`, no token needed); null for a private one.',
      resolve: (s, _a, ctx) => publicUrlOf(ctx, s, s.sourceUrl),
    }),
    version: t.field({
      type: OpenAPISpecVersionRef,
      description: 'One of its versions, by ID (NOT_FOUND when it is not one of this specification\'s).',
      args: { id: t.arg.id({ required: true, description: "The version's ID." }) },
      resolve: async (s, { id }, ctx) => {
        const version = await ctx.loaders.openAPISpecVersion.load(String(id));
        if (!version || version.specId !== s.id) throw notFound('OpenAPI specification version');
        return version;
      },
    }),
    versions: t.connection({
      type: OpenAPISpecVersionRef,
      description: 'Newest first.',
      resolve: async (s, args, ctx) => pageConnection(await specVersions(ctx.loaders, s.id, args)),
    }),
    processingJob: t.field({
      type: JobRef,
      nullable: true,
      description: 'The latest processing job.',
      resolve: async (s, _a, ctx) => {
        const job = await ctx.loaders.openAPIProcessingJob.load(s.id);
        return job && (await ctx.access.requireJob(job).catch(() => null));
      },
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    permissions: t.field({
      description: 'What the caller may do with it.',
      type: builder.simpleObject('OpenAPISpecPermissions', { description: 'What the caller may do with an OpenAPI specification.', fields: (p) => ({ view: p.boolean({ description: 'Whether the caller may read it (members with an organization role).' }), edit: p.boolean({ description: 'Whether the caller may replace its source or delete it (`create` role).' }) }) }),
      resolve: async (s, _a, ctx) => {
        const membership = await ctx.access.orgRole(s.organizationId);
        return { view: mayOrganization('viewOpenAPISpecs', membership), edit: mayOrganization('manageOpenAPISpecs', membership) };
      },
    }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: builder.simpleObject('OpenAPISpecUrls', { description: 'Where an OpenAPI specification is: in this API and in the app.', fields: (u) => ({ location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }), app: u.string({ description: 'Its URL in the app (under QUIRE_APP_URL).' }) }) }),
      resolve: (s, _a, ctx) => ({ location: apiUrl(ctx, `/orgs/${s.organizationId}/openapi/${s.slug}`), app: appUrl(ctx, `/o/${s.organizationId}/openapi/${s.slug}`) }),
    }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  openAPISpecs: t.connection({
    type: OpenAPISpecRef,
    description: 'Oldest first (members with an organization role).',
    resolve: async (org, args, ctx) => pageConnection(await specsPage(ctx.db, ctx.access, org.id, args)),
  }),
  openAPISpec: t.field({ type: OpenAPISpecRef, description: 'One of its OpenAPI specifications by slug (members with an organization role).', args: { slug: t.arg.string({ required: true, description: "The specification's slug." }) }, resolve: (org, { slug }, ctx) => findSpec(ctx.db, ctx.access, org.id, slug) }),
}));

const SpecSourceInput = builder.inputType('OpenAPISpecSourceInput', {
  description: 'Either `url` (fetched: public addresses only unless the operator allows private ones) or `text`.',
  fields: (t) => ({ url: t.string({ description: 'Where to fetch the specification from (http or https).' }), text: t.string({ description: 'The specification itself, as JSON or YAML.' }) }),
});

const source = (input: { url?: string | null; text?: string | null }) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));

builder.mutationFields((t) => ({
  createOpenAPISpec: t.field({
    description: 'Adds an OpenAPI specification to an organization, under a slug, from its source.',
    type: OpenAPISpecRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), slug: t.arg.string({ description: "The specification's slug (1 to 100 lowercase letters and digits in dash-separated words).", required: true }), source: t.arg({ description: 'Where its source comes from: a URL or the text.', type: SpecSourceInput, required: true }) },
    resolve: async (_r, { organizationId, slug, source: s }, ctx) => (forgetLoaded(ctx), createSpec(ctx.db, ctx.access, String(organizationId), { slug, source: source(s) })),
  }),
  putOpenAPISpec: t.field({
    type: builder.simpleObject('PutOpenAPISpecResult', { description: 'An OpenAPI specification after it was created or replaced, and which of the two happened.', fields: (r) => ({ spec: r.field({ type: OpenAPISpecRef, description: 'The specification, as written.' }), created: r.boolean({ description: 'True when it was created, false when its source was replaced.' }) }) }),
    description: 'Creates the specification or replaces its source; either way it is processed again.',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), slug: t.arg.string({ description: "The specification's slug (1 to 100 lowercase letters and digits in dash-separated words).", required: true }), source: t.arg({ description: 'Where its source comes from: a URL or the text.', type: SpecSourceInput, required: true }) },
    resolve: (_r, { organizationId, slug, source: s }, ctx) => putSpec(ctx.db, ctx.access, String(organizationId), slug, { source: source(s) }),
  }),
  updateOpenAPISpec: t.field({
    description: 'Changes who may read an OpenAPI specification\'s content (its visibility).',
    type: OpenAPISpecRef,
    args: {
      organizationId: t.arg.id({ required: true, description: "The organization's ID." }),
      slug: t.arg.string({ required: true, description: "The specification's slug." }),
      visibility: t.arg({ type: OpenAPISpecVisibilityEnum, required: true, description: 'Its new visibility.' }),
    },
    resolve: async (_r, { organizationId, slug, visibility }, ctx) => (forgetLoaded(ctx), updateSpecVisibility(ctx.db, ctx.access, String(organizationId), slug, { visibility })),
  }),
  deleteOpenAPISpec: t.boolean({
    description: 'Deletes an OpenAPI specification and its versions.',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), slug: t.arg.string({ description: "The specification's slug (1 to 100 lowercase letters and digits in dash-separated words).", required: true }) },
    resolve: async (_r, { organizationId, slug }, ctx) => (await deleteSpec(ctx.db, ctx.access, String(organizationId), slug), true),
  }),
}));
