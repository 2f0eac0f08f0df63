/** Structure writes of a site lock its row first: the rules kept in code (defaults, unique paths) hold under races. */
import type { Prisma, Site } from '../../../generated/prisma/client.js';
import { notFound } from '../../../lib/errors.js';

export async function lockSite(tx: Prisma.TransactionClient, siteId: string): Promise<Site> {
  const [site] = await tx.$queryRaw<Site[]>`SELECT * FROM "Site" WHERE "id" = ${siteId} FOR UPDATE`;
  if (!site) throw notFound('Site');
  return site;
}
