/**
 * Share links (4.4): secret keys that open a `share-link` site to whoever holds one, while it is
 * active. The key is random (192 bits) and only site managers and viewers see it (in the link's
 * published URL).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { Prisma, type SiteShareLink } from '../../../../generated/prisma/client.js';
import type { Db } from '../../../../db/client.js';
import type { Access } from '../../../access/access.js';
import { notFound } from '../../../../lib/errors.js';
import { newId } from '../../../kernel/ids.js';
import { byTimeThenId, readPage, type PageArgs } from '../../../kernel/pagination/keyset.js';
import { counted, type CountedPage } from '../../../kernel/pagination/counted.js';
import { lazySchema, parseInput } from '../../../../lib/validation.js';
import { namedFields, recordSiteEvent } from '../events.js';
import { siteWrite } from '../write.js';

const { sql } = Prisma;

export async function shareLinksPage(db: Db, access: Access, siteId: string, args: PageArgs): Promise<CountedPage<SiteShareLink>> {
  await access.requireSite(siteId, 'view');
  const key = byTimeThenId<SiteShareLink>(`share-links:${siteId}`, 'l."createdAt"', 'l."id"', (l) => [l.createdAt, l.id]);
  const page = await readPage<SiteShareLink>(db, sql`SELECT l.* FROM "SiteShareLink" l`, [sql`l."siteId" = ${siteId}`], key, args);
  return counted(page, () => db.siteShareLink.count({ where: { siteId } }));
}

const nameSchema = lazySchema(() => z.string().trim().min(1).max(50));

export function createShareLink(db: Db, access: Access, siteId: string, raw: unknown): Promise<SiteShareLink> {
  const { name } = parseInput(z.object({ name: nameSchema }).strict(), raw);
  return siteWrite(db, access, siteId, async (tx, site) => {
    const link = await tx.siteShareLink.create({ data: { id: newId('SiteShareLink'), siteId, name, key: randomBytes(24).toString('base64url') } });
    await recordSiteEvent(tx, access, site, 'shareLinkCreated', link.id);
    return link;
  });
}

export function updateShareLink(db: Db, access: Access, siteId: string, id: string, raw: unknown): Promise<SiteShareLink> {
  const input = parseInput(z.object({ name: nameSchema.optional(), active: z.boolean().optional() }).strict(), raw);
  return siteWrite(db, access, siteId, async (tx, site) => {
    if (!(await tx.siteShareLink.findFirst({ where: { id, siteId } }))) throw notFound('Share link');
    const link = await tx.siteShareLink.update({ where: { id }, data: input });
    await recordSiteEvent(tx, access, site, 'shareLinkUpdated', id, { fields: namedFields(input) });
    return link;
  });
}

export function deleteShareLink(db: Db, access: Access, siteId: string, id: string): Promise<void> {
  return siteWrite(db, access, siteId, async (tx, site) => {
    const { count } = await tx.siteShareLink.deleteMany({ where: { id, siteId } });
    if (!count) throw notFound('Share link');
    await recordSiteEvent(tx, access, site, 'shareLinkDeleted', id);
  });
}
