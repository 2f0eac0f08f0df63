/**
 * `Subscription.organizationEvents`: what changes in an organization, as it happens (after each
 * committed write, from any instance when Redis is configured). A subscriber receives only events
 * about what they may see at the time of the event — content they can view, members and teams
 * when their role reads those — and stops receiving them when they leave the organization.
 */
import { filter, pipe } from 'graphql-yoga';
import { AppError } from '../../lib/errors.js';
import { kindOfId } from '../../domain/kernel/ids.js';
import { ORGANIZATION_EVENT_KINDS, type OrganizationEvent } from '../../events/bus.js';
import { builder } from '../builder.js';
import { forgetLoaded, type Context } from '../context.js';
import { CollectionRef } from './collection.js';
import { SpaceRef } from './space.js';

/** Whether the subscriber may learn of `event` now (access as of the event, not of subscribing). */
async function mayLearnOf(ctx: Context, event: OrganizationEvent): Promise<boolean> {
  forgetLoaded(ctx); // the subscription's context outlives many events: read access afresh
  try {
    await ctx.access.requireOrganization(event.organizationId, 'view');
    if (event.kind.startsWith('member')) await ctx.access.requireOrganization(event.organizationId, 'readMembers');
    else if (event.kind.startsWith('team')) await ctx.access.requireOrganization(event.organizationId, 'readTeams');
    else if (event.kind !== 'organizationUpdated' && !event.kind.endsWith('Transferred')) {
      if (kindOfId(event.subjectId) === 'Space') await ctx.access.requireSpace(event.subjectId, 'view', { allowDeleted: true });
      else if (!event.kind.endsWith('Deleted')) await ctx.access.requireCollection(event.subjectId, 'view');
    }
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}

/** The event's subject when it is the given kind of content and the subscriber can see it now. */
async function visibleContent<T>(ctx: Context, event: OrganizationEvent, kind: 'Space' | 'Collection', load: () => Promise<T>): Promise<T | null> {
  if (kindOfId(event.subjectId) !== kind) return null;
  try {
    return await load();
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

const OrganizationEventKindEnum = builder.enumType('OrganizationEventKind', { values: ORGANIZATION_EVENT_KINDS });

const OrganizationEventRef = builder.objectRef<OrganizationEvent>('OrganizationEvent').implement({
  description: 'A committed change in an organization. It names what changed; read the subject with a query (or through `space`/`collection`).',
  fields: (t) => ({
    kind: t.field({ type: OrganizationEventKindEnum, resolve: (event) => event.kind }),
    organizationId: t.exposeID('organizationId'),
    subjectId: t.exposeID('subjectId', { description: 'The space, collection, team, member (user ID) or organization that changed.' }),
    actorId: t.exposeID('actorId', { description: 'The user whose request made the change.' }),
    at: t.field({ type: 'DateTime', resolve: (event) => new Date(event.at) }),
    space: t.field({
      type: SpaceRef,
      nullable: true,
      description: 'The space that changed, as it is now (null for other subjects, and once it is out of reach).',
      resolve: (event, _args, ctx) => visibleContent(ctx, event, 'Space', async () => (await ctx.access.requireSpace(event.subjectId, 'view', { allowDeleted: true })).space),
    }),
    collection: t.field({
      type: CollectionRef,
      nullable: true,
      description: 'The collection that changed, as it is now (null for other subjects, and once it is out of reach).',
      resolve: (event, _args, ctx) => visibleContent(ctx, event, 'Collection', async () => (await ctx.access.requireCollection(event.subjectId)).collection),
    }),
  }),
});

builder.subscriptionField('organizationEvents', (t) =>
  t.field({
    type: OrganizationEventRef,
    description: "The organization's changes from now on, each after its write has committed. Members of the organization; events about what the subscriber cannot see are left out.",
    args: { organizationId: t.arg.id({ required: true }) },
    subscribe: async (_root, { organizationId }, ctx) => {
      const org = await ctx.access.requireOrganization(String(organizationId), 'view');
      return pipe(
        ctx.events.subscribe(org.id),
        filter((event: OrganizationEvent) => mayLearnOf(ctx, event)),
      );
    },
    resolve: (event) => event,
  }),
);
