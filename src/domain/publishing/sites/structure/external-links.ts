/**
 * External links (the public document's `site-external-links`): links to outside URLs in a site's
 * navigation, beside its sections — at the root, or in a section group, never inside a section; so
 * only a site with sections has them (a 400 otherwise). A draft link, or one whose condition is
 * false for the visitor, is left out of the published navigation. Who may change the site's
 * structure writes them (`structure` on the site, capabilities.ts SITE_RULES), in the site's own
 * locked write, with `siteExternalLink…` events.
 */
import { z } from 'zod';
import type { Prisma, Site, SiteExternalLink } from '../../../../generated/prisma/client.js';
import type { Db } from '../../../../db/client.js';
import type { Access } from '../../../access/access.js';
import { badRequest, notFound } from '../../../../lib/errors.js';
import { lazySchema, parseInput } from '../../../../lib/validation.js';
import { newId } from '../../../kernel/ids.js';
import type { Position } from '../../../kernel/position.js';
import { validateCondition } from '../visitors/condition.js';
import { namedFields, recordSiteEvent } from '../events.js';
import { positionAmong } from '../order.js';
import { httpUrlSchema } from './redirects.js';
import { siteStructureWrite } from '../write.js';

type Tx = Prisma.TransactionClient;

/** Localized texts are not kept by this server: refused (400 naming them), never dropped. */
const unsupported = lazySchema(() => z.unknown().refine((v) => v === undefined || v === null, 'localized texts are not supported by this server yet').optional());
const fields = {
  title: z.string().trim().min(2).max(128),
  localizedTitle: unsupported,
  description: z.string().max(256).nullable().optional(),
  localizedDescription: unsupported,
  icon: z.string().trim().max(50).nullable().optional(),
  url: httpUrlSchema,
  draft: z.boolean().optional(),
  condition: z.unknown().optional(),
};
const createSchema = lazySchema(() => z.object({ ...fields, parent: z.string().max(100).optional() }).strict());
const updateSchema = lazySchema(() => z.object({ ...fields, title: fields.title.optional(), url: fields.url.optional(), parent: z.string().max(100).nullable().optional() }).strict());

/** The site's structure must be sections; `parent` (a group of the site) or the root. */
async function placement(tx: Tx, siteId: string, parent: string | null | undefined): Promise<string | null> {
  if (!(await tx.siteSection.findFirst({ where: { siteId }, select: { id: true } }))) {
    throw badRequest('External links need a site with sections: this site holds site spaces at its root', 'parent');
  }
  if (parent === null || parent === undefined) return null;
  if (!(await tx.siteSectionGroup.findFirst({ where: { id: parent, siteId }, select: { id: true } }))) throw badRequest(`Invalid value for "parent": no section group ${parent} in this site`, 'parent');
  return parent;
}

const condition = (value: unknown) => (value === undefined || value === null ? value : validateCondition(value, 'condition'));
const linksOf = (tx: Tx, siteId: string) => tx.siteExternalLink.findMany({ where: { siteId }, select: { id: true, position: true } });

export function createExternalLink(db: Db, access: Access, siteId: string, raw: unknown): Promise<SiteExternalLink> {
  const input = parseInput(createSchema, raw);
  const cond = condition(input.condition);
  return siteStructureWrite(db, access, siteId, async (tx, site) => {
    const sectionGroupId = await placement(tx, siteId, input.parent);
    const link = await tx.siteExternalLink.create({
      data: {
        id: newId('SiteExternalLink'),
        siteId,
        sectionGroupId,
        title: input.title,
        description: input.description ?? null,
        icon: input.icon || null,
        url: input.url,
        draft: input.draft ?? false,
        condition: cond ?? null,
        position: positionAmong(await linksOf(tx, siteId), null),
      },
    });
    await recordSiteEvent(tx, access, site, 'siteExternalLinkCreated', link.id);
    return link;
  });
}

export function updateExternalLink(db: Db, access: Access, siteId: string, linkId: string, raw: unknown): Promise<SiteExternalLink> {
  const input = parseInput(updateSchema, raw);
  const cond = condition(input.condition);
  return siteStructureWrite(db, access, siteId, async (tx, site) => {
    if (!(await tx.siteExternalLink.findFirst({ where: { id: linkId, siteId }, select: { id: true } }))) throw notFound('Site external link');
    const sectionGroupId = input.parent === undefined ? undefined : await placement(tx, siteId, input.parent);
    const set = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : { [key]: value });
    const link = await tx.siteExternalLink.update({
      where: { id: linkId },
      data: {
        ...set('title', input.title),
        ...set('description', input.description),
        ...set('icon', input.icon === undefined ? undefined : input.icon || null),
        ...set('url', input.url),
        ...set('draft', input.draft),
        ...set('condition', cond as string | null | undefined),
        ...set('sectionGroupId', sectionGroupId),
      },
    });
    const { localizedTitle: _t, localizedDescription: _d, ...named } = input;
    await recordSiteEvent(tx, access, site, 'siteExternalLinkUpdated', linkId, { fields: namedFields(named) });
    return link;
  });
}

/**
 * Places an external link among its siblings — the links of the same section group, or those at the
 * root — before or after one of them, or at the end (`PATCH …/structure/sort`).
 */
export async function placeExternalLink(tx: Tx, access: Access, site: Site, id: string, position?: Position | null): Promise<SiteExternalLink> {
  const self = await tx.siteExternalLink.findFirst({ where: { id, siteId: site.id }, select: { sectionGroupId: true } });
  if (!self) throw notFound('Site external link');
  const siblings = await tx.siteExternalLink.findMany({ where: { siteId: site.id, sectionGroupId: self.sectionGroupId }, select: { id: true, position: true } });
  const moved = await tx.siteExternalLink.update({ where: { id }, data: { position: positionAmong(siblings, id, position) } });
  await recordSiteEvent(tx, access, site, 'siteExternalLinkUpdated', id, { fields: ['position'] });
  return moved;
}

/** Deletes an external link: true when one was removed (REST 205), false when there was none (204). */
export function deleteExternalLink(db: Db, access: Access, siteId: string, linkId: string): Promise<boolean> {
  return siteStructureWrite(db, access, siteId, async (tx, site) => {
    const { count } = await tx.siteExternalLink.deleteMany({ where: { id: linkId, siteId } });
    if (count) await recordSiteEvent(tx, access, site, 'siteExternalLinkDeleted', linkId);
    return count > 0;
  });
}
