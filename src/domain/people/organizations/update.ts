import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { conflict } from '../../../lib/errors.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { organizationUpdated } from '../events.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { roleSchema } from '../../access/roles.js';
import { organizationMergeRulesSchema, requireRuleUsers } from '../../versions/change-requests/merge-rules.js';

export const organizationTitle = lazySchema(() => z.string().trim().min(2).max(255));

export const emailDomainsSchema = lazySchema(() => z.array(z.string().trim().toLowerCase().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'must be a domain name')).max(100));

const input = lazySchema(() => z.object({
  title: organizationTitle.optional(),
  emailDomains: emailDomainsSchema.optional(),
  hostname: z.string().regex(/^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/, 'must be 3-32 lowercase letters, digits or hyphens').nullish(),
  defaultRole: roleSchema.nullish(),
  defaultContent: z.object({ type: z.literal('site'), site: z.string().min(1) }).nullish(),
  // Shown in browsers as an image: only http(s), never javascript:, data: or file: URLs.
  logo: z.string().url().max(2048).refine((url) => /^https?:\/\//i.test(url), 'must be an http(s) URL').nullish(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
  mergeRules: organizationMergeRulesSchema.optional(),
}));

export type UpdateOrganizationInput = z.input<typeof input>;

export async function updateOrganization(db: Db, access: Access, id: string, raw: UpdateOrganizationInput): Promise<string> {
  const data = parseInput(input, raw);
  const check = (a: Access) => a.requireOrganization(id, 'update');
  try {
    // Merge rules are checked by merges, which hold the access lock shared: changing them waits for those in flight.
    const mode = data.mergeRules !== undefined ? 'change' : 'use';
    await guardedWrite(db, { access, organizations: [id], mode, check }, async (tx) => {
      if (data.mergeRules) await requireRuleUsers(tx, id, data.mergeRules);
      await recordEvents(tx, organizationUpdated(id, access));
      return tx.organization.update({
        where: { id },
        data: {
          title: data.title,
          emailDomains: data.emailDomains,
          hostname: data.hostname,
          defaultRole: data.defaultRole,
          defaultContentSite: data.defaultContent === undefined ? undefined : (data.defaultContent?.site ?? null),
          logoURL: data.logo,
          sso: data.sso,
          ai: data.ai,
          inviteLinks: data.inviteLinks,
          mergeRules: data.mergeRules,
        },
      });
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw conflict('This hostname is already taken');
    throw error;
  }
  return id;
}
