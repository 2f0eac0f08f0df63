/** Moving a space within its organization's tree, and transferring it to another organization. */
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { spaceEvent, transferEvents } from '../events.js';
import { parentOf, requireCreatableParent } from '../content-tree/parent.js';
import { placeItem } from '../content-tree/position.js';
import { positionSchema, type Position } from '../../kernel/position.js';
import { badRequest, conflict } from '../../../lib/errors.js';
import type { Access } from '../../access/access.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { visibilityUnder } from './visibility.js';

const moveInput = lazySchema(() => z.object({ parent: z.string().nullish(), position: positionSchema.nullish() }));
export type MoveInput = { parent?: string | null; position?: Position | null };

export async function moveSpace(db: Db, access: Access, id: string, raw: MoveInput): Promise<string> {
  const data = parseInput(moveInput, raw);
  if (data.parent === undefined && !data.position) throw badRequest('Give "parent", "position" or both', 'parent');
  const check = async (a: Access) => {
    const { space } = await a.requireSpace(id, 'relocate');
    const parentId = data.parent === undefined ? space.parentId : await requireCreatableParent(a, space.organizationId, data.parent);
    return { space, parentId };
  };
  const parents = ({ space: s, parentId }: Awaited<ReturnType<typeof check>>) => [parentOf(s), { organizationId: s.organizationId, collectionId: parentId }];
  await guardedWrite(db, { access, organizations: ({ space: s }) => [s.organizationId], mode: 'change', check, parents }, async (tx, { space: s, parentId }) => {
    await tx.space.update({ where: { id }, data: { parentId, visibility: visibilityUnder(parentId, s.visibility) } });
    await placeItem(tx, s.organizationId, parentId, { kind: 'space', id }, data.position ?? undefined);
    await recordEvents(tx, spaceEvent('spaceMoved', s, access));
  });
  return id;
}

const transferInput = lazySchema(() => z.object({ organization: z.string().min(1), parent: z.string().nullish() }));
export type TransferInput = z.input<typeof transferInput>;

/**
 * Moves a space to another organization (and optionally into one of its collections).
 * Grants made in the old organization do not follow the space.
 */
export async function transferSpace(db: Db, access: Access, id: string, raw: TransferInput): Promise<string> {
  const data = parseInput(transferInput, raw);
  const check = async (a: Access) => {
    const { space } = await a.requireSpace(id, 'relocate');
    const parentId = await requireCreatableParent(a, data.organization, data.parent ?? null);
    if (data.organization === space.organizationId && parentId === space.parentId) throw conflict('The space is already there');
    return { space, parentId };
  };
  const parents = ({ space: s, parentId }: Awaited<ReturnType<typeof check>>) => [parentOf(s), { organizationId: data.organization, collectionId: parentId }];
  const organizations = ({ space: s }: Awaited<ReturnType<typeof check>>) => [s.organizationId, data.organization];
  await guardedWrite(db, { access, organizations, mode: 'change', check, parents }, async (tx, { space: s, parentId }) => {
    if (data.organization !== s.organizationId) {
      // Grants and invite links belong to the organization the space leaves.
      await tx.contentPermission.deleteMany({ where: { spaceId: id } });
      await tx.linkInvite.deleteMany({ where: { spaceId: id } });
    }
    await tx.space.update({ where: { id }, data: { organizationId: data.organization, parentId, visibility: visibilityUnder(parentId, s.visibility) } });
    await placeItem(tx, data.organization, parentId, { kind: 'space', id });
    await recordEvents(tx, transferEvents('spaceTransferred', { id, organizationId: data.organization }, s.organizationId, access));
  });
  return id;
}
