/**
 * Site redirects (the public document's `site-redirects`): a path under a published site that
 * names no page answers a redirect to a section, a site space, a page (resolved to its current
 * URL when served) or an outside URL. A source is unique per site among live redirects, and among
 * drafts; drafts are never served. Reads need `view` on the site, writes `manage` (the caller's
 * site role, capabilities.ts SITE_RULES); every write locks the site's row and records its
 * events (`siteRedirect…`) in its transaction.
 */
import { z } from 'zod';
import { Prisma, type SiteRedirect } from '../../../../generated/prisma/client.js';
import type { Db } from '../../../../db/client.js';
import type { Access } from '../../../access/access.js';
import { AppError, badRequest, conflict, notFound, type ErrorCode } from '../../../../lib/errors.js';
import { lazySchema, parseInput } from '../../../../lib/validation.js';
import { newId } from '../../../kernel/ids.js';
import { counted, type CountedPage } from '../../../kernel/pagination/counted.js';
import { readPage, type PageArgs, type SortKey } from '../../../kernel/pagination/keyset.js';
import { revisionScope } from '../../../versions/revisions/load.js';
import { entityIn, pageAtPath } from '../../../versions/revisions/read.js';
import { namedFields, recordSiteEvent } from '../events.js';
import { lockSite } from '../lock.js';
import { siteWrite } from '../write.js';

const { sql, raw } = Prisma;
type Tx = Prisma.TransactionClient;

/** The public document's SiteRedirectSourcePath: `/a/b`, `/a/b/*` or `/a/b*`, at most 512 characters. */
export const SOURCE_PATTERN = /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;
export const sourceSchema = lazySchema(() => z.string().max(512).regex(SOURCE_PATTERN, 'must be a path such as /old/page, /old/* or /old*'));

/** An absolute HTTP(S) URL of at most 2,048 characters. */
export const httpUrlSchema = lazySchema(() => z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an absolute http or https URL'));

const id = lazySchema(() => z.string().min(1).max(100));
/** The public document's SiteRedirectDestination, as stored. */
export const destinationSchema = lazySchema(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('site-section'), siteSectionId: id }).strict(),
  z.object({ kind: z.literal('site-space'), siteSpaceId: id }).strict(),
  z.object({ kind: z.literal('site-page'), siteSpaceId: id, pageId: id }).strict(),
  z.object({ kind: z.literal('external'), url: httpUrlSchema }).strict(),
]));
export type RedirectDestination = z.infer<typeof destinationSchema>;
/** SiteRedirectInputDestination: a stored destination, or a page named by its space and path (resolved when written). */
const inputDestinationSchema = lazySchema(() => z.union([destinationSchema, z.object({ kind: z.literal('path'), spaceId: id, path: z.string().max(2048) }).strict()]));
type InputDestination = z.infer<typeof inputDestinationSchema>;

const createSchema = lazySchema(() => z
  .object({ source: sourceSchema, captureWildcard: z.boolean().optional(), draft: z.boolean().optional(), permanent: z.boolean().optional(), destination: inputDestinationSchema })
  .strict());
const updateSchema = lazySchema(() => z
  .object({ source: sourceSchema.optional(), captureWildcard: z.boolean().optional(), draft: z.boolean().optional(), permanent: z.boolean().optional(), destination: destinationSchema.optional() })
  .strict());

export const MAX_BULK_REDIRECTS = 500;
const bulkItemSchema = lazySchema(() => z.union([
  z.object({ source: sourceSchema, intent: z.literal('publish') }).strict(),
  z
    .object({
      source: sourceSchema,
      intent: z.enum(['live', 'draft']).optional(),
      captureWildcard: z.boolean().optional(),
      permanent: z.boolean().optional(),
      destination: inputDestinationSchema.nullable(),
    })
    .strict(),
]));
const bulkSchema = lazySchema(() => z.object({ redirects: z.array(z.unknown()).min(1).max(MAX_BULK_REDIRECTS) }).strict());

export type RedirectOrder = 'createdAt' | 'updatedAt' | 'source';
export type RedirectFilter = { search?: string | null; draft?: boolean | null; orderBy?: RedirectOrder | null };

