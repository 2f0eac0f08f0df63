/**
 * Searching an organization's content: the sections (see index-pages.ts) of the live spaces the
 * reader can see that match the query, grouped by space, spaces ordered by their best section
 * (then by ID), a page of spaces read with a keyset cursor in SQL.
 *
 * - The query is read by `websearch_to_tsquery` (quotes for phrases, `or`, `-` to exclude), which
 *   accepts any text: no input makes it fail, unlike `to_tsquery`. A query with nothing that must
 *   appear (only exclusions, e.g. `-draft` or `a or -b`) would match almost every section without
 *   the index's help: it matches nothing instead.
 * - Relevance is `ts_rank_cd` (cover density) with the weights of the index: page title (A, 1.0) >
 *   heading (B, 0.4) > body (C, 0.2), normalized to rank / (rank + 1) (option 32) so that scores
 *   lie in [0, 1) and sort keys are bounded integers.
 * - The cost is bounded by the candidates ranked and the page answered, not by the number of
 *   matches. In an organization of at most SPACES_ONE_BY_ONE live spaces, and for a guest or a
 *   site, each space searched ranks at most its share of CANDIDATE_BUDGET matching sections (those
 *   matching in a title first, see candidatePassesSql), read from indexes that lead with the space. A
 *   space's score and pages are those of its candidates: exact whenever it has no more matches than
 *   its share, which every rare or precise query meets; for a word in most sections, the best of
 *   what it ranked; `totalCount` is exact (a space matches when it has a candidate). A member's
 *   search in a larger organization takes CANDIDATE_BUDGET candidates of each kind from the whole
 *   organization instead (organizationCandidatesSql), so that its cost does not grow with the
 *   number of spaces: a space is then listed when it holds one of them.
 * - Each space of the page comes with its best pages (at most PAGES_PER_SPACE), each page with its
 *   best sections (at most SECTIONS_PER_PAGE, ranked among all of the page's matches): enough to
 *   choose where to go. Everything but the candidates (the sections of a page, excerpts, paths)
 *   is read only for what the answer holds.
 * - A section's `body` in the answer is a plain-text excerpt around its matches (`ts_headline`, no
 *   markup: the body is text, and clients render it as such), taken from a window of
 *   HEADLINE_WINDOW characters around the first occurrence of a query word, so that an excerpt
 *   costs the same for a 100 KB section as for a short one. A section found by its title or its
 *   page's title only gets its opening words. A body of at most WHOLE_BODY characters is answered whole.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { Prisma } from '../../../generated/prisma/client.js';
import { PLANNED_EACH_TIME, type Db } from '../../../db/client.js';
import { planPage, toPage, whereAll, type Page, type PageArgs, type Queryable, type SortKey } from '../../kernel/pagination/keyset.js';
import { guestSeesSpace } from '../../access/role-sql.js';
import type { Reader } from '../../content/spaces/rows.js';
import { liveSql } from '../../content/spaces/lifecycle.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { SEARCH_CONFIG } from './index-pages.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

export const MAX_QUERY_LENGTH = 512;
/** Pages per space and sections per page in an answer. */
export const PAGES_PER_SPACE = 5;
export const SECTIONS_PER_PAGE = 3;
/**
 * Sections ranked by one search, at most, found by their titles and as many by their bodies,
 * shared between the spaces searched: each space gets an equal share, at least
 * MIN_CANDIDATES_PER_SPACE (see candidatesSql).
 */
export const CANDIDATE_BUDGET = 1000;
export const MIN_CANDIDATES_PER_SPACE = 10;
/** Characters of a long section that its excerpt is taken from (see above). */
export const HEADLINE_WINDOW = 8000;
/** A body this short is its own excerpt. */
export const WHOLE_BODY = 200;

const HEADLINE_OPTIONS = 'MaxFragments=2, MaxWords=30, MinWords=12, FragmentDelimiter=" … ", StartSel="", StopSel=""';

export type SectionHit = {
  /** The heading's anchor; '' for the text before the first heading. */
  anchor: string;
  title: string;
  /** An excerpt of the section around its matches (plain text). */
  body: string;
  score: number;
};

