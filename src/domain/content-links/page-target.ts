/** The page a `page` or `anchor` reference points at, and in which space. */
import { refField } from './content-ref.js';
import type { PageLink } from './extract.js';
import type { LinkSource } from './revision-links.js';

/**
 * `space` is undefined for the link's own revision: when the reference names no space or the
 * source's own space. An anchor without `page` is in the page the link is on (OpenAPI ContentRefAnchor).
 */
export function pageTarget(link: PageLink, source: LinkSource): { page: string; space?: string } | null {
  const { target } = link;
  const page = target.kind === 'page' ? refField(target, 'page') : target.kind === 'anchor' ? (refField(target, 'page') ?? link.location.page) : undefined;
  if (page === undefined) return null;
  const space = refField(target, 'space');
  return { page, space: space === undefined || space === source.space.id ? undefined : space };
}
