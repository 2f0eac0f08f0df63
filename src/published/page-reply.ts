/** A page of a published site space, rendered. */
import type { Site } from '../generated/prisma/client.js';
import type { Located } from './locate.js';
import { frame, frameEtagParts } from './frame.js';
import { pageContent, revisionNavigation } from './page-content.js';
import { renderDocumentWithOutline, renderMessagePage, renderPage, type PageView } from './render/index.js';
import { cacheFor, etagOf, type Reply } from './reply.js';
import type { PublishedDeps } from './deps.js';
import type { Visitor } from './visitor.js';

/**
 * The ETag depends only on what the frame depends on (site, structure, revisions, customization,
 * the visitor: frameEtagParts) and the page's path: a revalidation the client can skip
 * (`ifNoneMatch` equal) answers 304 without building the frame, reading or rendering the page.
 */
export async function pageReply(deps: PublishedDeps, site: Site, sitePath: string, located: Located, visitor: Visitor, ifNoneMatch?: string, redirect?: () => Promise<Reply | null>): Promise<Reply> {
  const etag = etagOf([...frameEtagParts(site, sitePath, located, visitor), located.pagePath]);
  const cache = cacheFor(site, visitor);
  if (ifNoneMatch === etag) return { status: 200, body: '', type: 'text/html; charset=utf-8', etag, cache };
  const { view, hrefOf } = frame(site, sitePath, located, visitor);
  const { siteSpace } = located;
  const content = await pageContent(deps.db, siteSpace.space.revisionId, located.pagePath, hrefOf);
  // No page at this path: a redirect of the site may answer it (redirects.ts), else the 404 page.
  if (!content) return (await redirect?.()) ?? missingPage(deps, view, hrefOf, siteSpace.space.revisionId);
  const fileBase = `${sitePath}/~files/${encodeURIComponent(siteSpace.id)}`;
  const rendered = renderDocumentWithOutline(content.document, {
    lang: view.lang,
    pageUrl: (pageId, anchor) => {
      const path = pageId === content.page.entityId ? content.path : content.pagePaths.get(pageId);
      return path === undefined ? undefined : `${hrefOf(path)}${anchor ? `#${encodeURIComponent(anchor)}` : ''}`;
    },
    refTitle: (ref) => (typeof ref.page === 'string' ? (ref.page === content.page.entityId ? content.page.title : content.pageTitles.get(ref.page)) : undefined),
    fileUrl: (fileId) => {
      const file = content.files.get(fileId);
      return file && { url: `${fileBase}/${encodeURIComponent(fileId)}`, name: file.name, contentType: file.data.contentType, size: file.data.size };
    },
  });
  const pageView: PageView = {
    ...view,
    nav: content.nav,
    page: { title: content.page.title, description: (content.page.data as { description?: string }).description, bodyHtml: rendered.html, headings: rendered.headings, math: rendered.math },
    previous: content.previous,
    next: content.next,
  };
  return { status: 200, body: renderPage(pageView), type: 'text/html; charset=utf-8', etag, cache };
}


/** A path naming no page of the site space: a 404 in the site's frame, with its navigation and search. */
async function missingPage(deps: PublishedDeps, view: ReturnType<typeof frame>['view'], hrefOf: (path: string) => string, revisionId: string): Promise<Reply> {
  const nav = await revisionNavigation(deps.db, revisionId, hrefOf);
  return { status: 404, body: renderMessagePage({ ...view, nav }, 404, 'This page does not exist.'), type: 'text/html; charset=utf-8', cache: 'no-store' };
}
