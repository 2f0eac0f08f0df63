/**
 * `Subscription.organizationEvents`: what changes in an organization, as it happens (each
 * committed write's events, from the outbox, from any instance when Redis is configured). A
 * subscriber receives only events about what they may see at the time of the event
 * (access/event-audience.ts) — content they can view, members and teams when their role reads
 * those — and stops receiving them when they leave the organization.
 */
import { filter, pipe } from 'graphql-yoga';
import { AppError } from '../../lib/errors.js';
import { mayLearnOf } from '../../domain/access/event-audience.js';
import { EVENT_KINDS } from '../../domain/kernel/event-kinds.js';
import { kindOfId } from '../../domain/kernel/ids.js';
import type { OrganizationEvent } from '../../events/bus.js';
import { currentSnapshot, fromNow } from '../../events/from-now.js';
import { builder } from '../builder.js';
import { forgetLoaded } from '../context.js';
import { CollectionRef } from './collection.js';
import { SpaceRef } from './space.js';

/** The event's subject when it is the given kind of content and the subscriber can see it now. */
async function visibleContent<T>(event: OrganizationEvent, kind: 'Space' | 'Collection', load: () => Promise<T>): Promise<T | null> {
  if (kindOfId(event.subjectId) !== kind) return null;
  try {
    return await load();
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

const OrganizationEventKindEnum = builder.enumType('OrganizationEventKind', {
  description: 'What an organization event says changed (one kind per kind of committed write).',
  values: Object.fromEntries(Object.entries(EVENT_KINDS).map(([kind, description]) => [kind, { value: kind, description }])) as {
    [K in keyof typeof EVENT_KINDS]: { value: K; description: string };
  },
});

const OrganizationEventRef = builder.objectRef<OrganizationEvent>('OrganizationEvent').implement({
  description: 'A committed change in an organization. It names what changed; read the subject with a query (or through `space`/`collection`).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Stable: delivery is at least once, and an event delivered again keeps its ID (drop the duplicate).' }),
    kind: t.field({ description: 'What changed: the kind of committed write.', type: OrganizationEventKindEnum, resolve: (event) => event.kind }),
    organizationId: t.exposeID('organizationId', { description: 'The ID of the organization it happened in.' }),
    subjectId: t.exposeID('subjectId', {
      description: 'What changed: the space, collection, change request, site (or its part), team, member (user ID), invite, provider, specification, translation, font or organization.',
    }),
    spaceId: t.exposeID('spaceId', { nullable: true, description: 'The space it happened in (events with one reach only those who can view that space).' }),
    siteId: t.exposeID('siteId', { nullable: true, description: 'The site it happened in (events with one reach only those who may read that site).' }),
    actorId: t.exposeID('actorId', { nullable: true, description: 'The user whose request (or job) made the change; null when the server made it itself (the CLI, a job of no one).' }),
    data: t.field({ type: 'JSON', nullable: true, description: 'Small facts beside the IDs, as each kind describes (never content).', resolve: (event) => event.data }),
    at: t.field({ type: 'DateTime', description: 'When the write recorded it (its transaction began).', resolve: (event) => new Date(event.at) }),
    space: t.field({
      type: SpaceRef,
      nullable: true,
      description: 'The space that changed, as it is now (null for other subjects, and once it is out of reach).',
      resolve: (event, _args, ctx) => visibleContent(event, 'Space', async () => (await ctx.access.requireSpace(event.subjectId, 'view', { allowDeleted: true })).space),
    }),
    collection: t.field({
      type: CollectionRef,
      nullable: true,
      description: 'The collection that changed, as it is now (null for other subjects, and once it is out of reach).',
      resolve: (event, _args, ctx) => visibleContent(event, 'Collection', async () => (await ctx.access.requireCollection(event.subjectId)).collection),
    }),
  }),
});

builder.subscriptionField('organizationEvents', (t) =>
  t.field({
    type: OrganizationEventRef,
    description: "The organization's changes from now on, each after its write has committed. Members of the organization; events about what the subscriber cannot see are left out.",
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }) },
    subscribe: async (_root, { organizationId }, ctx) => {
      const org = await ctx.access.requireOrganization(String(organizationId), 'view');
      return pipe(
        await fromNow(ctx.events.subscribe(org.id), () => currentSnapshot(ctx.db)),
        filter((event: OrganizationEvent) => {
          forgetLoaded(ctx); // the subscription's context outlives many events: read access afresh
          return mayLearnOf(ctx.db, ctx.access, event);
        }),
      );
    },
    resolve: (event) => event,
  }),
);
