/**
 * The query parameters of the content reads of the public document (4.7: a space's current
 * content, its revisions, change requests' content) and the shapes they answer beyond those of
 * present-change-requests.ts: a page record in the asked format, a bare document, meta-links,
 * contributors. Parameters this server cannot honour are refused with a 400 naming them.
 */
import { badRequest } from '../lib/errors.js';
import { booleanParam, enumParam } from './route.js';
import { nestPages, presentPage } from './present-change-requests.js';
import { presentUser } from './present.js';

type Obj = Record<string, any>;

/**
 * `metadata`, `computed` and `cachedMetadata`: validated. `metadata=false` leaves out git sync's
 * mutable metadata (`git` of revisions, pages, files, reusable contents: withoutGitMetadata);
 * this server keeps no computed content, so there is nothing the others would leave out.
 */
export function revisionFlags(query: URLSearchParams): void {
  booleanParam(query, 'metadata');
  booleanParam(query, 'computed');
  booleanParam(query, 'cachedMetadata');
}

/**
 * `evaluated` and `dereferenced`: `false` (the default) is what this server answers — documents
 * as stored, reusable contents as references; evaluating expressions or expanding references is
 * refused rather than ignored.
 */
export function documentFlags(query: URLSearchParams): void {
  const flag = (name: string, extra: string) => {
    const value = query.get(name);
    if (value === null || value === '' || value === 'false') return;
    if (value === 'true' || value === extra) throw badRequest(`"${name}=${value}" is not supported by this server yet: documents are answered as stored (${name}=false)`, name);
    throw badRequest(`Invalid value for "${name}": must be true, false or ${extra}`, name);
  };
  flag('evaluated', 'deterministic-only');
  flag('dereferenced', 'reusable-contents');
}

export type PageFormat = { format: 'document' | 'markdown'; refs: 'relative' | 'stable' };

/** `format` (the body as a JSON document, the default, or as markdown) and `format.markdown.refs`. */
export function pageFormat(query: URLSearchParams): PageFormat {
  revisionFlags(query);
  documentFlags(query);
  const format = enumParam(query, 'format', ['document', 'markdown'] as const) ?? 'document';
  const refs = enumParam(query, 'format.markdown.refs', ['relative', 'stable'] as const) ?? 'relative';
  return { format, refs };
}

/** A page record (its subtree nested) with the body in the asked format. */
export function presentPageRecord(page: Obj, format: PageFormat['format']): Obj {
  const nested = { ...page, pages: nestPages(page.descendants, page.id) };
  return format === 'markdown' ? presentPage(nested, { markdown: page.markdown ?? '' }) : presentPage(nested, { document: page.document ?? undefined });
}

/** A JSON document as answered alone: a body-less document page has an empty one. */
export const presentDocument = (document: Obj | null) => document ?? { object: 'document', data: {}, nodes: [] };

/** `schema` of `GET /spaces/{id}/documents/{id}`: documents are kept in the current schema only. */
export function documentSchema(query: URLSearchParams): void {
  if (enumParam(query, 'schema', ['current', 'next'] as const) === 'next') throw badRequest('"schema=next" is not supported by this server: documents are kept in the current schema', 'schema');
}

/** ChangeRequestUserContributor. */
export const presentContributor = (c: Obj) => ({ actionType: c.actionType, count: c.count, updatedAt: c.updatedAt, user: presentUser(c.user) });

/** The answer without its `git` objects, when `metadata=false` asks for that (any route reading revisions). */
export function withoutGitMetadata(query: URLSearchParams, body: unknown): unknown {
  if (query.get('metadata') !== 'false') return body;
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'git').map(([key, v]) => [key, strip(v)]));
  };
  return strip(body);
}
