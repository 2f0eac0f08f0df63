/**
 * How visitors authenticate on a `visitor-auth` site (the public document's `site-publishing-auth`):
 * the key that signs their JWTs (HS256), the fallback URL a visitor without a valid token is sent
 * to, and the upstream sign-out URL (a header link for signed-in visitors). Only the `custom` backend exists here (no integrations).
 * Rotating the key makes every token signed with the old one fail at once: the published server
 * verifies each request against the site's current key (published/visitor.ts), cookies included.
 * Reading, changing and rotating need `manage` on the site (capabilities.ts SITE_RULES: its admins).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Site } from '../../../../generated/prisma/client.js';
import type { Db } from '../../../../db/client.js';
import type { Access } from '../../../access/access.js';
import { badRequest } from '../../../../lib/errors.js';
import { httpUrlSchema, lazySchema, parseInput } from '../../../../lib/validation.js';
import { recordSiteEvent } from '../events.js';
import { siteWrite } from '../write.js';

/** A new visitor-auth key: 256 random bits. */
export const newVisitorAuthKey = () => randomBytes(32).toString('base64url');

export type PublishingAuth = { backend: 'custom'; privateKey: string; fallbackURL: string | null; logoutURL: string | null };

export const publishingAuthOf = (site: Site): PublishingAuth => ({
  backend: 'custom',
  privateKey: site.visitorAuthKey,
  fallbackURL: site.visitorAuthFallbackUrl,
  logoutURL: site.visitorAuthLogoutUrl,
});

export async function readPublishingAuth(access: Access, siteId: string): Promise<PublishingAuth> {
  return publishingAuthOf(await access.requireSite(siteId, 'manage'));
}

const updateSchema = lazySchema(() => z
  .object({
    backend: z.enum(['custom', 'integration']),
    fallbackURL: httpUrlSchema.nullish(),
    logoutURL: httpUrlSchema.nullish(),
  })
  .strict());

/** `fallbackURL`, `logoutURL`: null unsets, omitted keeps. `backend: "integration"` is a 400 (no integrations here). */
export function updatePublishingAuth(db: Db, access: Access, siteId: string, raw: unknown): Promise<PublishingAuth> {
  const input = parseInput(updateSchema, raw);
  if (input.backend === 'integration') throw badRequest('Invalid value for "backend": this server has no integrations; only "custom" is supported', 'backend');
  return siteWrite(
    db,
    access,
    siteId,
    async (tx, site) => {
      const updated = await tx.site.update({
        where: { id: site.id },
        data: {
          ...(input.fallbackURL !== undefined ? { visitorAuthFallbackUrl: input.fallbackURL } : {}),
          ...(input.logoutURL !== undefined ? { visitorAuthLogoutUrl: input.logoutURL } : {}),
        },
      });
      const fields = (['fallbackURL', 'logoutURL'] as const).filter((f) => input[f] !== undefined);
      await recordSiteEvent(tx, access, site, 'sitePublishingAuthUpdated', site.id, { fields, rotated: false });
      return publishingAuthOf(updated);
    },
    'manage',
  );
}

/** A new key: tokens signed with the old one are refused from the next request on. */
export function regeneratePublishingAuth(db: Db, access: Access, siteId: string): Promise<PublishingAuth> {
  return siteWrite(
    db,
    access,
    siteId,
    async (tx, site) => {
      const updated = await tx.site.update({ where: { id: site.id }, data: { visitorAuthKey: newVisitorAuthKey() } });
      await recordSiteEvent(tx, access, site, 'sitePublishingAuthUpdated', site.id, { fields: ['privateKey'], rotated: true });
      return publishingAuthOf(updated);
    },
    'manage',
  );
}
