/**
 * Site spaces (4.11): spaces published in a site, at its root (a site without sections) or in a
 * section. Rules kept here, under the site's lock: a space is added to the given section, else to
 * the default section, else to the root; the first site space of a parent becomes its default,
 * and when the default is removed the next one in order takes over; paths are unique among the
 * site spaces of a parent; moves go before or after a sibling, to the end by default.
 */
import { z } from 'zod';
import type { Prisma, Site, SiteSpace } from '../../../../generated/prisma/client.js';
import type { Db } from '../../../../db/client.js';
import type { Access } from '../../../access/access.js';
import { badRequest, notFound } from '../../../../lib/errors.js';
import { newId } from '../../../kernel/ids.js';
import { lazySchema, parseInput } from '../../../../lib/validation.js';
import { validateCondition } from '../visitors/condition.js';
import { bySiblingOrder, positionAmong } from '../order.js';
import { moveSchema, type Position } from '../../../kernel/position.js';
import { namedFields, recordSiteEvent } from '../events.js';
import { freePath, sitePathSchema } from './paths.js';
import { siteStructureWrite } from '../write.js';

type Tx = Prisma.TransactionClient;

/** The site spaces under the same parent as `sectionId` (null: the root), in order. */
export async function siblingSiteSpaces(tx: Tx, siteId: string, sectionId: string | null): Promise<SiteSpace[]> {
  return (await tx.siteSpace.findMany({ where: { siteId, sectionId } })).sort(bySiblingOrder);
}

/** Makes `id` the default site space of its parent (the section, or the site's root). */
export async function setDefaultSiteSpace(tx: Tx, site: Site, sectionId: string | null, id: string | null): Promise<void> {
  if (sectionId) await tx.siteSection.update({ where: { id: sectionId }, data: { defaultSiteSpaceId: id } });
  else await tx.site.update({ where: { id: site.id }, data: { defaultSiteSpaceId: id } });
}

/** Adds `spaceId` to the site (the caller must see the space; it must be the site's organization's). */
export async function insertSiteSpace(tx: Tx, access: Access, site: Site, spaceId: string, sectionId?: string | null, field = 'spaceId'): Promise<SiteSpace> {
  const { space } = await access.requireSpace(spaceId, 'view').catch(() => {
    throw badRequest(`Invalid value for "${field}": no space ${spaceId} you can see`, field);
  });
  if (space.organizationId !== site.organizationId) throw badRequest(`Invalid value for "${field}": the space belongs to another organization`, field);
  return attachSpace(tx, access, site, space, sectionId);
}

/** Adds a space of the site's organization to the site (in `sectionId`, or the default section or the root), checked by the caller. */
export async function attachSpace(tx: Tx, access: Access, site: Site, space: { id: string; title: string }, sectionId?: string | null): Promise<SiteSpace> {
  let parent: string | null = null;
  if (sectionId) {
    const section = await tx.siteSection.findFirst({ where: { id: sectionId, siteId: site.id } });
    if (!section) throw badRequest(`Invalid value for "sectionId": no section ${sectionId} in this site`, 'sectionId');
    parent = section.id;
  } else {
    parent = (await tx.site.findUniqueOrThrow({ where: { id: site.id }, select: { defaultSectionId: true } })).defaultSectionId;
  }
  const siblings = await siblingSiteSpaces(tx, site.id, parent);
  const created = await tx.siteSpace.create({
    data: {
      id: newId('SiteSpace'),
      siteId: site.id,
      sectionId: parent,
      spaceId: space.id,
      path: freePath(space.title, new Set(siblings.map((s) => s.path))),
      position: positionAmong(siblings, null),
    },
  });
  if (!siblings.length) await setDefaultSiteSpace(tx, site, parent, created.id);
  await recordSiteEvent(tx, access, site, 'siteSpaceAdded', created.id, { spaceId: space.id, sectionId: parent });
  return created;
}

async function requireSiteSpace(tx: Tx, site: Site, id: string): Promise<SiteSpace> {
  const siteSpace = await tx.siteSpace.findFirst({ where: { id, siteId: site.id } });
  if (!siteSpace) throw notFound('Site space');
  return siteSpace;
}