function orderKey(siteId: string, filter: RedirectFilter): SortKey<SiteRedirect> {
  const draft = !!filter.draft;
  const tag = `redirects:${siteId}:${draft}:${filter.orderBy ?? 'createdAt'}:${filter.search ?? ''}`;
  const idColumn = { sql: raw('r."id"'), type: 'text' as const };
  if (filter.orderBy === 'source') return { tag, columns: [{ sql: raw('r."source"'), type: 'text' }, idColumn], keyOf: (r) => [r.source, r.id] };
  if (filter.orderBy === 'updatedAt') {
    return { tag, descending: true, columns: [{ sql: raw('COALESCE(r."updatedAt", r."createdAt")'), type: 'timestamp' }, idColumn], keyOf: (r) => [r.updatedAt ?? r.createdAt, r.id] };
  }
  return { tag, descending: true, columns: [{ sql: raw('r."createdAt"'), type: 'timestamp' }, idColumn], keyOf: (r) => [r.createdAt, r.id] };
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A site's live (or draft) redirects, newest first by default; `search` keeps sources containing it. */
export async function redirectsPage(db: Db, access: Access, siteId: string, filter: RedirectFilter, args: PageArgs): Promise<CountedPage<SiteRedirect>> {
  await access.requireSite(siteId, 'view');
  const draft = !!filter.draft;
  const conditions = [sql`r."siteId" = ${siteId}`, sql`r."draft" = ${draft}`];
  if (filter.search) conditions.push(sql`r."source" ILIKE ${likePattern(filter.search)}`);
  const page = await readPage<SiteRedirect>(db, sql`SELECT r.* FROM "SiteRedirect" r`, conditions, orderKey(siteId, filter), args);
  return counted(page, async () => {
    const [{ count }] = await db.$queryRaw<{ count: bigint }[]>`SELECT COUNT(*) AS count FROM "SiteRedirect" r WHERE ${Prisma.join(conditions, ' AND ')}`;
    return Number(count);
  });
}

/** The live redirect whose source is exactly `source` (404 otherwise). */
export async function redirectBySource(db: Db, access: Access, siteId: string, source: string): Promise<SiteRedirect> {
  await access.requireSite(siteId, 'view');
  const redirect = await db.siteRedirect.findUnique({ where: { siteId_draft_source: { siteId, draft: false, source } } });
  if (!redirect) throw notFound('Site redirect');
  return redirect;
}

/** The sources that could answer a request's path (`/a/b`): itself, then `/a/b*`, `/a/*`, `/a*`… (at most 512 characters each). */
export function candidateSources(path: string): string[] {
  const out = [path];
  for (let end = path.length; end >= 1; end--) {
    const head = path.slice(0, end);
    if (head.length < 512) out.push(`${head}*`);
    if (end < path.length && path[end] === '/' && head.length < 511) out.push(`${head}/*`);
  }
  return out.filter((s) => s.length <= 512);
}

/**
 * The live redirect that answers a request's path under its site, or null: the exact source
 * first, then the longest wildcard. One statement on the (siteId, draft, source) index.
 */
export async function liveRedirectFor(db: Db, siteId: string, path: string): Promise<SiteRedirect | null> {
  if (!path.startsWith('/') || path.length > 4096) return null;
  const [row] = await db.$queryRaw<SiteRedirect[]>`SELECT * FROM "SiteRedirect" WHERE "siteId" = ${siteId} AND "draft" = false AND "source" = ANY(${candidateSources(path)}::text[])
    ORDER BY ("source" = ${path}) DESC, length("source") DESC LIMIT 1`;
  return row ?? null;
}

/** What a wildcard source leaves of `path` (`/old/*` and `/old/a/b` → `a/b`), or '' for an exact source. */
export function wildcardSuffix(source: string, path: string): string {
  if (!source.endsWith('*')) return '';
  const head = source.slice(0, -1);
  return path.startsWith(head) ? path.slice(head.length) : '';
}

/** Checks a destination names a part of this site (a 400 naming the field otherwise); a `path` becomes the page it names. */
async function resolveDestination(tx: Tx, siteId: string, input: InputDestination, field: string): Promise<RedirectDestination> {
  const missing = (what: string, key: string) => badRequest(`Invalid value for "${field}.${key}": no ${what} in this site`, `${field}.${key}`);
  switch (input.kind) {
    case 'external':
      return input;
    case 'site-section':
      if (!(await tx.siteSection.findFirst({ where: { id: input.siteSectionId, siteId }, select: { id: true } }))) throw missing('section', 'siteSectionId');
      return input;
    case 'site-space':
      if (!(await tx.siteSpace.findFirst({ where: { id: input.siteSpaceId, siteId }, select: { id: true } }))) throw missing('site space', 'siteSpaceId');
      return input;
    case 'site-page': {
      const siteSpace = await tx.siteSpace.findFirst({ where: { id: input.siteSpaceId, siteId }, include: { space: { select: { revisionId: true } } } });
      if (!siteSpace) throw missing('site space', 'siteSpaceId');
      const page = await entityIn(tx, await revisionScope(tx, siteSpace.space.revisionId), 'page', input.pageId);
      if (!page) throw badRequest(`Invalid value for "${field}.pageId": no such page in the site space's space`, `${field}.pageId`);
      return input;
    }
    case 'path': {
      const siteSpaces = await tx.siteSpace.findMany({ where: { siteId, spaceId: input.spaceId }, include: { space: { select: { revisionId: true } } }, orderBy: [{ position: 'asc' }, { id: 'asc' }] });
      if (!siteSpaces.length) throw badRequest(`Invalid value for "${field}.spaceId": the space is not published in this site`, `${field}.spaceId`);
      const page = await pageAtPath(tx, await revisionScope(tx, siteSpaces[0].space.revisionId), input.path.replace(/^\/+|\/+$/g, ''));
      if (!page) throw badRequest(`Invalid value for "${field}.path": no page at this path in the space`, `${field}.path`);
      return { kind: 'site-page', siteSpaceId: siteSpaces[0].id, pageId: page.entityId };
    }
  }
}

const sourceTaken = (source: string, draft: boolean) => conflict(`A ${draft ? 'draft' : 'live'} redirect from ${source} already exists in this site`);

async function requireFree(tx: Tx, siteId: string, source: string, draft: boolean, self?: string): Promise<void> {
  const other = await tx.siteRedirect.findUnique({ where: { siteId_draft_source: { siteId, draft, source } }, select: { id: true } });
  if (other && other.id !== self) throw sourceTaken(source, draft);
}

export function createRedirect(db: Db, access: Access, siteId: string, raw: unknown): Promise<SiteRedirect> {
  const input = parseInput(createSchema, raw);
  return siteWrite(db, access, siteId, async (tx, site) => {
    const draft = input.draft ?? false;
    await requireFree(tx, siteId, input.source, draft);
    const destination = await resolveDestination(tx, siteId, input.destination, 'destination');
    const redirect = await tx.siteRedirect.create({
      data: { id: newId('SiteRedirect'), siteId, source: input.source, draft, captureWildcard: input.captureWildcard ?? false, permanent: input.permanent ?? false, destination },
    });
    await recordSiteEvent(tx, access, site, 'siteRedirectCreated', redirect.id, { source: redirect.source, draft });
    return redirect;
  });
}

export function updateRedirect(db: Db, access: Access, siteId: string, redirectId: string, raw: unknown): Promise<SiteRedirect> {
  const input = parseInput(updateSchema, raw);
  return siteWrite(db, access, siteId, async (tx, site) => {
    const current = await tx.siteRedirect.findFirst({ where: { id: redirectId, siteId } });
    if (!current) throw notFound('Site redirect');
    const source = input.source ?? current.source;
    const draft = input.draft ?? current.draft;
    if (source !== current.source || draft !== current.draft) await requireFree(tx, siteId, source, draft, redirectId);
    const destination = input.destination ? await resolveDestination(tx, siteId, input.destination, 'destination') : undefined;
    const redirect = await tx.siteRedirect.update({
      where: { id: redirectId },
      data: { source, draft, ...(input.captureWildcard !== undefined ? { captureWildcard: input.captureWildcard } : {}), ...(input.permanent !== undefined ? { permanent: input.permanent } : {}), ...(destination ? { destination } : {}), updatedAt: new Date() },
    });
    await recordSiteEvent(tx, access, site, 'siteRedirectUpdated', redirectId, { source, draft, fields: namedFields(input) });
    return redirect;
  });
}

/** Deletes a redirect: true when one was removed (REST 205), false when there was none (204). */
export function deleteRedirect(db: Db, access: Access, siteId: string, redirectId: string): Promise<boolean> {
  return siteWrite(db, access, siteId, async (tx, site) => {
    const gone = await tx.siteRedirect.findFirst({ where: { id: redirectId, siteId } });
    if (!gone) return false;
    await tx.siteRedirect.delete({ where: { id: redirectId } });
    await recordSiteEvent(tx, access, site, 'siteRedirectDeleted', redirectId, { source: gone.source, draft: gone.draft });
    return true;
  });
}

export type BulkResult =
  | { status: 'created' | 'updated' | 'published'; source: string; draft: boolean; id: string }
  | { status: 'deleted'; source: string; draft: boolean }
  | { status: 'error'; source: string; draft: boolean; error: string };

type Upsert = { source: string; captureWildcard?: boolean; permanent?: boolean; destination: RedirectDestination };

/**
 * Creates, replaces or deletes the redirect of one source (live or draft) inside a site write:
 * what `bulkUpsertRedirects` and git sync both do. Answers the status and the redirect's ID.
 */
export async function upsertRedirect(tx: Tx, access: { userId: string | null }, site: { id: string; organizationId: string }, draft: boolean, item: Upsert): Promise<{ status: 'created' | 'updated'; id: string }> {
  const current = await tx.siteRedirect.findUnique({ where: { siteId_draft_source: { siteId: site.id, draft, source: item.source } } });
  if (current) {
    await tx.siteRedirect.update({
      where: { id: current.id },
      data: { destination: item.destination, updatedAt: new Date(), ...(item.captureWildcard !== undefined ? { captureWildcard: item.captureWildcard } : {}), ...(item.permanent !== undefined ? { permanent: item.permanent } : {}) },
    });
    await recordSiteEvent(tx, access, site, 'siteRedirectUpdated', current.id, { source: item.source, draft, fields: ['destination'] });
    return { status: 'updated', id: current.id };
  }
  const created = await tx.siteRedirect.create({
    data: { id: newId('SiteRedirect'), siteId: site.id, source: item.source, draft, captureWildcard: item.captureWildcard ?? false, permanent: item.permanent ?? false, destination: item.destination },
  });
  await recordSiteEvent(tx, access, site, 'siteRedirectCreated', created.id, { source: item.source, draft });
  return { status: 'created', id: created.id };
}

/**
 * Up to 500 operations in one transaction, in order, each answered on its own: upsert (a
 * destination), delete (`destination: null`) or publish a draft (`intent: publish`). A malformed
 * item refuses the whole request (400 naming `redirects.N.field`); an item that cannot apply (a
 * destination not in the site, nothing to delete or publish) answers `error` and the others apply.
 */
export function bulkUpsertRedirects(db: Db, access: Access, siteId: string, raw: unknown): Promise<BulkResult[]> {
  const { redirects } = parseInput(bulkSchema, raw);
  const items = redirects.map((item, index) => parseInput(bulkItemSchema, item, `redirects.${index}.`));
  return siteWrite(db, access, siteId, async (tx, site) => {
    const results: BulkResult[] = [];
    for (const [index, item] of items.entries()) {
      const draft = item.intent === 'draft';
      const { source } = item;
      try {
        results.push(await applyOne(tx, access, site, item, draft, `redirects.${index}.destination`));
      } catch (error) {
        if (!(error instanceof AppError) || !ITEM_ERRORS.has(error.code)) throw error;
        results.push({ status: 'error', source, draft: item.intent === 'publish' ? false : draft, error: error.message });
      }
    }
    return results;
  });
}

/** Refusals of one item (answered as its `error`); anything else fails the whole request. */
const ITEM_ERRORS = new Set<ErrorCode>(['BAD_REQUEST', 'CONFLICT', 'NOT_FOUND']);

async function applyOne(tx: Tx, access: Access, site: { id: string; organizationId: string }, item: z.infer<typeof bulkItemSchema>, draft: boolean, field: string): Promise<BulkResult> {
  const { source } = item;
  if (item.intent === 'publish') {
    const pending = await tx.siteRedirect.findUnique({ where: { siteId_draft_source: { siteId: site.id, draft: true, source } } });
    if (!pending) throw notFound(`Draft redirect from ${source}`);
    const live = await upsertRedirect(tx, access, site, false, { source, captureWildcard: pending.captureWildcard, permanent: pending.permanent, destination: pending.destination as RedirectDestination });
    await tx.siteRedirect.delete({ where: { id: pending.id } });
    await recordSiteEvent(tx, access, site, 'siteRedirectDeleted', pending.id, { source, draft: true });
    return { status: 'published', source, draft: false, id: live.id };
  }
  if (item.destination === null) {
    const gone = await tx.siteRedirect.findUnique({ where: { siteId_draft_source: { siteId: site.id, draft, source } } });
    if (!gone) throw notFound(`${draft ? 'Draft' : 'Live'} redirect from ${source}`);
    await tx.siteRedirect.delete({ where: { id: gone.id } });
    await recordSiteEvent(tx, access, site, 'siteRedirectDeleted', gone.id, { source, draft });
    return { status: 'deleted', source, draft };
  }
  const destination = await resolveDestination(tx, site.id, item.destination, field);
  const done = await upsertRedirect(tx, access, site, draft, { source, captureWildcard: item.captureWildcard, permanent: item.permanent, destination });
  return { ...done, source, draft };
}

/** A site space's path under its site (`/section/variant`, '' for the default of the default section). */
function siteSpacePrefix(site: { defaultSectionId: string | null; defaultSiteSpaceId: string | null }, section: { id: string; path: string; defaultSiteSpaceId: string | null } | null, siteSpace: { id: string; path: string }): string {
  const sectionPart = section && section.id !== site.defaultSectionId ? `/${section.path}` : '';
  const isDefault = siteSpace.id === (section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId);
  return `${sectionPart}${isDefault ? '' : `/${siteSpace.path}`}`;
}

/** Whether a stored destination (jsonb: its keys reordered) is `b`. */
const sameDestination = (a: unknown, b: RedirectDestination) => {
  const stored = (a ?? {}) as Record<string, unknown>;
  return Object.keys(stored).length === Object.keys(b).length && Object.entries(b).every(([key, value]) => stored[key] === value);
};

/**
 * Redirects a space's git sync writes (`.gitbook.yaml` `redirects`, and the old paths of pages it
 * moved): in every site that publishes the space, one live redirect per entry, its source scoped to
 * that site space's path, to the page. `replace`: the entry wins over a redirect of that source
 * (the repository's own list); otherwise an existing redirect is left as it is. A source that is
 * not a valid redirect path is skipped (and named in the answer). Sites are locked in ID order.
 */
export async function writeSpaceRedirects(tx: Tx, actorId: string | null, spaceId: string, entries: readonly { path: string; pageId: string; replace: boolean }[]): Promise<{ written: number; skipped: string[] }> {
  if (!entries.length) return { written: 0, skipped: [] };
  const siteSpaces = await tx.siteSpace.findMany({ where: { spaceId }, include: { section: true }, orderBy: [{ siteId: 'asc' }, { id: 'asc' }] });
  const skipped = new Set<string>();
  let written = 0;
  for (const siteSpace of siteSpaces) {
    const site = await lockSite(tx, siteSpace.siteId);
    const prefix = siteSpacePrefix(site, siteSpace.section, siteSpace);
    for (const entry of entries) {
      const source = `${prefix}/${entry.path.split('/').filter(Boolean).map(encodeURIComponent).join('/')}`.replace(/%2A$/i, '*');
      if (source.length > 512 || !SOURCE_PATTERN.test(source)) {
        skipped.add(entry.path);
        continue;
      }
      const destination: RedirectDestination = { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: entry.pageId };
      const current = await tx.siteRedirect.findUnique({ where: { siteId_draft_source: { siteId: site.id, draft: false, source } }, select: { destination: true } });
      if (current && (!entry.replace || sameDestination(current.destination, destination))) continue;
      await upsertRedirect(tx, { userId: actorId }, site, false, { source, destination });
      written++;
    }
  }
  return { written, skipped: [...skipped] };
}
