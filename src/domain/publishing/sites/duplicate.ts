/**
 * Duplicating a site space (the public document's `POST …/site-spaces/{siteSpaceId}/duplicate`):
 * the space it publishes is copied (content/spaces/duplicate.ts, by a `space_duplicate` job), and
 * the copy is published in the same site, in the copy's own transaction — so a copy exists in the
 * site exactly when it exists at all. Where it goes: a site space alone in its section gets a new
 * section right after that one (same group, icon and description; titled after the copy);
 * otherwise the copy joins the same parent (section or root) right after the original. It keeps
 * the original's customization override; its path comes from the copy's title. Needs `structure`
 * on the site (capabilities.ts SITE_RULES) and the right to copy the space (see both checks).
 */
import { z } from 'zod';
import type { Prisma, SiteSpace } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { badRequest, notFound } from '../../../lib/errors.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { newId } from '../../kernel/ids.js';
import { startSpaceDuplicate } from '../../content/spaces/duplicate.js';
import type { JobRow } from '../../work/jobs/rows.js';
import { recordSiteEvent } from './events.js';
import { lockSite } from './lock.js';
import { bySiblingOrder, positionAmong } from './order.js';
import { freePath } from './structure/paths.js';
import { siblingSiteSpaces } from './structure/site-spaces.js';

type Tx = Prisma.TransactionClient;

/** Where a copy goes, carried in the copying job's input. */
export type SitePlacement = { siteId: string; siteSpaceId: string };

const bodySchema = lazySchema(() => z.object({ draft: z.boolean().optional() }).strict());

/** The site right a copy's placement needs (checked by the copy's guarded write too). */
export const placementCheck = (placement: SitePlacement) => (access: Access) => access.requireSite(placement.siteId, 'structure');

/** Checks what it can before the copy (the site, the site space, the space) and queues the copying job. */
export async function startSiteSpaceDuplicate(db: Db, access: Access, siteId: string, siteSpaceId: string, raw: unknown): Promise<JobRow> {
  await access.requireSite(siteId, 'structure');
  const input = parseInput(bodySchema, raw ?? {});
  if (input.draft) throw badRequest('Invalid value for "draft": this server publishes site spaces live only', 'draft');
  const siteSpace = await db.siteSpace.findFirst({ where: { id: siteSpaceId, siteId } });
  if (!siteSpace) throw notFound('Site space');
  const placement: SitePlacement = { siteId, siteSpaceId };
  return startSpaceDuplicate(db, access, siteSpace.spaceId, { site: placement });
}

/** The placement a copying job's input carries, if any. */
export function placementOf(input: unknown): SitePlacement | null {
  const site = (input as { site?: { siteId?: unknown; siteSpaceId?: unknown } } | null)?.site;
  return site && typeof site.siteId === 'string' && typeof site.siteSpaceId === 'string' ? { siteId: site.siteId, siteSpaceId: site.siteSpaceId } : null;
}

/** Publishes the copy `copy` of the original site space's space in the site (inside the copy's transaction, the site's row locked). */
export async function placeSpaceCopy(tx: Tx, access: Access, placement: SitePlacement, copy: { id: string; title: string }): Promise<SiteSpace> {
  const site = await lockSite(tx, placement.siteId);
  const original = await tx.siteSpace.findFirst({ where: { id: placement.siteSpaceId, siteId: site.id } });
  if (!original) throw notFound('Site space');
  const siblings = await siblingSiteSpaces(tx, site.id, original.sectionId);
  const customization = original.customization === null ? {} : { customization: original.customization as Prisma.InputJsonValue };
  let created: SiteSpace;
  if (original.sectionId && siblings.length === 1) {
    const section = await tx.siteSection.findUniqueOrThrow({ where: { id: original.sectionId } });
    const sections = (await tx.siteSection.findMany({ where: { siteId: site.id } })).sort(bySiblingOrder);
    const title = copy.title.trim().length >= 2 ? copy.title.trim().slice(0, 128) : 'Section';
    const newSection = await tx.siteSection.create({
      data: {
        id: newId('SiteSection'),
        siteId: site.id,
        sectionGroupId: section.sectionGroupId,
        title,
        icon: section.icon,
        description: section.description,
        path: freePath(title, new Set(sections.map((s) => s.path))),
        position: positionAmong(sections, null, { after: section.id }),
      },
    });
    await recordSiteEvent(tx, access, site, 'siteSectionCreated', newSection.id, { duplicateOf: section.id });
    created = await tx.siteSpace.create({ data: { id: newId('SiteSpace'), siteId: site.id, sectionId: newSection.id, spaceId: copy.id, path: freePath(copy.title, new Set()), position: positionAmong([], null), ...customization } });
    await tx.siteSection.update({ where: { id: newSection.id }, data: { defaultSiteSpaceId: created.id } });
  } else {
    created = await tx.siteSpace.create({
      data: {
        id: newId('SiteSpace'),
        siteId: site.id,
        sectionId: original.sectionId,
        spaceId: copy.id,
        path: freePath(copy.title, new Set(siblings.map((s) => s.path))),
        position: positionAmong(siblings, null, { after: original.id }),
        ...customization,
      },
    });
  }
  await recordSiteEvent(tx, access, site, 'siteSpaceAdded', created.id, { spaceId: copy.id, sectionId: created.sectionId, duplicateOf: original.id });
  return created;
}
