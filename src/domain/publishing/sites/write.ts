/**
 * A write to a site: the caller must manage the organization's sites (checked again inside the
 * transaction, under the organization's access lock), and the site's row is locked first.
 */
import type { Prisma, Site } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { lockSite } from './lock.js';

export function siteWrite<T>(db: Db, access: Access, siteId: string, work: (tx: Prisma.TransactionClient, site: Site) => Promise<T>): Promise<T> {
  return guardedWrite<Site, T>(db, { access, organizations: (site) => [site.organizationId], mode: 'use', check: (a) => a.requireSite(siteId, 'manage') }, async (tx) => work(tx, await lockSite(tx, siteId)));
}
