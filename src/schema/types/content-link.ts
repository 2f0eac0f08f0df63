/** Content links of a space's current revision, with their status and the space's link statistics. */
import { spaceLinks } from '../../domain/versions/content-links/space-links.js';
import { linkStats } from '../../domain/versions/content-links/stats.js';
import { builder } from '../builder.js';
import { arrayConnection } from '../connection.js';

export const ContentLinkStatusEnum = builder.enumType('ContentLinkStatus', {
  description: 'Whether a link of the content reaches its target.',
  values: {
    ok: { value: 'ok', description: 'No problem.' },
    broken: { value: 'broken', description: 'The target does not exist in the revision.' },
    in_app: { value: 'in-app', description: 'A URL pointing to an internal location in the app. REST: in-app' },
  } as const,
});

const ContentLinkLocation = builder.simpleObject('ContentLinkLocation', {
  description: 'Where the link is: a page of the revision.',
  fields: (t) => ({ page: t.id({ description: 'ID of the page.' }), path: t.string({ description: 'Complete path of the page in the revision.' }) }),
});

const ContentLinkRef = builder.simpleObject('ContentLink', {
  description: 'A link found in a space\'s content, and whether its target can be reached.',
  fields: (t) => ({
    status: t.field({ description: 'Whether it reaches its target: ok, broken, or pointing into the app.', type: ContentLinkStatusEnum }),
    target: t.field({ type: 'JSON', description: 'The content reference (ContentRef: `{kind, …}`) as written in the page.' }),
    location: t.field({ description: 'The page it is on.', type: ContentLinkLocation }),
  }),
});

const ContentLinkBrokenStats = builder.simpleObject('ContentLinkBrokenStats', {
  description: 'How many of a space\'s links are broken: in its current revision and in its open change requests.',
  fields: (t) => ({
    total: t.int({ description: 'Broken links in the current revision.' }),
    changeRequest: t.int({ description: "Broken links in the revisions of the space's open change requests." }),
  }),
});

const ContentLinkStats = builder.simpleObject('ContentLinkStats', {
  description: 'How many links a space\'s content holds, broken ones counted apart.',
  fields: (t) => ({
    total: t.int({ description: 'Links in the current revision, whatever the filter.' }),
    broken: t.field({ description: 'The broken ones among them.', type: ContentLinkBrokenStats }),
  }),
});

builder.prismaObjectFields('Space', (t) => ({
  links: t.connection(
    {
      type: ContentLinkRef,
      description: 'Links in the pages of the current revision, in page tree order, optionally only those of one status.',
      args: { status: t.arg({ description: 'Only the links of this status; left out, all of them.', type: ContentLinkStatusEnum, required: false }) },
      resolve: async (parent, args, ctx) => {
        const { space, links } = await spaceLinks(ctx.access, ctx.loaders, ctx.config, parent.id, ctx.db);
        const listed = args.status ? links.filter((l) => l.status === args.status) : links;
        // Stats cover every link; keep them at hand for the connection's `stats` field.
        return Object.assign(arrayConnection(args, listed), { space, links });
      },
    },
    {
      fields: (c) => ({
        stats: c.field({
          description: 'How many links the whole list holds, broken ones counted apart.',
          type: ContentLinkStats,
          resolve: (connection, _args, ctx) => linkStats(ctx.loaders, ctx.config, connection.space, connection.links, ctx.db),
        }),
      }),
    },
  ),
}));
