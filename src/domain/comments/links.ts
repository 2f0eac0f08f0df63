/**
 * Links of a markdown body, resolved as a page body's are (versions/change-requests/resolve-links.ts):
 * `/pages/<id>`, `/files/<id>` and paths relative to the comment's page (`../install.md`) become
 * content references of the place's current content; what names nothing stays a URL. The place's
 * pages, files and reusable contents (no bodies) are read through the request's loaders, only when
 * the body has such links.
 */
import { resolveLink, type ContentRef } from '../../lib/markdown/index.js';
import { contentLayoutOf } from '../git-sync/layout.js';
import type { Loaders } from '../loaders/index.js';

export type LinkResolver = (targets: readonly string[]) => Promise<Record<string, ContentRef>>;

/** Resolves targets from page `pageId` (null: the content's root) of revision `revisionId` of space `spaceId`. */
export const linkResolver =
  (loaders: Loaders, spaceId: string, revisionId: string, pageId: string | null): LinkResolver =>
  async (targets) => {
    const [pages, files, reusables, mapping] = await Promise.all([
      loaders.revisionPages.load(revisionId),
      loaders.revisionFiles.load(revisionId),
      loaders.revisionReusableContents.load(revisionId),
      loaders.gitMapping.load(spaceId),
    ]);
    const layout = contentLayoutOf([...pages, ...files, ...reusables], mapping);
    const links: Record<string, ContentRef> = {};
    for (const url of targets) {
      const ref = resolveLink(layout, url, pageId ?? undefined);
      if (ref) links[url] = ref;
    }
    return links;
  };
