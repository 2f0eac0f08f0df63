/**
 * Site sections (4.10): a site with sections shows them as tabs, each with its site spaces (its
 * variants). Rules kept here, under the site's lock: exactly one default section while there are
 * sections (the first one added; the next in order when it is deleted); paths unique in the site;
 * the first section turns a site's root site spaces into that section's (nothing is left
 * unreachable at a root the site no longer shows).
 */
import { z } from 'zod';
import type { Prisma, Site, SiteSection } from '../../../../generated/prisma/client.js';
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
import { insertSiteSpace } from './site-spaces.js';
import { siteStructureWrite } from '../write.js';

type Tx = Prisma.TransactionClient;

const sectionsOf = async (tx: Tx, siteId: string) => (await tx.siteSection.findMany({ where: { siteId } })).sort(bySiblingOrder);

async function requireSection(tx: Tx, site: Site, id: string): Promise<SiteSection> {
  const section = await tx.siteSection.findFirst({ where: { id, siteId: site.id } });
  if (!section) throw notFound('Site section');
  return section;
}

const addSchema = lazySchema(() => z.object({ spaceId: z.string().min(1).max(100), title: z.string().trim().min(2).max(64).optional() }).strict());

/** Adds a section holding `spaceId` (as its first site space); titled after the space unless `title` is given. */
export function addSection(db: Db, access: Access, siteId: string, raw: unknown): Promise<SiteSection> {
  const input = parseInput(addSchema, raw);
  return siteStructureWrite(db, access, siteId, async (tx, site) => {
    const { space } = await access.requireSpace(input.spaceId, 'view').catch(() => {
      throw badRequest(`Invalid value for "spaceId": no space ${input.spaceId} you can see`, 'spaceId');
    });
    const sections = await sectionsOf(tx, site.id);
    const title = input.title ?? (space.title.trim().length >= 2 ? space.title.trim().slice(0, 128) : 'Section');
    const section = await tx.siteSection.create({
      data: { id: newId('SiteSection'), siteId: site.id, title, path: freePath(title, new Set(sections.map((s) => s.path))), position: positionAmong(sections, null) },
    });
    if (!sections.length) {
      // The site's root site spaces become the first section's, their default its default.
      await tx.siteSpace.updateMany({ where: { siteId: site.id, sectionId: null }, data: { sectionId: section.id } });
      await tx.siteSection.update({ where: { id: section.id }, data: { defaultSiteSpaceId: site.defaultSiteSpaceId } });
      await tx.site.update({ where: { id: site.id }, data: { defaultSectionId: section.id, defaultSiteSpaceId: null } });
    }
    await recordSiteEvent(tx, access, site, 'siteSectionCreated', section.id);
    const already = await tx.siteSpace.findFirst({ where: { siteId: site.id, sectionId: section.id, spaceId: space.id } });
    if (!already) await insertSiteSpace(tx, access, site, space.id, section.id);
    return tx.siteSection.findUniqueOrThrow({ where: { id: section.id } });
  });
}

const optionalText = (max: number) => z.string().trim().max(max).nullish();
const updateSchema = lazySchema(() => z
  .object({
    title: z.string().trim().min(2).max(128).optional(),
    path: sitePathSchema.optional(),
    defaultSiteSpace: z.string().max(100).optional(),
    condition: z.unknown().optional(),
    icon: optionalText(50),
    description: optionalText(256),
  })
  .strict());

/** `condition`, `icon`, `description`: null removes, omitted keeps. */
export function updateSection(db: Db, access: Access, siteId: string, id: string, raw: unknown): Promise<SiteSection> {
  const input = parseInput(updateSchema, raw);
  const condition = input.condition === undefined || input.condition === null ? input.condition : validateCondition(input.condition, 'condition');
  return siteStructureWrite(db, access, siteId, async (tx, site) => {
    const section = await requireSection(tx, site, id);
    if (input.path !== undefined && input.path !== section.path && (await tx.siteSection.findFirst({ where: { siteId: site.id, path: input.path } }))) {
      throw badRequest(`Invalid value for "path": another section of the site has the path "${input.path}"`, 'path');
    }
    if (input.defaultSiteSpace !== undefined && !(await tx.siteSpace.findFirst({ where: { id: input.defaultSiteSpace, sectionId: section.id } }))) {
      throw badRequest(`Invalid value for "defaultSiteSpace": no site space ${input.defaultSiteSpace} in this section`, 'defaultSiteSpace');
    }
    const set = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : { [key]: value });
    const updated = await tx.siteSection.update({
      where: { id },
      data: {
        ...set('title', input.title),
        ...set('path', input.path),
        ...set('defaultSiteSpaceId', input.defaultSiteSpace),
        ...set('condition', condition as string | null | undefined),
        ...set('icon', input.icon === undefined ? undefined : input.icon || null),
        ...set('description', input.description === undefined ? undefined : input.description || null),
      },
    });
    await recordSiteEvent(tx, access, site, 'siteSectionUpdated', id, { fields: namedFields(input) });
    return updated;
  });
}

/** Deletes a section and its site spaces; the next section in order becomes the default when it was. */
export function deleteSection(db: Db, access: Access, siteId: string, id: string): Promise<void> {
  return siteStructureWrite(db, access, siteId, async (tx, site) => {
    const section = await requireSection(tx, site, id);
    await tx.siteSection.delete({ where: { id: section.id } });
    if (site.defaultSectionId === section.id) {
      const [next] = await sectionsOf(tx, site.id);
      await tx.site.update({ where: { id: site.id }, data: { defaultSectionId: next?.id ?? null } });
    }
    await recordSiteEvent(tx, access, site, 'siteSectionDeleted', section.id);
  });
}

export function moveSection(db: Db, access: Access, siteId: string, id: string, raw: unknown): Promise<SiteSection> {
  const { position } = parseInput(moveSchema, raw);
  return siteStructureWrite(db, access, siteId, (tx, site) => placeSection(tx, access, site, id, position));
}

/** Puts section `id` at `position` among the site's sections (under the site's lock). `siblings` narrows who may be named there. */
export async function placeSection(tx: Tx, access: Access, site: Site, id: string, position?: Position | null, siblings?: (self: SiteSection, sections: SiteSection[]) => SiteSection[]): Promise<SiteSection> {
  const self = await requireSection(tx, site, id);
  const sections = await sectionsOf(tx, site.id);
  const moved = await tx.siteSection.update({ where: { id }, data: { position: positionAmong(siblings ? siblings(self, sections) : sections, id, position) } });
  await recordSiteEvent(tx, access, site, 'siteSectionUpdated', id, { fields: ['position'] });
  return moved;
}
