/**
 * What the renderer needs from the site being served, to turn references into URLs. Every
 * function answers undefined for what it cannot resolve (a deleted page, a file of another
 * space, a page the visitor may not see): the renderer then shows a broken link as text.
 */
import type { JSONDocument } from '../../lib/documents/types.js';

export type RenderedFile = { url: string; name: string; contentType: string; size?: number };

/** A content reference as stored in documents (`{kind: 'page', page}`, `{kind: 'url', url}`…). */
export type ContentRefLike = { kind?: unknown; [field: string]: unknown };

export type RenderContext = {
  /** The site's locale, for the few words the renderer writes itself (hint labels…). */
  lang?: string;
  /** The published URL of a page, with `#anchor` when given. */
  pageUrl(pageId: string, anchor?: string): string | undefined;
  /** A file's download URL and what the download card shows. */
  fileUrl(fileId: string): RenderedFile | undefined;
  /** The published URL of another space (a `{kind: 'space'}` link). */
  spaceUrl?(spaceId: string): string | undefined;
  /** The body of a reusable content, rendered in place of its block. */
  reusableContent?(id: string): JSONDocument | undefined;
  /**
   * The display name of what a reference points at (a page's title, a user's name): the text of
   * mentions and of content-ref cards, which carry no text of their own. Optional: without it
   * cards show their URL and mentions the id.
   */
  refTitle?(ref: ContentRefLike): string | undefined;
};