export type PageHit = {
  id: string;
  spaceId: string;
  title: string;
  description: string | null;
  /** Complete path of the page in the space's current revision. */
  path: string;
  /** The page's ancestors, top level first. */
  ancestors: { id: string; title: string }[];
  score: number;
  /** One-based position of the page among the matching pages the search ranked, best first. */
  rank: number;
  sections: SectionHit[];
};

export type SpaceHit = { id: string; title: string; score: number; pages: PageHit[]; /** Sort key (see spaceOrder). */ order: number };

export type SearchPage = Page<SpaceHit> & { totalCount: number };

const querySchema = lazySchema(() => z.object({
  query: z
    .string({ error: 'required' })
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_QUERY_LENGTH, `at most ${MAX_QUERY_LENGTH} characters`),
}));

/** The query text, trimmed: 1 to 512 characters, or a 400 naming `query`. */
export function searchText(query: unknown): string {
  return parseInput(querySchema, { query }).query;
}

/**
 * Spaces by best score, then ID. The score becomes a bounded integer (scores are in [0, 1)),
 * negated so that both columns of the key ascend. A cursor belongs to one organization and query.
 */
function spaceOrder(organizationId: string, text: string): SortKey<SpaceHit> {
  const digest = createHash('sha256').update(text).digest('base64url').slice(0, 16);
  return {
    tag: `search:${organizationId}:${digest}`,
    columns: [
      { sql: raw('r."order"'), type: 'int' },
      { sql: raw('r."id"'), type: 'text' },
    ],
    keyOf: (s) => [s.order, s.id],
  };
}

type HitRow = {
  total: number;
  spaceId: string | null;
  spaceTitle: string;
  spaceScore: number;
  order: number;
  pageId: string | null;
  pageScore: number;
  pageRank: number;
  anchor: string | null;
  sectionTitle: string;
  sectionScore: number;
  snippet: string;
};

type PageRow = { spaceId: string; pageId: string; path: string; title: string; description: string | null; ancestors: string };

/** Whose search: a reader of the organization (a guest sees only the spaces their grants reach), or a published site's spaces. */
export type SearchScope = Reader | { spaceIds: readonly string[] };

/**
 * The query as SQL: a scalar subquery, evaluated once per statement. Written as a plain call, a
 * prepared statement's generic plan would parse the query again for every matching row.
 */
export const tsquerySql = (text: string): Sql => sql`(SELECT websearch_to_tsquery(${SEARCH_CONFIG}, ${text}::text))`;

/** The `q` CTE every search statement starts with: the query and its words. */
export const queryCte = (text: string): Sql =>
  sql`q AS MATERIALIZED (SELECT ${tsquerySql(text)} AS "tsquery", array(SELECT lexeme FROM unnest(to_tsvector(${SEARCH_CONFIG}, ${text}::text))) AS "words")`;

/** The excerpt of section `ss` for the query of `q` (see HEADLINE_WINDOW and WHOLE_BODY). */
export function excerptSql(): Sql {
  // The window of a long body that holds the first occurrence of a query word (lexemes of the
  // `simple` configuration are the lower-cased words, so `strpos` over the lower-cased body finds them).
  const window = sql`CASE WHEN length(ss."body") <= ${HEADLINE_WINDOW} THEN ss."body"
    ELSE substr(ss."body", greatest(1, coalesce((SELECT min(nullif(strpos(lower(ss."body"), w), 0)) FROM unnest(q."words") w), 1) - ${HEADLINE_WINDOW / 4}), ${HEADLINE_WINDOW}) END`;
  return sql`CASE WHEN length(ss."body") <= ${WHOLE_BODY} THEN ss."body" ELSE ts_headline(${SEARCH_CONFIG}, ${window}, q."tsquery", ${HEADLINE_OPTIONS}) END`;
}

