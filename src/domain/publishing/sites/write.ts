/**
 * A write to a site: the caller must manage the organization's sites — or do `action` with the
 * site (capabilities.ts SITE_ACTIONS) — checked again inside the transaction, under the
 * organization's access lock; the site's row is locked first.
 */
import type { Prisma, Site } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import type { SiteAction } from '../../access/capabilities.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { lockSite } from './lock.js';

export function siteWrite<T>(db: Db, access: Access, siteId: string, work: (tx: Prisma.TransactionClient, site: Site) => Promise<T>, action: SiteAction = 'manage'): Promise<T> {
  return guardedWrite<Site, T>(db, { access, organizations: (site) => [site.organizationId], mode: 'use', check: (a) => a.requireSite(siteId, action) }, async (tx) => work(tx, await lockSite(tx, siteId)));
}
