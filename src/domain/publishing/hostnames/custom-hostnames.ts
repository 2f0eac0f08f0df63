/**
 * Custom hostnames of sites (the public document's `/custom-hostnames/{hostname}`): a site claims a
 * hostname (`updateSite`'s `hostname`), which is served only once the claim is proven — a DNS TXT
 * record `_quire-challenge.<hostname>` holding the claim's token, checked through the configured
 * resolver (`QUIRE_DNS_SERVERS`). Several sites, of any organizations, may claim a hostname; a
 * proven claim holds it (`VerifiedHostname`, keyed by hostname) until it is removed or changed —
 * or until the DNS says otherwise: another claim whose record is present while the holder's is
 * gone takes it over (whoever controls the domain's DNS now decides; a holder whose record merely
 * cannot be read keeps it, so a DNS outage takes no site down). Reading a claim needs `view` on
 * its site, checking and removing it `manage` (the caller's site role, capabilities.ts SITE_RULES);
 * the claims of sites the caller has no role on do not exist for them.
 */
import { randomBytes } from 'node:crypto';
import type { Prisma, Site } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { AppError, conflict, notFound } from '../../../lib/errors.js';
import { txtRecords, type DnsSettings } from '../../../lib/dns/txt.js';
import { recordEvents } from '../../kernel/outbox.js';
import { recordSiteEvent } from '../sites/events.js';
import { lockSite } from '../sites/lock.js';
import { siteWrite } from '../sites/write.js';

/** The public document's `CustomHostnameStatus` values quire reports. */
export type CustomHostnameStatus = 'live' | 'dns_no_cname' | 'dns_wrong_cname' | 'internal_error';

/** The DNS record that proves a site's claim. */
export type Challenge = { type: 'TXT'; name: string; value: string };

export const challengeOf = (site: Pick<Site, 'hostname' | 'hostnameToken'>): Challenge | null =>
  site.hostname && site.hostnameToken ? { type: 'TXT', name: `_quire-challenge.${site.hostname}`, value: `quire-verification=${site.hostnameToken}` } : null;

/** A hostname is served on its site once verified: the site's URLs use it only then. */
export const servedHostname = (site: Pick<Site, 'hostname' | 'hostnameVerifiedAt'>): string | null => (site.hostname && site.hostnameVerifiedAt ? site.hostname : null);

const isNotFound = (error: unknown) => error instanceof AppError && error.code === 'NOT_FOUND';

/**
 * The site whose claim of `hostname` the caller may `action`: among the claims of the
 * organizations the caller is a member of, the verified one first, then the oldest.
 */
export async function claimOf(db: Db, access: Access, hostname: string, action: 'view' | 'manage' = 'view'): Promise<Site> {
  const name = hostname.toLowerCase();
  const claims = name.length > 512 ? [] : await db.site.findMany({
    where: { hostname: name, organization: { members: { some: { userId: access.userId, disabled: false } } } },
    orderBy: [{ hostnameVerifiedAt: { sort: 'asc', nulls: 'last' } }, { createdAt: 'asc' }, { id: 'asc' }],
    take: 20,
  });
  for (const claim of claims) {
    try {
      await access.requireSite(claim.id, 'view');
    } catch (error) {
      if (isNotFound(error)) continue;
      throw error;
    }
    return action === 'manage' ? access.requireSite(claim.id, 'manage') : claim;
  }
  throw notFound('Custom hostname');
}

/** What a new hostname claim writes on the site (`null`: the claim removed). */
export function claimData(hostname: string | null): Prisma.SiteUpdateInput {
  return { hostname, hostnameToken: hostname ? randomBytes(18).toString('base64url') : null, hostnameClaimedAt: hostname ? new Date() : null, hostnameStatus: null, hostnameCheckedAt: null, hostnameVerifiedAt: null };
}

/**
 * Lets go of the site's own verified hostname: called in the write's transaction when a site's
 * hostname changes. A claim of a hostname another site holds is taken (it serves nothing until
 * its own record proves it, and takes the hostname over only then: `applyCheck`).
 */
export async function reclaim(tx: Prisma.TransactionClient, site: Site): Promise<void> {
  await tx.verifiedHostname.deleteMany({ where: { siteId: site.id } });
}

/** What the claim's DNS record says now. */
async function lookUp(claim: Site, dns: DnsSettings): Promise<{ proven: boolean; status: CustomHostnameStatus }> {
  const challenge = challengeOf(claim);
  if (!challenge) return { proven: false, status: 'dns_no_cname' };
  const lookup = await txtRecords(challenge.name, dns);
  const proven = 'records' in lookup && lookup.records.includes(challenge.value);
  return { proven, status: proven ? 'live' : 'records' in lookup ? 'dns_wrong_cname' : lookup.error === 'not_found' ? 'dns_no_cname' : 'internal_error' };
}

/**
 * Whether another site holding the claim's hostname may be displaced: only when the DNS answered
 * and its record is not there (a holder whose record is still present, or cannot be read, keeps
 * it: 409).
 */
async function displaceable(db: Db, claim: Site, dns: DnsSettings): Promise<string | null> {
  const held = await db.verifiedHostname.findUnique({ where: { hostname: claim.hostname! } });
  if (!held || held.siteId === claim.id) return null;
  const holder = await db.site.findUnique({ where: { id: held.siteId } });
  const found = holder ? await lookUp(holder, dns) : null;
  if (found && (found.proven || found.status === 'internal_error')) throw conflict(`${claim.hostname} is verified for another site, whose DNS record is still there: remove it to move the hostname`);
  return held.siteId;
}

