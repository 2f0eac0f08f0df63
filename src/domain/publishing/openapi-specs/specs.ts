/**
 * OpenAPI specifications (4.14): created, read, replaced (PUT creates or updates) and deleted by
 * slug within an organization. Giving a source queues its processing (a job of kind
 * `openapi_process`, jobs/handlers/openapi.ts) in the same transaction: the specification answers
 * at once with `processingState: pending`, and the job moves it to `progress` then `complete`.
 */
import { z } from 'zod';
import { Prisma, type OpenAPISpec } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { organizationWrite } from '../../access/guarded-write.js';
import { conflict, notFound } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';
import { enqueueJob } from '../../work/jobs/enqueue.js';
import { byTimeThenId, readPage, type PageArgs } from '../../kernel/pagination/keyset.js';
import { counted, type CountedPage } from '../../kernel/pagination/counted.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { slugSchema } from '../../../lib/openapi/slug.js';

const { sql } = Prisma;

const sourceSchema = lazySchema(() => z.union([
  z.object({ url: z.string().max(2048).refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http or https URL') }).strict(),
  z.object({ text: z.string().min(1).max(10 * 1024 * 1024) }).strict(),
]));

export type SpecSourceInput = z.infer<typeof sourceSchema>;

export async function findSpec(db: Db, access: Access, organizationId: string, slug: string): Promise<OpenAPISpec> {
  await access.requireOrganization(organizationId, 'viewOpenAPISpecs');
  const spec = await db.openAPISpec.findUnique({ where: { organizationId_slug: { organizationId, slug } } });
  if (!spec) throw notFound('OpenAPI specification');
  return spec;
}

export async function specsPage(db: Db, access: Access, organizationId: string, args: PageArgs): Promise<CountedPage<OpenAPISpec>> {
  await access.requireOrganization(organizationId, 'viewOpenAPISpecs');
  const key = byTimeThenId<OpenAPISpec>(`openapi:${organizationId}`, 's."createdAt"', 's."id"', (s) => [s.createdAt, s.id]);
  const page = await readPage<OpenAPISpec>(db, sql`SELECT s.* FROM "OpenAPISpec" s`, [sql`s."organizationId" = ${organizationId}`], key, args);
  return counted(page, () => db.openAPISpec.count({ where: { organizationId } }));
}

/** The new source, pending, and its processing queued: in the caller's transaction. */
async function setSource(tx: Prisma.TransactionClient, spec: OpenAPISpec, source: SpecSourceInput, userId: string): Promise<OpenAPISpec> {
  const updated = await tx.openAPISpec.update({
    where: { id: spec.id },
    data: { sourceUrl: 'url' in source ? source.url : null, sourceText: 'text' in source ? source.text : null, processingState: 'pending' },
  });
  await enqueueJob(tx, { kind: 'openapi_process', organizationId: spec.organizationId, input: { specId: spec.id }, createdById: userId, message: 'Waiting to process the specification' });
  return updated;
}

/** Holds the slug for the rest of the transaction: two writers of one slug take turns. */
async function lockSlug(tx: Prisma.TransactionClient, organizationId: string, slug: string): Promise<OpenAPISpec | null> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`openapi:${organizationId}:${slug}`}, 0))`;
  return tx.openAPISpec.findUnique({ where: { organizationId_slug: { organizationId, slug } } });
}

const newSpec = (tx: Prisma.TransactionClient, organizationId: string, slug: string, userId: string) =>
  tx.openAPISpec.create({ data: { id: newId('OpenAPISpec'), organizationId, slug, createdById: userId } });

/** `POST`: a new specification (409 when the slug is taken). */
export function createSpec(db: Db, access: Access, organizationId: string, raw: unknown): Promise<OpenAPISpec> {
  const input = parseInput(z.object({ slug: slugSchema, source: sourceSchema }).strict(), raw);
  return organizationWrite(db, access, organizationId, 'manageOpenAPISpecs', async (tx) => {
    if (await lockSlug(tx, organizationId, input.slug)) throw conflict(`An OpenAPI specification with the slug "${input.slug}" already exists; PUT replaces its source`);
    const spec = await setSource(tx, await newSpec(tx, organizationId, input.slug, access.userId), input.source, access.userId);
    await recordEvents(tx, { kind: 'openApiSpecCreated', organizationId, subjectId: spec.id, actorId: access.userId, data: { slug: spec.slug } });
    return spec;
  });
}

/** `PUT`: creates the specification or replaces its source. Answers whether it was created. */
export function putSpec(db: Db, access: Access, organizationId: string, slug: string, raw: unknown): Promise<{ spec: OpenAPISpec; created: boolean }> {
  const validSlug = parseInput(z.object({ slug: slugSchema }), { slug }).slug;
  const { source } = parseInput(z.object({ source: sourceSchema }).strict(), raw);
  return organizationWrite(db, access, organizationId, 'manageOpenAPISpecs', async (tx) => {
    const existing = await lockSlug(tx, organizationId, validSlug);
    const spec = await setSource(tx, existing ?? (await newSpec(tx, organizationId, validSlug, access.userId)), source, access.userId);
    await recordEvents(tx, { kind: existing ? 'openApiSpecUpdated' : 'openApiSpecCreated', organizationId, subjectId: spec.id, actorId: access.userId, data: { slug: spec.slug } });
    return { spec, created: !existing };
  });
}

export function deleteSpec(db: Db, access: Access, organizationId: string, slug: string): Promise<void> {
  return organizationWrite(db, access, organizationId, 'manageOpenAPISpecs', async (tx) => {
    const [deleted] = await tx.$queryRaw<{ id: string }[]>`DELETE FROM "OpenAPISpec" WHERE "organizationId" = ${organizationId} AND "slug" = ${slug} RETURNING "id"`;
    if (!deleted) throw notFound('OpenAPI specification');
    await recordEvents(tx, { kind: 'openApiSpecDeleted', organizationId, subjectId: deleted.id, actorId: access.userId, data: { slug } });
  });
}

const visibilitySchema = lazySchema(() => z.object({ visibility: z.enum(['private', 'public']) }).strict());

/** `PATCH`: who may read the specification's content without a token (`public`), or members only. */
export function updateSpecVisibility(db: Db, access: Access, organizationId: string, slug: string, raw: unknown): Promise<OpenAPISpec> {
  const { visibility } = parseInput(visibilitySchema, raw);
  return organizationWrite(db, access, organizationId, 'manageOpenAPISpecs', async (tx) => {
    const spec = await lockSlug(tx, organizationId, slug);
    if (!spec) throw notFound('OpenAPI specification');
    if (spec.visibility === visibility) return spec;
    const updated = await tx.openAPISpec.update({ where: { id: spec.id }, data: { visibility } });
    await recordEvents(tx, { kind: 'openApiSpecUpdated', organizationId, subjectId: spec.id, actorId: access.userId, data: { slug, fields: ['visibility'] } });
    return updated;
  });
}
