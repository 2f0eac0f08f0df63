/**
 * Previews of a site (the public document's `GET …/publishing/preview`): a signed link, valid an
 * hour, that opens the site on the published server whether it is published or not, and whatever
 * its visibility, as a visitor with the claims given (conditions read them). Only who may preview
 * the site (`preview` on the site, capabilities.ts SITE_RULES: its admins) is given one, and the
 * published server checks again, on every request, that the user it was made for still may.
 */
import { z } from 'zod';
import type { Site, SiteSection, SiteSpace } from '../../../../generated/prisma/client.js';
import type { Db } from '../../../../db/client.js';
import type { Access } from '../../../access/access.js';
import { badRequest } from '../../../../lib/errors.js';
import { decodeRison, RisonError } from '../../../../lib/rison.js';
import { lazySchema, parseInput } from '../../../../lib/validation.js';
import { signLink, stringClaim, verifyLink, type LinkSigner } from '../../../kernel/signed-links.js';

export const PREVIEW_TTL_SECONDS = 60 * 60;
const PURPOSE = 'site-preview';
/** Characters of the claims (Rison, and as JSON): a signed link stays under 2 KB (kernel/signed-links.ts). */
const MAX_CLAIMS = 1024;

export type PreviewClaims = { userId: string; siteId: string; claims: Record<string, unknown> };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The visitor claims of a preview: a Rison-encoded object (REST's `claims`), at most 1,024 characters. */
export function previewClaims(rison: string | undefined): Record<string, unknown> {
  if (rison === undefined || rison === '') return {};
  if (rison.length > MAX_CLAIMS) throw badRequest(`Invalid value for "claims": at most ${MAX_CLAIMS} characters`, 'claims');
  let value: unknown;
  try {
    value = decodeRison(rison);
  } catch (error) {
    if (error instanceof RisonError) throw badRequest(`Invalid value for "claims": not Rison (${error.message})`, 'claims');
    throw error;
  }
  if (!isObject(value)) throw badRequest('Invalid value for "claims": a Rison object, such as (plan:pro)', 'claims');
  return value;
}

const inputSchema = lazySchema(() => z.object({ siteSpace: z.string().min(1).max(100).optional(), claims: z.record(z.string(), z.unknown()).optional() }).strict());

/**
 * Checks the caller may preview the site and names where the preview opens: `siteSpace` (one of
 * the site's, or a 400), else the site's default. The claims must fit in a link (1,024 characters as JSON).
 */
export async function preparePreview(db: Db, access: Access, siteId: string, raw: unknown): Promise<{ site: Site; siteSpace: SiteSpace | null; section: SiteSection | null; claims: Record<string, unknown> }> {
  const input = parseInput(inputSchema, raw);
  const site = await access.requireSite(siteId, 'preview');
  const claims = input.claims ?? {};
  if (JSON.stringify(claims).length > MAX_CLAIMS) throw badRequest(`Invalid value for "claims": at most ${MAX_CLAIMS} characters as JSON`, 'claims');
  if (!input.siteSpace) return { site, siteSpace: null, section: null, claims };
  const siteSpace = await db.siteSpace.findFirst({ where: { id: input.siteSpace, siteId } });
  if (!siteSpace) throw badRequest(`Invalid value for "siteSpace": no site space ${input.siteSpace} in this site`, 'siteSpace');
  const section = siteSpace.sectionId ? await db.siteSection.findUnique({ where: { id: siteSpace.sectionId } }) : null;
  return { site, siteSpace, section, claims };
}

export function signPreviewToken(signer: LinkSigner, preview: PreviewClaims): Promise<string> {
  return signLink(PURPOSE, preview.userId, { site: preview.siteId, claims: preview.claims }, signer, { ttlSeconds: PREVIEW_TTL_SECONDS });
}

/** The preview a token opens, or null when it is forged, altered or expired. */
export async function verifyPreviewToken(signer: LinkSigner, token: string): Promise<PreviewClaims | null> {
  const link = await verifyLink(PURPOSE, token, signer);
  if (!link.ok) return null;
  const siteId = stringClaim(link.payload.site);
  return siteId ? { userId: link.subject, siteId, claims: isObject(link.payload.claims) ? link.payload.claims : {} } : null;
}
