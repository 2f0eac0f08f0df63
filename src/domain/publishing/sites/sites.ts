/**
 * Sites themselves (the public document's `/orgs/{organizationId}/sites…`): create (optionally
 * with spaces), update, delete, publish and unpublish. Creating a site needs the organization's
 * admin role (`manageSites`); the rest goes by the caller's role on the site (capabilities.ts SITE_RULES).
 */
import { z } from 'zod';
import type { Site } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { organizationWrite } from '../../access/guarded-write.js';
import { ROLES } from '../../access/roles.js';
import { badRequest } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { DEFAULT_CUSTOMIZATION } from './customization/validate.js';
import { namedFields, recordSiteEvent } from './events.js';
import { freePath } from './structure/paths.js';
import { insertSiteSpace } from './structure/site-spaces.js';
import { newVisitorAuthKey } from './visitors/publishing-auth.js';
import { siteWrite } from './write.js';
import { claimData, reclaim } from '../hostnames/custom-hostnames.js';

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;

/** The API's visibility and the stored one (`share-link` ↔ `share_link`). */
export const storedVisibility = (v: (typeof SITE_VISIBILITIES)[number]) => v.replace('-', '_') as Site['visibility'];
export const apiVisibility = (v: Site['visibility']) => v.replace('_', '-') as (typeof SITE_VISIBILITIES)[number];

const titleSchema = lazySchema(() => z.string().trim().min(2).max(128));

const createSchema = lazySchema(() => z
  .object({
    title: titleSchema.optional(),
    visibility: z.enum(SITE_VISIBILITIES).optional(),
    type: z.enum(SITE_TYPES).optional(),
    spaces: z.array(z.string().min(1).max(100)).max(50).optional(),
  })
  .strict());

export async function createSite(db: Db, access: Access, organizationId: string, raw: unknown): Promise<Site> {
  const input = parseInput(createSchema, raw ?? {});
  return organizationWrite(db, access, organizationId, 'manageSites', async (tx) => {
    const title = input.title ?? 'Documentation';
    const taken = new Set((await tx.site.findMany({ where: { organizationId }, select: { basename: true } })).map((s) => s.basename));
    const site = await tx.site.create({
      data: {
        id: newId('Site'),
        organizationId,
        title,
        type: input.type ?? 'ultimate',
        visibility: storedVisibility(input.visibility ?? 'public'),
        basename: freePath(title, taken),
        customization: { ...DEFAULT_CUSTOMIZATION, title } as object,
        visitorAuthKey: newVisitorAuthKey(),
      },
    });
    await recordSiteEvent(tx, access, site, 'siteCreated', site.id);
    for (const [i, spaceId] of (input.spaces ?? []).entries()) await insertSiteSpace(tx, access, site, spaceId, null, `spaces.${i}`);
    return tx.site.findUniqueOrThrow({ where: { id: site.id } });
  });
}

/** A site's custom hostname: three labels or more (the public document's `SiteHostname`). */
export const SITE_HOSTNAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

const hostnameSchema = lazySchema(() => z.string().max(512).regex(SITE_HOSTNAME, 'a hostname such as docs.example.com'));

const updateSchema = lazySchema(() => z
  .object({
    title: titleSchema.optional(),
    visibility: z.enum(SITE_VISIBILITIES).optional(),
    basename: z.string().min(1).max(100).regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and "-"').optional(),
    hostname: hostnameSchema.nullish(),
    /** null: members reach the site only through its grants (organization admins always do). */
    defaultLevel: z.enum(['inherit', ...ROLES]).nullable().optional(),
    defaultSiteSpace: z.string().max(100).optional(),
    defaultSiteSection: z.string().max(100).optional(),
  })
  .strict());

/**
 * `defaultSiteSpace`: the root's default site space, or — when the site has sections — the default
 * section's; `defaultSiteSection`: a section of the site.
 */
export function updateSite(db: Db, access: Access, siteId: string, raw: unknown): Promise<Site> {
  const input = parseInput(updateSchema, raw);
  return siteWrite(db, access, siteId, async (tx, site) => {
    if (input.basename !== undefined && input.basename !== site.basename && (await tx.site.findFirst({ where: { organizationId: site.organizationId, basename: input.basename } }))) {
      throw badRequest(`Invalid value for "basename": another site of the organization has the basename "${input.basename}"`, 'basename');
    }
    // A new hostname is a new claim, served once proven (custom-hostnames.ts).
    const newHostname = input.hostname !== undefined && input.hostname !== site.hostname;
    if (newHostname) await reclaim(tx, site);
    let defaultSectionId = site.defaultSectionId;
    if (input.defaultSiteSection !== undefined) {
      if (!(await tx.siteSection.findFirst({ where: { id: input.defaultSiteSection, siteId } }))) throw badRequest(`Invalid value for "defaultSiteSection": no section ${input.defaultSiteSection} in this site`, 'defaultSiteSection');
      defaultSectionId = input.defaultSiteSection;
    }
    if (input.defaultSiteSpace !== undefined) {
      const siteSpace = await tx.siteSpace.findFirst({ where: { id: input.defaultSiteSpace, siteId, sectionId: defaultSectionId } });
      if (!siteSpace) throw badRequest(`Invalid value for "defaultSiteSpace": no site space ${input.defaultSiteSpace} ${defaultSectionId ? "in the site's default section" : "at the site's root"}`, 'defaultSiteSpace');
      if (defaultSectionId) await tx.siteSection.update({ where: { id: defaultSectionId }, data: { defaultSiteSpaceId: siteSpace.id } });
    }
    const updated = await tx.site.update({
      where: { id: siteId },
      data: {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.visibility !== undefined ? { visibility: storedVisibility(input.visibility) } : {}),
        ...(input.basename !== undefined ? { basename: input.basename } : {}),
        ...(newHostname ? claimData(input.hostname ?? null) : {}),
        ...(input.defaultLevel !== undefined ? { defaultLevel: input.defaultLevel } : {}),
        ...(input.defaultSiteSection !== undefined ? { defaultSectionId } : {}),
        ...(input.defaultSiteSpace !== undefined && !defaultSectionId ? { defaultSiteSpaceId: input.defaultSiteSpace } : {}),
      },
    });
    await recordSiteEvent(tx, access, site, 'siteUpdated', site.id, { fields: namedFields(input) });
    return updated;
  }, 'manage', input.defaultLevel === undefined ? 'use' : 'change');
}

export function deleteSite(db: Db, access: Access, siteId: string): Promise<void> {
  return siteWrite(db, access, siteId, async (tx, site) => {
    await tx.site.delete({ where: { id: siteId } });
    // Without `siteId`: the site is gone, so no one could be found to read it; its audience was
    // the organization's (members who see its sites), which the kind's family says anyway.
    await recordEvents(tx, { kind: 'siteDeleted', organizationId: site.organizationId, subjectId: site.id, actorId: access.userId });
  });
}

/** Publishing makes the site answer at its published URL (for its visibility's audience); unpublishing stops it. */
export function setPublished(db: Db, access: Access, siteId: string, published: boolean): Promise<Site> {
  return siteWrite(db, access, siteId, async (tx, site) => {
    const updated = await tx.site.update({ where: { id: siteId }, data: { published, publishedAt: published ? (site.published ? site.publishedAt : new Date()) : null } });
    await recordSiteEvent(tx, access, site, 'siteUpdated', site.id, { fields: ['published'], published });
    return updated;
  });
}
