/** Searching an organization's content: spaces whose pages match, best first (domain/search/query.ts). */
import { searchOrganization, PAGES_PER_SPACE, SECTIONS_PER_PAGE, type PageHit, type SectionHit, type SpaceHit } from '../../domain/versions/search/query.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { appUrl } from '../urls.js';
import { SpaceRef } from './space.js';

/** A section as resolvers pass it: with the page it belongs to (its URL is the page's plus the anchor). */
type SectionShape = SectionHit & { page: PageHit };

const SearchUrls = builder.simpleObject('SearchResultUrls', {
  description: 'Where a search result is, in the app.',
  fields: (t) => ({ app: t.string({ description: 'URL of the result in the application.' }) }),
});

const SearchAncestor = builder.simpleObject('SearchPageAncestor', {
  description: 'A page above a search result\'s page in its space\'s tree.',
  fields: (t) => ({ id: t.id({ description: 'The ID of the ancestor page.' }), title: t.string({ description: 'Its title.' }) }),
});

const sectionPath = (s: SectionShape) => (s.anchor ? `${s.page.path}#${s.anchor}` : s.page.path);

const SearchSectionResultRef = builder.objectRef<SectionShape>('SearchSectionResult').implement({
  description: 'A section of a page that matches: the text under one heading, or before the first.',
  fields: (t) => ({
    id: t.id({
      description: 'The page ID and the anchor (`page#anchor`); the page ID alone for the text before the first heading.',
      resolve: (s) => (s.anchor ? `${s.page.id}#${s.anchor}` : s.page.id),
    }),
    anchor: t.string({ description: "The heading's anchor; empty for the text before the first heading.", resolve: (s) => s.anchor }),
    title: t.string({ description: "The heading's text; empty for the text before the first heading.", resolve: (s) => s.title }),
    path: t.string({ description: 'Path of the page, then `#` and the anchor.', resolve: sectionPath }),
    body: t.string({ description: 'A plain-text excerpt of the section around its matches.', resolve: (s) => s.body }),
    score: t.float({ description: 'Relevance, in [0, 1): higher is better.', resolve: (s) => s.score }),
    urls: t.field({ description: 'Its URLs (in this API; in the app where the app shows it).', type: SearchUrls, resolve: (s, _a, ctx) => ({ app: appUrl(ctx, `/s/${s.page.spaceId}/${sectionPath(s)}`) }) }),
  }),
});

export const SearchPageResultRef = builder.objectRef<PageHit>('SearchPageResult').implement({
  description: 'A page that matches, with its best sections.',
  fields: (t) => ({
    id: t.id({ description: 'The ID of the page.', resolve: (p) => p.id }),
    title: t.string({ description: "The page's title.", resolve: (p) => p.title }),
    description: t.string({ description: "The page's description; null when it has none.", nullable: true, resolve: (p) => p.description }),
    path: t.string({ description: 'Complete path of the page in the current revision.', resolve: (p) => p.path }),
    ancestors: t.field({ type: [SearchAncestor], description: 'Ancestor pages, top level first.', resolve: (p) => p.ancestors }),
    score: t.float({ description: "Relevance (its best section's), in [0, 1): higher is better.", resolve: (p) => p.score }),
    rank: t.int({ description: 'One-based position of the page among the matching pages the search ranked, best first (the same on every page of results): every matching page, except in an organization search with more matches than it ranks (a fixed budget, shared between spaces or taken organization-wide), which counts its ranked ones.', resolve: (p) => p.rank }),
    sections: t.field({
      type: [SearchSectionResultRef],
      description: `The best matching sections of the page, best first (at most ${SECTIONS_PER_PAGE}).`,
      resolve: (p) => p.sections.map((s) => ({ ...s, page: p })),
    }),
    urls: t.field({ description: 'Its URLs (in this API; in the app where the app shows it).', type: SearchUrls, resolve: (p, _a, ctx) => ({ app: appUrl(ctx, `/s/${p.spaceId}/${p.path}`) }) }),
  }),
});

export const SearchSpaceResultRef = builder.objectRef<SpaceHit>('SearchSpaceResult').implement({
  description: 'A space whose content matches, with its best pages.',
  fields: (t) => ({
    id: t.id({ description: 'ID of the space.', resolve: (s) => s.id }),
    title: t.string({ description: "The space's title.", resolve: (s) => s.title }),
    score: t.float({ description: "Relevance (its best section's), in [0, 1): higher is better.", resolve: (s) => s.score }),
    space: t.field({ description: 'The space itself; null if it is gone.', type: SpaceRef, nullable: true, resolve: async (s, _a, ctx) => ctx.loaders.space.load(s.id) }),
    pages: t.field({
      type: [SearchPageResultRef],
      description: `The best matching pages of the space, best first (at most ${PAGES_PER_SPACE}).`,
      resolve: (s) => s.pages,
    }),
  }),
});

builder.prismaObjectFields('Organization', (t) => ({
  search: t.connection({
    type: SearchSpaceResultRef,
    description:
      'Full-text search of the content of the live spaces the caller can read: spaces ordered by their best match, ' +
      'each with its best pages and sections. The query reads like a web search: words (all must appear), "quoted phrases", ' +
      '`or`, and `-word` to exclude; at most 512 characters. A search ranks at most 1,000 sections named after the query and 1,000 others: ' +
      'shared between the spaces in an organization of at most 100 live spaces (and for a guest), where `totalCount` is exact; ' +
      'taken from the whole organization (the most recently indexed first) in a larger one, where a space is listed, and counted, when it holds one of them.',
    args: { query: t.arg.string({ description: 'The query: words, "quoted phrases", `or` and `-word` (at most 512 characters).', required: true }) },
    resolve: async (org, args, ctx) => {
      await ctx.access.requireOrganization(org.id);
      const reader = await ctx.access.reader(org.id);
      const page = await searchOrganization(ctx.db, reader, org.id, args.query, args);
      return pageConnection(page, page.totalCount);
    },
  }),
}));