/** The best matching sections (at most SECTIONS_PER_PAGE) of one page, for a `LATERAL` join beside `q`. */
export const bestSectionsSql = (spaceId: Sql, pageId: Sql): Sql => sql`(
        SELECT ss."id", ts_rank_cd(ss."tsv", q."tsquery", 32)::float8 AS "score",
          row_number() OVER (ORDER BY ts_rank_cd(ss."tsv", q."tsquery", 32) DESC, ss."position") AS "n"
        FROM "SearchSection" ss
        WHERE ss."spaceId" = ${spaceId} AND ss."pageId" = ${pageId} AND (ss."tsv" @@ q."tsquery") IS TRUE
        ORDER BY "n" LIMIT ${SECTIONS_PER_PAGE}
      )`;

/**
 * The sections a search ranks, read `from` the rows that `where` keeps: at most `limit` that match
 * with the query in their page's title or their heading (`titleTsv`, a few words a row), then as
 * many that match elsewhere, each pass the first in `order`. A section named after the query
 * outranks one that only mentions it (weights A and B over C), so taking those first keeps the
 * best among the candidates. The order is an arbitrary choice, but the same for every page of
 * results whatever plan reads them (the keyset cursor needs a space's score not to change between
 * requests). A title match is a match of the whole section unless the query excludes words (`!`
 * in the tsquery: then the body may hold one); the test folds away when it has nothing to exclude.
 *
 * The title pass keeps only IDs until its limit, then reads the vectors of its candidates: with
 * the query's words in many titles, an index that carries `titleTsv` is read in `order` without
 * touching a row and stops at the limit (a GIN probe would fetch and sort every title match);
 * with rare ones the GIN index finds them, and no full vector is carried through the sort.
 */
const candidatePassesSql = (from: Sql, where: Sql, order: Sql, tsquery: Sql, limit: Sql): Sql => sql`(
        SELECT x."spaceId", x."pageId", ts_rank_cd(x."tsv", ${tsquery}, 32)::float8 AS "score"
        FROM (
          (SELECT ss."spaceId", ss."pageId", ss."tsv"
            FROM (SELECT ss."id" FROM ${from}
              WHERE ${where} AND ss."titleTsv" @@ ${tsquery}
                AND (strpos(${tsquery}::text, '!') = 0 OR ss."tsv" @@ ${tsquery})
              ORDER BY ${order} LIMIT ${limit}) t
            JOIN "SearchSection" ss ON ss."id" = t."id")
          UNION ALL
          (SELECT ss."spaceId", ss."pageId", ss."tsv" FROM ${from}
            WHERE ${where} AND ss."tsv" @@ ${tsquery} AND NOT (ss."titleTsv" @@ ${tsquery})
            ORDER BY ${order} LIMIT ${limit})
        ) x
      )`;

/**
 * The candidates of one space, `share` of each kind at most, first by page and ID: read from the
 * (space, page, ID) index, which carries `titleTsv`, or from the GIN indexes that lead with the
 * space. A search costs two probes per space and at most
 * 2 × max(CANDIDATE_BUDGET, MIN_CANDIDATES_PER_SPACE × spaces) rankings, however much matches; it
 * is exact for every space with no more matches than its share.
 */
const candidatesSql = (spaceId: Sql, tsquery: Sql, share: Sql): Sql =>
  candidatePassesSql(sql`"SearchSection" ss`, sql`ss."spaceId" = ${spaceId}`, raw('ss."pageId", ss."id"'), tsquery, share);

/**
 * The candidates of a member's search in an organization of more than SPACES_ONE_BY_ONE live
 * spaces, where probing each space would cost as many probes as it has spaces: at most `limit` of
 * each kind from the whole organization (`visible` tests the section's organization and its space
 * `s`), the most recently indexed first (the sections of a page merged last), read from the
 * indexes that lead with the organization: the GIN ones for a rare word, the (organization, -ID)
 * one in order until the limit for a word in many sections (on the negated ID: ordered by the ID,
 * the planner would read the primary key backwards through other organizations' newer sections).
 * The cost no longer depends on the number of spaces; a space is listed when it holds one of these
 * candidates, so `totalCount` is exact whenever each kind has fewer matches than the limit, and
 * otherwise counts the spaces of the candidates.
 */
const organizationCandidatesSql = (visible: Sql, tsquery: Sql, limit: Sql): Sql =>
  candidatePassesSql(sql`"SearchSection" ss JOIN "Space" s ON s."id" = ss."spaceId"`, visible, raw('-ss."id"'), tsquery, limit);