const addSchema = lazySchema(() => z.object({ spaceId: z.string().min(1).max(100), sectionId: z.string().max(100).nullish() }).strict());

export function addSiteSpace(db: Db, access: Access, siteId: string, raw: unknown): Promise<SiteSpace> {
  const input = parseInput(addSchema, raw);
  return siteStructureWrite(db, access, siteId, (tx, site) => insertSiteSpace(tx, access, site, input.spaceId, input.sectionId));
}

const updateSchema = lazySchema(() => z.object({ path: sitePathSchema.optional(), condition: z.unknown().optional() }).strict());

/** `condition`: null removes it, omitted keeps it. `path` must be free among the site space's siblings. */
export function updateSiteSpace(db: Db, access: Access, siteId: string, id: string, raw: unknown): Promise<SiteSpace> {
  const input = parseInput(updateSchema, raw);
  const condition = input.condition === undefined || input.condition === null ? input.condition : validateCondition(input.condition, 'condition');
  return siteStructureWrite(db, access, siteId, async (tx, site) => {
    const siteSpace = await requireSiteSpace(tx, site, id);
    if (input.path !== undefined && input.path !== siteSpace.path) {
      const siblings = await siblingSiteSpaces(tx, site.id, siteSpace.sectionId);
      if (siblings.some((s) => s.id !== id && s.path === input.path)) throw badRequest(`Invalid value for "path": another site space of the same section has the path "${input.path}"`, 'path');
    }
    const updated = await tx.siteSpace.update({
      where: { id },
      data: { ...(input.path !== undefined ? { path: input.path } : {}), ...(condition !== undefined ? { condition } : {}) },
    });
    await recordSiteEvent(tx, access, site, 'siteSpaceUpdated', id, { fields: namedFields(input) });
    return updated;
  });
}

/** Removes a site space; when it was its parent's default, the next one in order (or none) takes over. */
export async function removeSiteSpace(tx: Tx, site: Site, siteSpace: SiteSpace): Promise<void> {
  await tx.siteSpace.delete({ where: { id: siteSpace.id } });
  const parentDefault = siteSpace.sectionId
    ? (await tx.siteSection.findUnique({ where: { id: siteSpace.sectionId } }))?.defaultSiteSpaceId
    : (await tx.site.findUniqueOrThrow({ where: { id: site.id } })).defaultSiteSpaceId;
  if (parentDefault === siteSpace.id) {
    const [next] = await siblingSiteSpaces(tx, site.id, siteSpace.sectionId);
    await setDefaultSiteSpace(tx, site, siteSpace.sectionId, next?.id ?? null);
  }
}

export function deleteSiteSpace(db: Db, access: Access, siteId: string, id: string): Promise<void> {
  return siteStructureWrite(db, access, siteId, async (tx, site) => {
    const siteSpace = await requireSiteSpace(tx, site, id);
    await removeSiteSpace(tx, site, siteSpace);
    await recordSiteEvent(tx, access, site, 'siteSpaceRemoved', id, { spaceId: siteSpace.spaceId });
  });
}

export function moveSiteSpace(db: Db, access: Access, siteId: string, id: string, raw: unknown): Promise<SiteSpace> {
  const { position } = parseInput(moveSchema, raw);
  return siteStructureWrite(db, access, siteId, (tx, site) => placeSiteSpace(tx, access, site, id, position));
}

/** Puts site space `id` at `position` among the site spaces of its parent (under the site's lock). */
export async function placeSiteSpace(tx: Tx, access: Access, site: Site, id: string, position?: Position | null): Promise<SiteSpace> {
  const siteSpace = await requireSiteSpace(tx, site, id);
  const siblings = await siblingSiteSpaces(tx, site.id, siteSpace.sectionId);
  const moved = await tx.siteSpace.update({ where: { id }, data: { position: positionAmong(siblings, id, position) } });
  await recordSiteEvent(tx, access, site, 'siteSpaceUpdated', id, { fields: ['position'] });
  return moved;
}
