/**
 * A write to a site: the caller's role on the site must allow `action` (capabilities.ts
 * SITE_RULES: `manage` by default, `structure` for the content structure),
 * checked again inside the transaction, under the organization's access lock; the site's row is
 * locked first.
 */
import type { Prisma, Site } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import type { SiteAction } from '../../access/capabilities.js';
import { guardedWrite, type Guard } from '../../access/guarded-write.js';
import { lockSite } from './lock.js';

export function siteWrite<T>(
  db: Db,
  access: Access,
  siteId: string,
  work: (tx: Prisma.TransactionClient, site: Site) => Promise<T>,
  action: SiteAction = 'manage',
  /** `change` for a write that changes who may do what (the default level): the access lock held exclusively. */
  mode: Guard<unknown>['mode'] = 'use',
): Promise<T> {
  return guardedWrite<Site, T>(db, { access, organizations: (site) => [site.organizationId], mode, check: (a) => a.requireSite(siteId, action) }, async (tx) => work(tx, await lockSite(tx, siteId)));
}

/** A write to a site's content structure (site spaces, sections, section groups, external links, their order): `structure` on the site. */
export const siteStructureWrite = <T>(db: Db, access: Access, siteId: string, work: (tx: Prisma.TransactionClient, site: Site) => Promise<T>): Promise<T> => siteWrite(db, access, siteId, work, 'structure');
