/**
 * Searching one space's current content (API `GET /spaces/{spaceId}/search`): its pages whose
 * sections match, best first (then by ID), each with its best sections — the organization search
 * of query.ts (same query syntax, index, scores and excerpts) narrowed to one space and paged by
 * page instead of by space. The caller checks the caller may read the space.
 */
import { createHash } from 'node:crypto';
import { Prisma } from '../../../generated/prisma/client.js';
import { PLANNED_EACH_TIME } from '../../../db/client.js';
import { planPage, toPage, whereAll, type Page, type PageArgs, type Queryable, type SortKey } from '../../kernel/pagination/keyset.js';
import { bestSectionsSql, excerptSql, pagesInfo, queryCte, searchText, tsquerySql, type PageHit } from './query.js';

const { sql, raw } = Prisma;

type Ranked = { id: string; order: number };

type HitRow = { total: number; pageId: string | null; score: number; order: number; rank: number; anchor: string | null; sectionTitle: string; sectionScore: number; snippet: string };

export type SpaceSearchPage = Page<PageHit & Ranked> & { totalCount: number };

/** Pages by best score, then ID (the score as a bounded integer, negated: both columns ascend). A cursor belongs to one space and query. */
function pageOrder(spaceId: string, text: string): SortKey<PageHit & Ranked> {
  const digest = createHash('sha256').update(text).digest('base64url').slice(0, 16);
  return {
    tag: `space-search:${spaceId}:${digest}`,
    columns: [
      { sql: raw('r."order"'), type: 'int' },
      { sql: raw('r."id"'), type: 'text' },
    ],
    keyOf: (p) => [p.order, p.id],
  };
}

export async function searchSpace(db: Queryable, spaceId: string, query: unknown, args: PageArgs): Promise<SpaceSearchPage> {
  const text = searchText(query);
  const key = pageOrder(spaceId, text);
  const plan = planPage(key, args);
  // Planned for its words each time (db/client.ts): a common word's best plan is not a rare one's.
  const rows = await db.$queryRaw<HitRow[]>(sql`${raw(PLANNED_EACH_TIME)}
    WITH ${queryCte(text)},
    pages AS MATERIALIZED (
      SELECT h."pageId" AS "id", max(h."score") AS "score"
      FROM (
        SELECT ss."pageId", ts_rank_cd(ss."tsv", ${tsquerySql(text)}, 32)::float8 AS "score"
        FROM "SearchSection" ss
        WHERE ss."spaceId" = ${spaceId} AND ss."tsv" @@ ${tsquerySql(text)} AND querytree(${tsquerySql(text)}) NOT IN ('', 'T')
        OFFSET 0
      ) h
      GROUP BY h."pageId"
    ),
    ranked AS MATERIALIZED (
      SELECT p."id", p."score", (-floor(p."score" * 1e9))::int AS "order", row_number() OVER (ORDER BY p."score" DESC, p."id")::int AS "rank" FROM pages p
    ),
    listed AS (
      SELECT r.*, row_number() OVER (ORDER BY ${plan.orderBy}) AS "n" FROM ranked r ${whereAll(plan.seek)} ORDER BY ${plan.orderBy} LIMIT ${plan.limit}
    ),
    top_sections AS (
      SELECT ss."id", l."id" AS "pageId", ss."score", ss."n"
      FROM listed l CROSS JOIN q CROSS JOIN LATERAL ${bestSectionsSql(sql`${spaceId}`, sql`l."id"`)} ss
    )
    SELECT c."total", l."id" AS "pageId", l."score", l."order", l."rank",
      ss."anchor", ss."title" AS "sectionTitle", ts."score" AS "sectionScore", ${excerptSql()} AS "snippet"
    FROM (SELECT count(*)::int AS "total" FROM ranked) c
    CROSS JOIN q
    LEFT JOIN listed l ON true
    LEFT JOIN top_sections ts ON ts."pageId" = l."id"
    LEFT JOIN "SearchSection" ss ON ss."id" = ts."id"
    ORDER BY l."n", ts."n"`);
  const pages: (PageHit & Ranked)[] = [];
  for (const row of rows) {
    if (row.pageId === null) continue;
    let page = pages[pages.length - 1];
    if (page?.id !== row.pageId) {
      pages.push((page = { id: row.pageId, spaceId, title: '', description: null, path: '', ancestors: [], score: row.score, rank: row.rank, order: row.order, sections: [] }));
    }
    if (row.anchor !== null) page.sections.push({ anchor: row.anchor, title: row.sectionTitle, body: row.snippet ?? '', score: row.sectionScore });
  }
  // A page the index holds but the current revision does not (a race with a merge) is left out.
  const info = await pagesInfo(db, pages.map((p) => ({ spaceId, pageId: p.id })));
  const found = pages.filter((page) => {
    const row = info.get(`${spaceId}:${page.id}`);
    if (row) Object.assign(page, { title: row.title, description: row.description, path: row.path, ancestors: JSON.parse(row.ancestors) });
    return !!row;
  });
  // A page left out is also left out of the cursors: the next page reads it again, and leaves it out again.
  const page = toPage(key, plan, pages);
  return { ...page, rows: page.rows.filter((p) => found.includes(p)), totalCount: rows[0]?.total ?? 0 };
}
