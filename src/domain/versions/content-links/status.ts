/**
 * The status of a link: `in-app` for a URL into this server's app or API, `ok` for any other URL
 * and for a target that exists, `broken` when the target does not exist (pages, files and
 * reusable contents in the revision, or in another live space's current revision when the
 * reference names one; spaces, collections and users in the organization).
 */
import type { Loaders } from '../../loaders/index.js';
import { memberKey, revisionPageKey } from '../../loaders/keys.js';
import { refField } from '../../../lib/documents/content-ref.js';
import type { PageLink } from '../../../lib/documents/extract-links.js';
import { pageTarget, reusableContentTarget } from './page-target.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import type { LinkSource } from './revision-links.js';
import { liveSpace, loadLinkTargets, type LinkTargets } from './targets.js';

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];
export type ContentLink = PageLink & { status: LinkStatus };

/** The configured base URLs (Config has both). */
export type BaseUrls = { appUrl: string; publicUrl: string };

/** Under `base` at a path boundary: `http://host:4000` must not claim `http://host:40000/…`. */
const isUnder = (url: string, base: string) => url === base || ['/', '?', '#'].some((sep) => url.startsWith(base + sep));

export function resolveStatus(link: PageLink, source: LinkSource, targets: LinkTargets, urls: BaseUrls): LinkStatus {
  const { target } = link;
  const organizationId = source.space.organizationId;
  const exists = (found: unknown): LinkStatus => (found ? 'ok' : 'broken');
  switch (target.kind) {
    case 'url': {
      const url = refField(target, 'url');
      if (url === undefined) return 'broken';
      return isUnder(url, urls.appUrl) || isUnder(url, urls.publicUrl) ? 'in-app' : 'ok';
    }
    case 'page':
    case 'anchor': {
      const ref = pageTarget(link, source);
      if (!ref) return 'broken';
      if (!ref.space) return exists(source.pageIds.has(ref.page));
      const space = liveSpace(targets, organizationId, ref.space);
      return exists(space && targets.pages.has(revisionPageKey(space.revisionId, ref.page)));
    }
    case 'space': {
      const id = refField(target, 'space');
      return exists(id && liveSpace(targets, organizationId, id));
    }
    case 'collection': {
      const collection = targets.collections.get(refField(target, 'collection') ?? '');
      return exists(collection?.organizationId === organizationId);
    }
    case 'user': {
      const id = refField(target, 'user');
      return exists(id && targets.members.has(memberKey(organizationId, id)));
    }
    case 'file': {
      const id = refField(target, 'file');
      return exists(id !== undefined && source.fileIds?.has(id));
    }
    case 'reusable-content': {
      const ref = reusableContentTarget(link, source);
      if (!ref) return 'broken';
      if (!ref.space) return exists(source.reusableContentIds?.has(ref.reusableContent));
      const space = liveSpace(targets, organizationId, ref.space);
      return exists(space && targets.reusableContents?.has(revisionPageKey(space.revisionId, ref.reusableContent)));
    }
    default:
      // tag, openapi: no such targets exist in this model yet.
      return 'broken';
  }
}

/**
 * The links of each source with their status; one batched lookup per kind for all of them. With
 * `db`, reusable contents of other spaces are looked up too (otherwise they count as broken).
 */
export async function withStatuses(loaders: Loaders, urls: BaseUrls, sources: LinkSource[], db?: Queryable): Promise<ContentLink[][]> {
  const targets = await loadLinkTargets(loaders, sources, db);
  return sources.map((source) => source.links.map((link) => ({ ...link, status: resolveStatus(link, source, targets, urls) })));
}
