/**
 * SAML providers of an organization (4.13): CRUD (admins), the URLs the identity provider needs
 * (`service`), and what members see to sign in (`GET /orgs/{id}/sso`). Limits of section 8: label
 * 1-30, entityID 1024, certificate 10000 (a valid X.509 certificate), ssoURL 2048.
 */
import { z } from 'zod';
import { Prisma, type SamlProvider } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { organizationWrite } from '../../access/guarded-write.js';
import { badRequest, notFound } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';
import { byTimeThenId, readPage, type PageArgs } from '../../kernel/pagination/keyset.js';
import { counted, type CountedPage } from '../../kernel/pagination/counted.js';
import { httpUrlSchema, lazySchema, parseInput } from '../../../lib/validation.js';
import { roleSchema } from '../../access/roles.js';
import { normalizeCertificate } from '../../../lib/saml/certificate.js';

const { sql } = Prisma;

/** Where the identity provider reaches this server for a provider (its URLs are the transport's: http/paths.ts). */
export type SamlService = { acsURL: string; startURL: string; entityID: string };

const httpUrl = lazySchema(() => httpUrlSchema);
const fields = {
  label: z.string().trim().min(1).max(30),
  entityID: z.string().trim().min(1).max(1024),
  certificate: z.string().trim().min(1).max(10_000),
  ssoURL: httpUrl,
  defaultTeam: z.string().max(100),
  defaultRole: roleSchema.nullable(),
};
const createSchema = lazySchema(() => z.object({ ...fields, entityID: fields.entityID.optional(), certificate: fields.certificate.optional(), ssoURL: fields.ssoURL.optional(), defaultTeam: fields.defaultTeam.optional(), defaultRole: fields.defaultRole.optional() }).strict());
const updateSchema = lazySchema(() => createSchema.partial());

type Input = z.output<typeof updateSchema>;

/** The stored columns of a (validated) input: the certificate checked, the team of the organization. */
async function columns(tx: Prisma.TransactionClient, organizationId: string, input: Input) {
  if (input.certificate !== undefined) {
    try {
      input.certificate = normalizeCertificate(input.certificate);
    } catch {
      throw badRequest('Invalid value for "certificate": not an X.509 certificate (PEM or base64)', 'certificate');
    }
  }
  if (input.defaultTeam !== undefined && !(await tx.team.findFirst({ where: { id: input.defaultTeam, organizationId } }))) {
    throw badRequest(`Invalid value for "defaultTeam": no team ${input.defaultTeam} in this organization`, 'defaultTeam');
  }
  const set = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    ...set('label', input.label),
    ...set('entityId', input.entityID),
    ...set('certificate', input.certificate),
    ...set('ssoUrl', input.ssoURL),
    ...set('defaultTeamId', input.defaultTeam),
    ...set('defaultRole', input.defaultRole),
  };
}

export async function providersPage(db: Db, access: Access, organizationId: string, args: PageArgs): Promise<CountedPage<SamlProvider>> {
  await access.requireOrganization(organizationId, 'manageSso');
  const key = byTimeThenId<SamlProvider>(`saml:${organizationId}`, 'p."createdAt"', 'p."id"', (p) => [p.createdAt, p.id]);
  const page = await readPage<SamlProvider>(db, sql`SELECT p.* FROM "SamlProvider" p`, [sql`p."organizationId" = ${organizationId}`], key, args);
  return counted(page, () => db.samlProvider.count({ where: { organizationId } }));
}

export async function findProvider(db: Db, access: Access, organizationId: string, id: string): Promise<SamlProvider> {
  await access.requireOrganization(organizationId, 'manageSso');
  const provider = await db.samlProvider.findFirst({ where: { id, organizationId } });
  if (!provider) throw notFound('SAML provider');
  return provider;
}

/** The public document's `status`: `active` once members can sign in through it (ssoURL and certificate set), `pending` until then. */
export const providerStatus = (provider: Pick<SamlProvider, 'ssoUrl' | 'certificate'>): 'active' | 'pending' => (provider.ssoUrl && provider.certificate ? 'active' : 'pending');

/** What a member sees to sign in: every provider ready for logins (URL and certificate set); also before they did. */
export async function loginProviders(db: Db, access: Access, organizationId: string): Promise<SamlProvider[]> {
  await access.requireOrganization(organizationId, 'view', { beforeSignIn: true });
  return db.samlProvider.findMany({ where: { organizationId, ssoUrl: { not: null }, certificate: { not: null } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: 100 });
}

export function createProvider(db: Db, access: Access, organizationId: string, raw: unknown): Promise<SamlProvider> {
  const input = parseInput(createSchema, raw);
  return organizationWrite(db, access, organizationId, 'manageSso', async (tx) => {
    const provider = await tx.samlProvider.create({ data: { id: newId('SamlProvider'), organizationId, label: input.label, ...(await columns(tx, organizationId, input)) } });
    await recordEvents(tx, { kind: 'ssoProviderCreated', organizationId, subjectId: provider.id, actorId: access.userId });
    return provider;
  });
}

export function updateProvider(db: Db, access: Access, organizationId: string, id: string, raw: unknown): Promise<SamlProvider> {
  const input = parseInput(updateSchema, raw);
  return organizationWrite(db, access, organizationId, 'manageSso', async (tx) => {
    if (!(await tx.samlProvider.findFirst({ where: { id, organizationId } }))) throw notFound('SAML provider');
    const provider = await tx.samlProvider.update({ where: { id }, data: await columns(tx, organizationId, input) });
    await recordEvents(tx, { kind: 'ssoProviderUpdated', organizationId, subjectId: id, actorId: access.userId, data: { fields: Object.keys(input) } });
    return provider;
  });
}

export function deleteProvider(db: Db, access: Access, organizationId: string, id: string): Promise<void> {
  return organizationWrite(db, access, organizationId, 'manageSso', async (tx) => {
    const { count } = await tx.samlProvider.deleteMany({ where: { id, organizationId } });
    if (!count) throw notFound('SAML provider');
    await recordEvents(tx, { kind: 'ssoProviderDeleted', organizationId, subjectId: id, actorId: access.userId });
  });
}