/**
 * Writes what a check found on the site (locked, in the write's transaction), when the claim is
 * still the one checked: proven, the claim takes the hostname — over `displaced` (another site
 * whose record the DNS no longer holds) when given, otherwise unless another site's verified claim
 * holds it (409). Records `siteUpdated` (for both sites when one is displaced).
 */
async function applyCheck(tx: Prisma.TransactionClient, site: Site, claim: Site, found: { proven: boolean; status: CustomHostnameStatus }, actorId: string | null, displaced: string | null = null): Promise<Site> {
  if (site.hostname !== claim.hostname || site.hostnameToken !== claim.hostnameToken) throw conflict("The site's hostname changed during the check: check it again");
  let verifiedAt = site.hostnameVerifiedAt;
  if (found.proven && !verifiedAt) {
    if (displaced) {
      const { count } = await tx.verifiedHostname.deleteMany({ where: { hostname: site.hostname!, siteId: displaced } });
      if (count) {
        const other = await tx.site.update({ where: { id: displaced }, data: { hostnameVerifiedAt: null, hostnameStatus: 'dns_wrong_cname', hostnameCheckedAt: new Date() } });
        await recordEvents(tx, {
          kind: 'siteUpdated',
          organizationId: other.organizationId,
          subjectId: other.id,
          siteId: other.id,
          actorId: null,
          data: { fields: ['hostnameStatus'], hostname: site.hostname!, hostnameStatus: 'dns_wrong_cname', verified: false },
        });
      }
    }
    // The hostname's key decides between two claims proven at the same moment.
    await tx.verifiedHostname.createMany({ data: [{ hostname: site.hostname!, siteId: site.id, organizationId: site.organizationId }], skipDuplicates: true });
    const holder = await tx.verifiedHostname.findUnique({ where: { hostname: site.hostname! } });
    if (holder?.siteId !== site.id) throw conflict(`${site.hostname} is verified for another site`);
    verifiedAt = new Date();
  }
  const updated = await tx.site.update({ where: { id: site.id }, data: { hostnameStatus: found.status, hostnameCheckedAt: new Date(), hostnameVerifiedAt: verifiedAt } });
  await recordEvents(tx, {
    kind: 'siteUpdated',
    organizationId: site.organizationId,
    subjectId: site.id,
    siteId: site.id,
    actorId,
    data: { fields: ['hostnameStatus'], hostname: site.hostname!, hostnameStatus: found.status, verified: !!verifiedAt },
  });
  return updated;
}

/**
 * Checks the claim's DNS record again. Proven, the claim holds the hostname — taking it from
 * another site only when that site's record is gone from the DNS (409 while it is there or
 * cannot be read); not proven, a claim already verified stays verified (a DNS outage does not
 * take a site down) while its status says what the check found.
 */
export async function recheckCustomHostname(db: Db, access: Access, hostname: string, dns: DnsSettings): Promise<Site> {
  const claim = await claimOf(db, access, hostname, 'manage');
  const found = await lookUp(claim, dns);
  const displaced = found.proven ? await displaceable(db, claim, dns) : null;
  return siteWrite(db, access, claim.id, (tx, site) => applyCheck(tx, site, claim, found, access.userId, displaced));
}

/** How long the worker keeps checking a claim nobody proved, and how often. */
export const PENDING_CHECK = { days: 7, everyMinutes: 5, batch: 100 } as const;

/**
 * The worker's round: checks the claims made in the last week that are not verified yet and were
 * not checked in the last few minutes (oldest check first, a batch at a time), so a hostname
 * starts being served a few minutes after its record appears, with nobody asking. A claim another
 * site's verified claim holds is skipped. Answers how many claims were proven.
 */
export async function checkPendingClaims(db: Db, dns: DnsSettings): Promise<number> {
  const now = Date.now();
  const pending = await db.site.findMany({
    where: {
      hostname: { not: null },
      hostnameVerifiedAt: null,
      hostnameClaimedAt: { gte: new Date(now - PENDING_CHECK.days * 86_400_000) },
      OR: [{ hostnameCheckedAt: null }, { hostnameCheckedAt: { lt: new Date(now - (PENDING_CHECK.everyMinutes - 1) * 60_000) } }],
    },
    orderBy: [{ hostnameCheckedAt: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }],
    take: PENDING_CHECK.batch,
  });
  let proven = 0;
  for (const claim of pending) {
    const found = await lookUp(claim, dns);
    try {
      const displaced = found.proven ? await displaceable(db, claim, dns) : null;
      await db.$transaction(async (tx) => {
        const site = await lockSite(tx, claim.id);
        if (site) await applyCheck(tx, site, claim, found, null, displaced);
      });
      if (found.proven) proven++;
    } catch (error) {
      // The claim changed, or another site holds the hostname with its record still there: the next round sees.
      if (!(error instanceof AppError && error.code === 'CONFLICT')) throw error;
    }
  }
  return proven;
}

/** Removes the caller's organization's claim of the hostname; false when there was none. */
export async function removeCustomHostname(db: Db, access: Access, hostname: string): Promise<boolean> {
  let claim: Site;
  try {
    claim = await claimOf(db, access, hostname, 'manage');
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
  return siteWrite(db, access, claim.id, async (tx, site) => {
    if (site.hostname !== claim.hostname) return false;
    await reclaim(tx, site);
    await tx.site.update({ where: { id: site.id }, data: claimData(null) });
    await recordSiteEvent(tx, access, site, 'siteUpdated', site.id, { fields: ['hostname'] });
    return true;
  });
}
