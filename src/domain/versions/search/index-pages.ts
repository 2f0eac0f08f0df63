/**
 * The search index (`SearchSection`): one row per section of every document page of every space's
 * current revision (see sections.ts), rewritten in the transaction that moves the space to a new
 * revision, for the pages that revision writes. Groups and links have no sections.
 *
 * Text search configuration: `simple` (lower-cases and splits words; no stemming, no stop words).
 * Spaces hold content in any language and declare none, and a language configuration such as
 * `english` would stem and drop stop words by English rules, mangling every other language (and
 * code identifiers, version numbers, product names). `simple` works the same for every language,
 * at the price of exact-word matching ("install" does not find "installing"). The configuration
 * must be the same when indexing and when querying (query.ts), hence one constant.
 */
import { Prisma } from '../../../generated/prisma/client.js';
import { loadDocuments } from '../revisions/documents.js';
import type { PageEntry } from '../revisions/entries.js';
import { allPages, entitiesIn } from '../revisions/read.js';
import type { RevisionScope } from '../revisions/scope.js';
import { pageSections } from './sections.js';

type Tx = Prisma.TransactionClient;
const { sql } = Prisma;

/** The text search configuration of the index and of every query (see above). */
export const SEARCH_CONFIG = sql`'simple'::regconfig`;

/** Pages read, parsed and written per round (a batch's documents are loaded in one statement). */
export const PAGES_PER_BATCH = 500;
/** Characters of section text sent per INSERT: a batch of long pages is split into several. */
const CHARS_PER_INSERT = 8_000_000;

/**
 * The weighted `tsvector` of a section: page title (A) > section heading (B) > body (C). Its
 * title words (A and B, `titleTsv`) are kept apart too, for the organization search's first pass (query.ts).
 */
const tsvector = (pageTitle: Prisma.Sql, title: Prisma.Sql, body: Prisma.Sql) =>
  sql`setweight(to_tsvector(${SEARCH_CONFIG}, ${pageTitle}), 'A') || setweight(to_tsvector(${SEARCH_CONFIG}, ${title}), 'B') || setweight(to_tsvector(${SEARCH_CONFIG}, ${body}), 'C')`;

/** The space's organization, which its sections carry (the foreign key keeps the pair consistent). */
const organizationOf = (spaceId: string) => sql`(SELECT "organizationId" FROM "Space" WHERE "id" = ${spaceId})`;

type Row = { pageId: string; pageTitle: string; anchor: string; title: string; body: string; position: number };

/**
 * `OFFSET 0` keeps the planner from pulling the subquery up into the INSERT's target list, where
 * its `tsv` expression would be copied into both columns that use it and computed twice per row
 * (to_tsvector was most of the statement: 30,000 sections took 8.6 s without indexes, 3.5 s with it).
 */
async function insertRows(tx: Tx, spaceId: string, rows: readonly Row[]): Promise<void> {
  if (!rows.length) return;
  const column = <K extends keyof Row>(key: K) => rows.map((r) => r[key]);
  await tx.$executeRaw(sql`INSERT INTO "SearchSection" ("spaceId", "organizationId", "pageId", "anchor", "title", "body", "position", "tsv", "titleTsv")
    SELECT ${spaceId}, ${organizationOf(spaceId)}, r."pageId", r."anchor", r."title", r."body", r."position", r."tsv", ts_filter(r."tsv", '{a,b}')
    FROM (SELECT r.*, ${tsvector(sql`r."pageTitle"`, sql`r."title"`, sql`r."body"`)} AS "tsv" FROM unnest(${column('pageId')}::text[], ${column('pageTitle')}::text[], ${column('anchor')}::text[], ${column('title')}::text[],
      ${column('body')}::text[], ${column('position')}::int[]) AS r("pageId", "pageTitle", "anchor", "title", "body", "position") OFFSET 0) r`);
}

/** Writes the sections of `pages` (at most a batch), in as few INSERTs as their size allows. */
async function indexPages(tx: Tx, spaceId: string, pages: readonly PageEntry[]): Promise<void> {
  const documentPages = pages.filter((p) => p.type === 'document');
  const documents = await loadDocuments(tx, documentPages.flatMap((p) => (p.documentId ? [p.documentId] : [])));
  let rows: Row[] = [];
  let chars = 0;
  for (const page of documentPages) {
    const document = page.documentId ? (documents.get(page.documentId) ?? null) : null;
    for (const section of pageSections(document)) {
      rows.push({ pageId: page.entityId, pageTitle: page.title, ...section });
      chars += section.body.length + section.title.length + page.title.length;
      if (chars >= CHARS_PER_INSERT) {
        await insertRows(tx, spaceId, rows);
        rows = [];
        chars = 0;
      }
    }
  }
  await insertRows(tx, spaceId, rows);
}

/**
 * Re-indexes some pages of the space after a new revision (`scope`, the space's new current
 * revision) wrote them: their old sections go, and the pages that still exist there get their new
 * ones. Set-based: per batch of pages, one DELETE, one read of the entries, one of the documents
 * and one INSERT (more only for batches holding more than 8 million characters of text).
 */
export async function reindexPages(tx: Tx, spaceId: string, scope: RevisionScope, pageIds: readonly string[]): Promise<void> {
  const ids = [...new Set(pageIds)];
  for (let i = 0; i < ids.length; i += PAGES_PER_BATCH) {
    const batch = ids.slice(i, i + PAGES_PER_BATCH);
    await tx.$executeRaw(sql`DELETE FROM "SearchSection" WHERE "spaceId" = ${spaceId} AND "pageId" = ANY(${batch}::text[])`);
    await indexPages(tx, spaceId, (await entitiesIn(tx, scope, 'page', batch)) as PageEntry[]);
  }
}

/**
 * The sections of `fromSpaceId` copied to `toSpaceId`, whose current content is the same (a space
 * just duplicated): one statement, nothing re-parsed.
 */
export async function copySections(tx: Tx, fromSpaceId: string, toSpaceId: string): Promise<void> {
  await tx.$executeRaw(sql`INSERT INTO "SearchSection" ("spaceId", "organizationId", "pageId", "anchor", "title", "body", "position", "tsv", "titleTsv")
    SELECT ${toSpaceId}, ${organizationOf(toSpaceId)}, "pageId", "anchor", "title", "body", "position", "tsv", "titleTsv" FROM "SearchSection" WHERE "spaceId" = ${fromSpaceId}`);
}

/** Re-indexes a whole space from `scope` (its current revision). */
export async function reindexSpace(tx: Tx, spaceId: string, scope: RevisionScope): Promise<void> {
  await tx.$executeRaw(sql`DELETE FROM "SearchSection" WHERE "spaceId" = ${spaceId}`);
  const pages = (await allPages(tx, scope)).filter((p) => p.type === 'document');
  for (let i = 0; i < pages.length; i += PAGES_PER_BATCH) await indexPages(tx, spaceId, pages.slice(i, i + PAGES_PER_BATCH));
}
