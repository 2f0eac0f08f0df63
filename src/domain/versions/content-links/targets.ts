/**
 * What the links of some revisions point at outside those revisions, loaded with one batched
 * lookup per kind (spaces, pages and reusable contents of other spaces, collections, memberships)
 * whatever the number of links.
 */
import type { Collection, Space } from '../../../generated/prisma/client.js';
import { type Loaders } from '../../loaders/index.js';
import { memberKey, revisionPageKey } from '../../loaders/keys.js';
import { refField } from '../../../lib/documents/content-ref.js';
import { pageTarget, reusableContentTarget } from './page-target.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import { revisionScope } from '../revisions/load.js';
import { entitiesIn } from '../revisions/read.js';
import { isLive } from '../../content/spaces/lifecycle.js';
import type { LinkSource } from './revision-links.js';

export type LinkTargets = {
  /** Spaces that exist, whatever their organization or state (see `liveSpace`). */
  spaces: Map<string, Space>;
  collections: Map<string, Collection>;
  /** `memberKey`s of the memberships found. */
  members: Set<string>;
  /** `revisionPageKey`s of the pages found in other spaces' current revisions. */
  pages: Set<string>;
  /** `revisionPageKey`s (revision, reusable content) of the reusable contents found in other spaces' current revisions. */
  reusableContents?: Set<string>;
};

/** A space a link may point at: it exists, is not deleted, and is in the link's organization. */
export function liveSpace(targets: LinkTargets, organizationId: string, id: string): Space | undefined {
  const space = targets.spaces.get(id);
  return space && isLive(space) && space.organizationId === organizationId ? space : undefined;
}

const present = <T>(rows: (T | null)[]): T[] => rows.filter((r): r is T => r !== null);

/** With `db`, reusable contents of other spaces too: one statement per space they are in. */
export async function loadLinkTargets(loaders: Loaders, sources: LinkSource[], db?: Queryable): Promise<LinkTargets> {
  const spaceIds = new Set<string>();
  const collectionIds = new Set<string>();
  const memberKeys = new Set<string>();
  for (const source of sources) {
    for (const link of source.links) {
      const { target } = link;
      const id = (field: string) => refField(target, field);
      const other = pageTarget(link, source)?.space ?? reusableContentTarget(link, source)?.space;
      if (other) spaceIds.add(other);
      if (target.kind === 'space' && id('space')) spaceIds.add(id('space')!);
      if (target.kind === 'collection' && id('collection')) collectionIds.add(id('collection')!);
      if (target.kind === 'user' && id('user')) memberKeys.add(memberKey(source.space.organizationId, id('user')!));
    }
  }
  const [spaces, collections, members] = await Promise.all([
    Promise.all([...spaceIds].map((id) => loaders.space.load(id))),
    Promise.all([...collectionIds].map((id) => loaders.collection.load(id))),
    Promise.all([...memberKeys].map((key) => loaders.member.load(key))),
  ]);
  const targets: LinkTargets = {
    spaces: new Map(present(spaces).map((s) => [s.id, s])),
    collections: new Map(present(collections).map((c) => [c.id, c])),
    members: new Set(present(members).map((m) => memberKey(m.organizationId, m.userId))),
    pages: new Set(),
  };

  const pageKeys = new Set<string>();
  for (const source of sources) {
    for (const link of source.links) {
      const ref = pageTarget(link, source);
      const space = ref?.space && liveSpace(targets, source.space.organizationId, ref.space);
      if (space) pageKeys.add(revisionPageKey(space.revisionId, ref!.page));
    }
  }
  const [found, reusableContents] = await Promise.all([
    Promise.all([...pageKeys].map(async (key) => [key, await loaders.revisionPageExists.load(key)] as const)),
    db ? otherReusableContents(db, targets, sources) : undefined,
  ]);
  for (const [key, exists] of found) if (exists) targets.pages.add(key);
  if (reusableContents) targets.reusableContents = reusableContents;
  return targets;
}

/** The reusable contents links name in other live spaces of their organization, found in those spaces' current revisions. */
async function otherReusableContents(db: Queryable, targets: LinkTargets, sources: LinkSource[]): Promise<Set<string>> {
  const byRevision = new Map<string, Set<string>>();
  for (const source of sources) {
    for (const link of source.links) {
      const ref = reusableContentTarget(link, source);
      const space = ref?.space && liveSpace(targets, source.space.organizationId, ref.space);
      if (space) byRevision.set(space.revisionId, (byRevision.get(space.revisionId) ?? new Set()).add(ref!.reusableContent));
    }
  }
  const found = new Set<string>();
  await Promise.all(
    [...byRevision].map(async ([revisionId, ids]) => {
      for (const entry of await entitiesIn(db, await revisionScope(db, revisionId), 'reusable-content', [...ids])) found.add(revisionPageKey(revisionId, entry.entityId));
    }),
  );
  return found;
}
