/**
 * A signed-in user creates an organization (`POST /orgs`) and becomes its first admin. The
 * operator decides whether users may (QUIRE_ALLOW_ORGANIZATION_CREATION; `quire admin create-org`
 * always may). A credential one organization vouched for (a SAML sign-in's token, an invitation
 * link's: access/reach.ts) reaches that organization only, so it creates none.
 */
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { badRequest, forbidden } from '../../../lib/errors.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import type { Reach } from '../../access/reach.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';
import { memberEvent } from '../events.js';
import { emailDomainsSchema, organizationTitle } from './update.js';
import { transactionFrom, type RequestOrigin } from '../../kernel/request-origin.js';

const input = lazySchema(() => z.object({
  title: organizationTitle,
  emailDomains: emailDomainsSchema.optional(),
  // The public document's onboarding of a default site (`withDefaultSite`): not done here.
  onboardingPreferences: z.unknown().optional(),
}));

export type CreateOrganizationInput = z.input<typeof input> & { withDefaultSite?: boolean | null; openapiUrl?: string | null };

export const ORGANIZATION_CREATION_OFF = 'Creating organizations is turned off on this server (QUIRE_ALLOW_ORGANIZATION_CREATION); ask its operator';

export async function createOrganization(db: Db, caller: Reach & { userId: string; from?: RequestOrigin | null }, allowed: boolean, raw: CreateOrganizationInput): Promise<string> {
  if (!allowed) throw forbidden(ORGANIZATION_CREATION_OFF);
  if (caller.confinedTo) throw forbidden('This token reaches one organization only (it was issued by its sign-in or invitation): create organizations with a token of your own account');
  for (const field of ['withDefaultSite', 'openapiUrl', 'onboardingPreferences'] as const) {
    if (raw[field] != null && raw[field] !== false) throw badRequest(`"${field}" is not supported by this server yet: create the site once the organization exists`, field);
  }
  const data = parseInput(input, raw);
  const id = newId('Organization');
  await transactionFrom(db, caller.from, async (tx) => {
    await tx.organization.create({ data: { id, title: data.title, emailDomains: data.emailDomains ?? [] } });
    await tx.member.create({ data: { organizationId: id, userId: caller.userId, role: 'admin' } });
    await recordEvents(tx, [
      { kind: 'organizationCreated', organizationId: id, subjectId: id, actorId: caller.userId },
      memberEvent('memberUpdated', id, caller.userId, caller),
    ]);
  });
  return id;
}
