/**
 * Section groups: named groups of a site's sections (the tabs shown under one heading). One
 * level: a group holds sections, not other groups (nesting is refused with a 400).
 */
import { z } from 'zod';
import type { Prisma, Site, SiteSectionGroup } from '../../../../generated/prisma/client.js';
import type { Db } from '../../../../db/client.js';
import type { Access } from '../../../access/access.js';
import { badRequest, notFound } from '../../../../lib/errors.js';
import { newId } from '../../../kernel/ids.js';
import { lazySchema, parseInput } from '../../../../lib/validation.js';
import { bySiblingOrder, positionAmong } from '../order.js';
import { moveSchema, type Position } from '../../../kernel/position.js';
import { namedFields, recordSiteEvent } from '../events.js';
import { siteStructureWrite } from '../write.js';

type Tx = Prisma.TransactionClient;

export const groupsOfSite = async (db: Tx | Db, siteId: string) => (await db.siteSectionGroup.findMany({ where: { siteId } })).sort(bySiblingOrder);

async function requireGroup(tx: Tx, site: Site, id: string): Promise<SiteSectionGroup> {
  const group = await tx.siteSectionGroup.findFirst({ where: { id, siteId: site.id } });
  if (!group) throw notFound('Site section group');
  return group;
}

/** Puts the sections named in `field` into the group (they must be the site's). */
async function assignSections(tx: Tx, site: Site, groupId: string, sectionIds: readonly string[], field: string): Promise<void> {
  const found = await tx.siteSection.findMany({ where: { id: { in: [...sectionIds] }, siteId: site.id }, select: { id: true } });
  const missing = sectionIds.find((id) => !found.some((s) => s.id === id));
  if (missing) throw badRequest(`Invalid value for "${field}": no section ${missing} in this site`, field);
  await tx.siteSection.updateMany({ where: { id: { in: [...sectionIds] } }, data: { sectionGroupId: groupId } });
}

const icon = lazySchema(() => z.string().trim().max(50).nullish());
const noNesting = (value: unknown, field: string) => {
  if (value !== undefined && value !== null) throw badRequest(`Invalid value for "${field}": section groups do not nest on this server`, field);
};

const createSchema = lazySchema(() => z.object({ title: z.string().trim().min(1).max(100), icon, sections: z.array(z.string().max(100)).max(200).optional(), parent: z.unknown().optional(), draft: z.literal(false).optional() }).strict());

export function createSectionGroup(db: Db, access: Access, siteId: string, raw: unknown): Promise<SiteSectionGroup> {
  const input = parseInput(createSchema, raw);
  noNesting(input.parent, 'parent');
  return siteStructureWrite(db, access, siteId, async (tx, site) => {
    const group = await tx.siteSectionGroup.create({ data: { id: newId('SiteSectionGroup'), siteId, title: input.title, icon: input.icon || null, position: positionAmong(await groupsOfSite(tx, siteId), null) } });
    if (input.sections?.length) await assignSections(tx, site, group.id, input.sections, 'sections');
    await recordSiteEvent(tx, access, site, 'siteSectionGroupCreated', group.id);
    return group;
  });
}

const updateSchema = lazySchema(() => z.object({ title: z.string().trim().min(1).max(100).optional(), icon, parentSectionGroupId: z.unknown().optional(), draft: z.literal(false).optional() }).strict());

export function updateSectionGroup(db: Db, access: Access, siteId: string, id: string, raw: unknown): Promise<SiteSectionGroup> {
  const input = parseInput(updateSchema, raw);
  noNesting(input.parentSectionGroupId, 'parentSectionGroupId');
  return siteStructureWrite(db, access, siteId, async (tx, site) => {
    await requireGroup(tx, site, id);
    const updated = await tx.siteSectionGroup.update({ where: { id }, data: { ...(input.title !== undefined ? { title: input.title } : {}), ...(input.icon !== undefined ? { icon: input.icon || null } : {}) } });
    await recordSiteEvent(tx, access, site, 'siteSectionGroupUpdated', id, { fields: namedFields({ title: input.title, icon: input.icon }) });
    return updated;
  });
}

/** Deletes the group; its sections stay, ungrouped. */
export function deleteSectionGroup(db: Db, access: Access, siteId: string, id: string): Promise<void> {
  return siteStructureWrite(db, access, siteId, async (tx, site) => {
    await requireGroup(tx, site, id);
    await tx.siteSectionGroup.delete({ where: { id } });
    await recordSiteEvent(tx, access, site, 'siteSectionGroupDeleted', id);
  });
}

export function moveSectionGroup(db: Db, access: Access, siteId: string, id: string, raw: unknown): Promise<SiteSectionGroup> {
  const { position } = parseInput(moveSchema, raw);
  return siteStructureWrite(db, access, siteId, (tx, site) => placeSectionGroup(tx, access, site, id, position));
}

/** Puts group `id` at `position` among the site's section groups (under the site's lock). */
export async function placeSectionGroup(tx: Tx, access: Access, site: Site, id: string, position?: Position | null): Promise<SiteSectionGroup> {
  await requireGroup(tx, site, id);
  const moved = await tx.siteSectionGroup.update({ where: { id }, data: { position: positionAmong(await groupsOfSite(tx, site.id), id, position) } });
  await recordSiteEvent(tx, access, site, 'siteSectionGroupUpdated', id, { fields: ['position'] });
  return moved;
}