/**
 * A member's search reads space by space (each space its share of the budget, every matching
 * space counted) while the organization has at most this many live spaces: the budget's shares
 * are then at least MIN_CANDIDATES_PER_SPACE. Beyond, it reads organization-wide (above). A
 * guest's and a site's search always read space by space: their spaces are the few they were given.
 */
export const SPACES_ONE_BY_ONE = CANDIDATE_BUDGET / MIN_CANDIDATES_PER_SPACE;

/**
 * Tuning of one search (tests use it to reach the bounds with little content): `candidatesPerSpace`
 * replaces the share of CANDIDATE_BUDGET, `spacesOneByOne` SPACES_ONE_BY_ONE, and
 * `organizationCandidates` the limit of each organization-wide pass (CANDIDATE_BUDGET).
 */
export type SearchOptions = { candidatesPerSpace?: number; spacesOneByOne?: number; organizationCandidates?: number };

/**
 * The candidates of the reader's spaces: space by space (candidatesSql), or, for a member of an
 * organization of more than SPACES_ONE_BY_ONE live spaces (counted up to one more, in the `wide`
 * CTE), organization-wide. Each branch is gated by a one-time test: the other one reads nothing.
 */
function candidatesOf(organizationId: string, text: string, visible: Sql, member: boolean, options: SearchOptions): { ctes: Sql; candidates: Sql } {
  // The query as a plain call in the candidates' passes: planned with its value (searchOrganization
  // has the statement planned for its parameters every time), it is a constant whose words'
  // frequencies the planner knows, so candidates of a word in most sections are read in order and
  // kept until the limit, and those of a rare word from the GIN index.
  const planned = sql`websearch_to_tsquery(${SEARCH_CONFIG}, ${text}::text)`;
  const share = options.candidatesPerSpace ? sql`${options.candidatesPerSpace}::int` : sql`(SELECT greatest(${MIN_CANDIDATES_PER_SPACE}, ${CANDIDATE_BUDGET} / count(*)) FROM spaces)`;
  // A query with nothing that must appear (only exclusions) matches nothing (see above).
  const matchable = sql`querytree(${planned}) NOT IN ('', 'T')`;
  const ctes = [sql`spaces AS MATERIALIZED (SELECT s."id" FROM "Space" s WHERE ${visible} AND ${matchable})`];
  const oneByOne = sql`SELECT c.* FROM spaces s CROSS JOIN LATERAL ${candidatesSql(sql`s."id"`, planned, share)} c`;
  if (!member) return { ctes: Prisma.join(ctes, ', '), candidates: oneByOne };
  const upTo = options.spacesOneByOne ?? SPACES_ONE_BY_ONE;
  ctes.push(sql`wide AS MATERIALIZED (SELECT count(*) > ${upTo} AS "wide" FROM (SELECT 1 FROM "Space" s WHERE ${visible} LIMIT ${upTo + 1}) x)`);
  const limit = sql`${options.organizationCandidates ?? CANDIDATE_BUDGET}::int`;
  const wide = organizationCandidatesSql(sql`ss."organizationId" = ${organizationId} AND ${visible} AND ${matchable}`, planned, limit);
  return {
    ctes: Prisma.join(ctes, ', '),
    candidates: sql`${oneByOne} WHERE NOT (SELECT w."wide" FROM wide w) UNION ALL SELECT c.* FROM ${wide} c WHERE (SELECT w."wide" FROM wide w)`,
  };
}

