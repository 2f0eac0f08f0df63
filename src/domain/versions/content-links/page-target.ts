/** The page a `page` or `anchor` reference points at, and the reusable content of a `reusable-content` one, and in which space. */
import { refField, type ContentRef } from '../../../lib/documents/content-ref.js';
import type { PageLink } from '../../../lib/documents/extract-links.js';
import type { LinkSource } from './link-source.js';

/** The reference's `space`, unless it names the source's own space (undefined: the link's own revision). */
function otherSpace(target: ContentRef, source: Pick<LinkSource, 'space'>): string | undefined {
  const space = refField(target, 'space');
  return space === undefined || space === source.space.id ? undefined : space;
}

/**
 * `space` is undefined for the link's own revision: when the reference names no space or the
 * source's own space. An anchor without `page` is in the page the link is on (OpenAPI ContentRefAnchor).
 */
export function pageTarget(link: PageLink, source: Pick<LinkSource, 'space'>): { page: string; space?: string } | null {
  const { target } = link;
  const page = target.kind === 'page' ? refField(target, 'page') : target.kind === 'anchor' ? (refField(target, 'page') ?? link.location.page) : undefined;
  if (page === undefined) return null;
  return { page, space: otherSpace(target, source) };
}

/** A reusable content is in the reference's `space` when it names another one (OpenAPI ContentRefReusableContent). */
export function reusableContentTarget(link: PageLink, source: Pick<LinkSource, 'space'>): { reusableContent: string; space?: string } | null {
  const { target } = link;
  const reusableContent = target.kind === 'reusable-content' ? refField(target, 'reusableContent') : undefined;
  if (reusableContent === undefined) return null;
  return { reusableContent, space: otherSpace(target, source) };
}
