/**
 * Subdomains (`GET /subdomains/{subdomain}`): an organization's `hostname`, the public document's
 * `OrganizationHostname`. Like every organization, one the caller is not a member of does not exist
 * for them (404), whether or not another organization holds the subdomain.
 */
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { AppError, badRequest, notFound } from '../../../lib/errors.js';

/** The public document's `Subdomain.subdomain`. */
export const SUBDOMAIN = /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/;

export async function subdomainOwner(db: Db, access: Access, subdomain: string): Promise<{ subdomain: string; organizationId: string }> {
  if (!SUBDOMAIN.test(subdomain)) throw badRequest('Invalid value for "subdomain": 3 to 32 lower-case letters, digits and "-", not starting or ending with "-"', 'subdomain');
  const org = await db.organization.findUnique({ where: { hostname: subdomain }, select: { id: true } });
  if (!org) throw notFound('Subdomain');
  try {
    await access.requireOrganization(org.id, 'view');
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') throw notFound('Subdomain');
    throw error;
  }
  return { subdomain, organizationId: org.id };
}