function searchSql(organizationId: string, reader: SearchScope, text: string, plan: ReturnType<typeof planPage>, options: SearchOptions): Sql {
  const scoped = 'spaceIds' in reader ? [sql`s."id" = ANY(${[...reader.spaceIds]}::text[])`] : reader.guest ? [guestSeesSpace('s', reader.userId)] : [];
  const visible = Prisma.join([sql`s."organizationId" = ${organizationId}`, liveSql('s'), ...scoped], ' AND ');
  const { ctes, candidates } = candidatesOf(organizationId, text, visible, !scoped.length, options);
  return sql`
    WITH ${queryCte(text)}, ${ctes},
    pages AS MATERIALIZED (
      -- The candidates (see candidatesOf), folded into their pages.
      SELECT c."spaceId", c."pageId", max(c."score") AS "score"
      FROM (${candidates}) c
      GROUP BY c."spaceId", c."pageId"
    ),
    ranked AS MATERIALIZED (
      SELECT p."spaceId" AS "id", max(p."score") AS "score", (-floor(max(p."score") * 1e9))::int AS "order"
      FROM pages p GROUP BY p."spaceId"
    ),
    listed AS (
      SELECT r.*, row_number() OVER (ORDER BY ${plan.orderBy}) AS "n" FROM ranked r ${whereAll(plan.seek)} ORDER BY ${plan.orderBy} LIMIT ${plan.limit}
    ),
    top_pages AS MATERIALIZED (
      -- One pass over the pages; the listed spaces as an array (the planner, which cannot estimate
      -- the candidates, would otherwise scan the pages once per listed space).
      SELECT x.* FROM (
        SELECT p.*, row_number() OVER (ORDER BY p."score" DESC, p."spaceId", p."pageId") AS "rank",
          row_number() OVER (PARTITION BY p."spaceId" ORDER BY p."score" DESC, p."pageId") AS "n"
        FROM pages p
      ) x WHERE x."n" <= ${PAGES_PER_SPACE} AND x."spaceId" = ANY(array(SELECT l."id" FROM listed l WHERE l."n" <= ${plan.size}))
    ),
    top_sections AS MATERIALIZED (
      -- The sections of the pages of the answer, read by page (the match is tested on each row, so
      -- that PostgreSQL reads them by page rather than by the query's every match in the index).
      -- Materialized: read once per page, not once per row of the join below (the planner, which
      -- cannot estimate the candidates, would otherwise repeat it).
      SELECT ss."id", tp."spaceId", tp."pageId", ss."score", ss."n"
      FROM top_pages tp CROSS JOIN q
      CROSS JOIN LATERAL ${bestSectionsSql(sql`tp."spaceId"`, sql`tp."pageId"`)} ss
    )
    SELECT c."total", l."id" AS "spaceId", sp."title" AS "spaceTitle", l."score" AS "spaceScore", l."order",
      tp."pageId", tp."score" AS "pageScore", tp."rank"::int AS "pageRank",
      ss."anchor", ss."title" AS "sectionTitle", ts."score" AS "sectionScore",
      ${excerptSql()} AS "snippet"
    FROM (SELECT count(*)::int AS "total" FROM ranked) c
    CROSS JOIN q
    LEFT JOIN listed l ON true
    LEFT JOIN "Space" sp ON sp."id" = l."id"
    LEFT JOIN top_pages tp ON tp."spaceId" = l."id"
    LEFT JOIN top_sections ts ON ts."spaceId" = tp."spaceId" AND ts."pageId" = tp."pageId"
    LEFT JOIN "SearchSection" ss ON ss."id" = ts."id"
    ORDER BY l."n", tp."n", ts."n"`;
}

/**
 * Paths, titles, descriptions and ancestors of some pages of the spaces' current revisions: one
 * statement walking up from every page at once (the space's line, rows visible at the revision's
 * seq: see revisions/visible.ts).
 */
