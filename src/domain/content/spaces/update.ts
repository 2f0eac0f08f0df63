import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { spaceEvent } from '../events.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { roleSchema } from '../../access/roles.js';
import { emoji, spaceTitle } from './create.js';
import { requireRuleUsers, spaceMergeRulesSchema } from '../../versions/change-requests/merge-rules.js';

const input = lazySchema(() => z.object({
  title: spaceTitle.optional(),
  emoji: emoji.optional(),
  editMode: z.enum(['live', 'locked']).optional(),
  defaultLevel: roleSchema.optional(),
  mergeRules: spaceMergeRulesSchema.optional(),
}));

export type UpdateSpaceInput = z.input<typeof input>;

/** Title and emoji are `rename`; the edit mode, default level and merge rules `configure` (capabilities.ts). */
export async function updateSpace(db: Db, access: Access, id: string, raw: UpdateSpaceInput): Promise<string> {
  const data = parseInput(input, raw);
  const configures = data.editMode !== undefined || data.defaultLevel !== undefined || data.mergeRules !== undefined;
  const check = (a: Access) => a.requireSpace(id, configures ? 'configure' : 'rename');
  // The edit mode and default level decide who may do what in the space (and merge rules who may merge).
  const mode = configures ? 'change' : 'use';
  await guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode, check }, async (tx, { space }) => {
    if (data.mergeRules) await requireRuleUsers(tx, space.organizationId, data.mergeRules);
    await tx.space.update({ where: { id }, data });
    await recordEvents(tx, spaceEvent('spaceUpdated', space, access));
  });
  return id;
}
