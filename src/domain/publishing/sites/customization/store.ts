/**
 * Reading and writing customizations (4.9): the site's full record (PUT replaces it, validated
 * against the public document's schema), and a site space's override (PATCH: null unsets a
 * field, omitted keeps it; DELETE removes the override), answered merged over the site's.
 */
import { Prisma, type Site, type SiteSpace } from '../../../../generated/prisma/client.js';
import type { Db } from '../../../../db/client.js';
import type { Access } from '../../../access/access.js';
import { notFound } from '../../../../lib/errors.js';
import { applyOverridePatch, effectiveCustomization, validateCustomization, validateOverridePatch, type SiteCustomization } from './validate.js';
import { recordSiteEvent } from '../events.js';
import { siteWrite } from '../write.js';

export const siteCustomization = (site: Site) => site.customization as unknown as SiteCustomization;

export async function putSiteCustomization(db: Db, access: Access, siteId: string, raw: unknown): Promise<SiteCustomization> {
  const customization = validateCustomization(raw);
  const site = await siteWrite(db, access, siteId, async (tx, locked) => {
    const updated = await tx.site.update({ where: { id: siteId }, data: { customization: customization as object } });
    await recordSiteEvent(tx, access, locked, 'siteCustomizationUpdated', siteId, { target: 'site' });
    return updated;
  });
  return siteCustomization(site);
}

async function siteSpaceOf(db: Db, access: Access, siteId: string, siteSpaceId: string) {
  const site = await access.requireSite(siteId, 'view');
  const siteSpace = await db.siteSpace.findFirst({ where: { id: siteSpaceId, siteId } });
  if (!siteSpace) throw notFound('Site space');
  return { site, siteSpace };
}

/** What a site space shows: the site's customization with the site space's override laid over it. */
export async function siteSpaceCustomization(db: Db, site: Site, siteSpace: SiteSpace): Promise<SiteCustomization> {
  const space = await db.space.findUnique({ where: { id: siteSpace.spaceId }, select: { title: true } });
  return effectiveCustomization(siteCustomization(site), siteSpace.customization as never, space?.title);
}

export async function getSiteSpaceCustomization(db: Db, access: Access, siteId: string, siteSpaceId: string): Promise<SiteCustomization> {
  const { site, siteSpace } = await siteSpaceOf(db, access, siteId, siteSpaceId);
  return siteSpaceCustomization(db, site, siteSpace);
}

export async function patchSiteSpaceCustomization(db: Db, access: Access, siteId: string, siteSpaceId: string, raw: unknown): Promise<SiteCustomization> {
  const patch = validateOverridePatch(raw);
  const { site, siteSpace } = await siteWrite(db, access, siteId, async (tx, site) => {
    const current = await tx.siteSpace.findFirst({ where: { id: siteSpaceId, siteId } });
    if (!current) throw notFound('Site space');
    const override = applyOverridePatch(current.customization as never, patch);
    const siteSpace = await tx.siteSpace.update({ where: { id: siteSpaceId }, data: { customization: override as object } });
    await recordSiteEvent(tx, access, site, 'siteCustomizationUpdated', siteSpaceId, { target: 'siteSpace' });
    return { site, siteSpace };
  });
  return siteSpaceCustomization(db, site, siteSpace);
}

export function deleteSiteSpaceCustomization(db: Db, access: Access, siteId: string, siteSpaceId: string): Promise<void> {
  return siteWrite(db, access, siteId, async (tx, site) => {
    const { count } = await tx.siteSpace.updateMany({ where: { id: siteSpaceId, siteId }, data: { customization: Prisma.DbNull } });
    if (!count) throw notFound('Site space');
    await recordSiteEvent(tx, access, site, 'siteCustomizationUpdated', siteSpaceId, { target: 'siteSpace', removed: true });
  });
}