export async function pagesInfo(db: Queryable, pages: readonly { spaceId: string; pageId: string }[]): Promise<Map<string, PageRow>> {
  if (!pages.length) return new Map();
  const visibleAt = (e: string, c: string) => raw(`${e}."fromSeq" <= ${c}."seq" AND (${e}."toSeq" IS NULL OR ${e}."toSeq" > ${c}."seq")`);
  const rows = await db.$queryRaw<PageRow[]>(sql`
    WITH RECURSIVE chain AS (
      SELECT w."spaceId", w."pageId", r."seq", 0 AS "depth", e."entityId", e."parentId", e."slug", e."title", e."data"->>'description' AS "description"
      FROM unnest(${pages.map((p) => p.spaceId)}::text[], ${pages.map((p) => p.pageId)}::text[]) AS w("spaceId", "pageId")
      JOIN "Space" s ON s."id" = w."spaceId"
      JOIN "Revision" r ON r."id" = s."revisionId"
      JOIN "ContentEntry" e ON e."lineId" = w."spaceId" AND e."entityId" = w."pageId" AND e."kind" = 'page' AND ${visibleAt('e', 'r')}
      UNION ALL
      SELECT c."spaceId", c."pageId", c."seq", c."depth" + 1, e."entityId", e."parentId", e."slug", e."title", NULL
      FROM chain c
      JOIN "ContentEntry" e ON e."lineId" = c."spaceId" AND e."entityId" = c."parentId" AND e."kind" = 'page' AND ${visibleAt('e', 'c')}
      WHERE c."depth" < 100
    )
    SELECT "spaceId", "pageId", string_agg("slug", '/' ORDER BY "depth" DESC) AS "path",
      max("title") FILTER (WHERE "depth" = 0) AS "title", max("description") FILTER (WHERE "depth" = 0) AS "description",
      coalesce(json_agg(json_build_object('id', "entityId", 'title', "title") ORDER BY "depth" DESC) FILTER (WHERE "depth" > 0), '[]')::text AS "ancestors"
    FROM chain GROUP BY "spaceId", "pageId"`);
  return new Map(rows.map((r) => [`${r.spaceId}:${r.pageId}`, r]));
}

/** The statement of a search and its page's sort key (exported for the benchmark's EXPLAIN). */
export function searchStatement(reader: SearchScope, organizationId: string, query: unknown, args: PageArgs, options: SearchOptions = {}) {
  const text = searchText(query);
  const key = spaceOrder(organizationId, text);
  const plan = planPage(key, args);
  // Planned for its parameters on every execution (see candidatesSql), as an unnamed statement: a
  // prepared statement's cached generic plan cannot know how common the query's words are, and read
  // a word in every section from the GIN index (measured: 900 ms instead of 60 ms on the
  // benchmark's common term).
  return { key, plan, statement: sql`${raw(PLANNED_EACH_TIME)}${searchSql(organizationId, reader, text, plan, options)}` };
}

/**
 * A page of the spaces of the organization whose content matches `query`, for `reader` (a guest
 * sees only the spaces their grants reach). The caller checks the reader belongs to the organization.
 */
export async function searchOrganization(
  db: Db,
  reader: SearchScope,
  organizationId: string,
  query: unknown,
  args: PageArgs,
  options: SearchOptions = {},
): Promise<SearchPage> {
  const { key, plan, statement } = searchStatement(reader, organizationId, query, args, options);
  const rows = await db.$queryRaw<HitRow[]>(statement);
  const spaces: SpaceHit[] = [];
  const pages = new Map<string, PageHit>();
  for (const row of rows) {
    if (row.spaceId === null) continue;
    let space = spaces[spaces.length - 1];
    if (space?.id !== row.spaceId) spaces.push((space = { id: row.spaceId, title: row.spaceTitle, score: row.spaceScore, order: row.order, pages: [] }));
    if (row.pageId === null) continue;
    const pageKey = `${row.spaceId}:${row.pageId}`;
    let page = pages.get(pageKey);
    if (!page) {
      page = { id: row.pageId, spaceId: row.spaceId, title: '', description: null, path: '', ancestors: [], score: row.pageScore, rank: row.pageRank, sections: [] };
      pages.set(pageKey, page);
      space.pages.push(page);
    }
    if (row.anchor !== null) page.sections.push({ anchor: row.anchor, title: row.sectionTitle, body: row.snippet ?? '', score: row.sectionScore });
  }
  // Paths for the pages of the answer only. A page the index holds but the revision does not (the
  // index always follows merges, so only in a race with one) is left out.
  const info = await pagesInfo(db, [...pages.values()].map((p) => ({ spaceId: p.spaceId, pageId: p.id })));
  for (const space of spaces) {
    space.pages = space.pages.filter((page) => {
      const found = info.get(`${page.spaceId}:${page.id}`);
      if (!found) return false;
      Object.assign(page, { title: found.title, description: found.description, path: found.path, ancestors: JSON.parse(found.ancestors) });
      return true;
    });
  }
  return { ...toPage(key, plan, spaces), totalCount: rows[0]?.total ?? 0 };
}
