/**
 * Signing in through a SAML provider. The start URL redirects to the identity provider with an
 * AuthnRequest signed with this server's key (sp-keys.ts) (its ID kept to check the answer); the ACS validates the response
 * (service-provider.ts: signature with the provider's certificate, audience, destination,
 * InResponseTo, clock skew, replay), then provisions: the user by e-mail (created if new), their
 * membership (joined with the provider's default role, else the organization's; the SSO flag set)
 * and the provider's default team; and answers an API token (30 days) for the member.
 *
 * An organization's identity provider vouches for identities in that organization only
 * (access/reach.ts): the token it yields is confined to the organization, and it signs in an
 * account that exists already only when that account is the organization's member — or was never
 * claimed (only organizations ever vouched for it, see User.claimedAt), in which case it joins
 * here alone. A claimed account that is not a member joins by accepting an invitation while
 * signed in as itself; after that, the provider signs it in.
 */
import type { SamlProvider } from '../../../generated/prisma/client.js';
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/client.js';
import { forbidden, notFound } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';
import { transactionFrom, type RequestOrigin } from '../../kernel/request-origin.js';
import { memberEvent, teamEvent } from '../events.js';
import { issueNamedToken } from '../identity/tokens.js';
import { pgReplays, pgRequestIds } from './pg-stores.js';
import type { SamlService } from './providers.js';
import { serviceProviderKeys } from './sp-keys.js';

export const SSO_TOKEN_DAYS = 30;

export const CLAIMED_ACCOUNT =
  'An account with this e-mail address exists and is not a member of this organization: an identity provider signs in only its own members. Ask an admin to invite the address, accept the invitation while signed in as that account, then sign in here.';

async function readyProvider(db: Db, id: string): Promise<SamlProvider & { ssoUrl: string; certificate: string }> {
  const provider = id.length <= 64 ? await db.samlProvider.findUnique({ where: { id } }) : null;
  if (!provider) throw notFound('SAML provider');
  if (!provider.ssoUrl || !provider.certificate) throw notFound('SAML provider (not configured: it needs ssoURL and certificate)');
  return provider as SamlProvider & { ssoUrl: string; certificate: string };
}

/** Where this server answers for a provider (the transport's URLs, http/paths.ts) and the key pair its AuthnRequests are signed with, when configured (sp-keys.ts). */
export type SsoSettings = Pick<Config, 'samlPrivateKey' | 'samlCertificate'> & { serviceOf: (provider: Pick<SamlProvider, 'id'>) => SamlService };

async function spFor(db: Db, provider: SamlProvider & { ssoUrl: string; certificate: string }, settings: SsoSettings) {
  const service = settings.serviceOf(provider);
  const keys = await serviceProviderKeys(db, { privateKey: settings.samlPrivateKey, certificate: settings.samlCertificate });
  // The SAML libraries (node-saml, xml-crypto, xmldom: about 4 MiB of heap) load with the first SSO request.
  const { serviceProvider } = await import('../../../lib/saml/service-provider.js');
  return serviceProvider({
    entityId: service.entityID,
    acsUrl: service.acsURL,
    idp: { entityId: provider.entityId ?? '', ssoUrl: provider.ssoUrl, certificate: provider.certificate },
    privateKey: keys.privateKey,
    certificate: keys.certificate,
  });
}

/** The identity provider's URL to send the browser to, with a signed AuthnRequest. */
export async function startLogin(db: Db, providerId: string, settings: SsoSettings, relayState = 'quire'): Promise<string> {
  const provider = await readyProvider(db, providerId);
  return (await spFor(db, provider, settings)).loginUrl(relayState, pgRequestIds(db, provider.id));
}

export async function metadataOf(db: Db, providerId: string, settings: SsoSettings): Promise<string> {
  return (await spFor(db, await readyProvider(db, providerId), settings)).metadata();
}

export type SsoLogin = { userId: string; email: string; organizationId: string; token: string; expiresAt: Date; joined: boolean };

/** Validates an ACS post (`SAMLResponse`, base64) and signs the member in; a refused response throws SamlError. `from`: where the post came from. */
export async function finishLogin(db: Db, providerId: string, samlResponse: string, settings: SsoSettings, from: RequestOrigin | null): Promise<SsoLogin> {
  const provider = await readyProvider(db, providerId);
  const login = await (await spFor(db, provider, settings)).validate(samlResponse, pgRequestIds(db, provider.id), pgReplays(db, provider.id));
  return transactionFrom(db, from, async (tx) => {
    const organization = await tx.organization.findUniqueOrThrow({ where: { id: provider.organizationId } });
    const name = [login.firstName, login.lastName].filter(Boolean).join(' ');
    const user =
      (await tx.user.findUnique({ where: { email: login.email } })) ??
      (await tx.user.create({ data: { id: newId('User'), email: login.email, displayName: name || login.email.split('@')[0] } }));
    const member = await tx.member.findUnique({ where: { organizationId_userId: { organizationId: organization.id, userId: user.id } } });
    if (member?.disabled) throw forbidden('This member is disabled in the organization');
    if (!member && user.claimedAt) throw forbidden(CLAIMED_ACCOUNT);
    if (member) await tx.member.update({ where: { organizationId_userId: { organizationId: organization.id, userId: user.id } }, data: { sso: true } });
    else await tx.member.create({ data: { organizationId: organization.id, userId: user.id, role: provider.defaultRole ?? organization.defaultRole, sso: true } });
    // A member who joins (or first signs in through SSO) is announced; a later sign-in changes nothing.
    if (!member?.sso) await recordEvents(tx, memberEvent('memberUpdated', organization.id, user.id, { userId: user.id }));
    if (provider.defaultTeamId && (await tx.team.findFirst({ where: { id: provider.defaultTeamId, organizationId: organization.id } }))) {
      const { count } = await tx.teamMember.createMany({ data: [{ teamId: provider.defaultTeamId, userId: user.id }], skipDuplicates: true });
      if (count) await recordEvents(tx, teamEvent('teamUpdated', organization.id, provider.defaultTeamId, { userId: user.id }));
    }
    const expiresAt = new Date(Date.now() + SSO_TOKEN_DAYS * 24 * 3600 * 1000);
    const { token } = await issueNamedToken(tx, user.id, { name: `SAML sign-in (${provider.label})`, expiresAt, ssoOrganizationId: organization.id, confinedTo: organization.id });
    return { userId: user.id, email: user.email, organizationId: organization.id, token, expiresAt, joined: !member };
  });
}
