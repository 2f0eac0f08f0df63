/**
 * Custom hostnames of sites, organizations' subdomains and the API's own version: `customHostname`,
 * `Site.customHostname`, `verifyCustomHostname`, `removeCustomHostname`, `subdomain`,
 * `apiInformation`. The rules are in src/domain/publishing/hostnames/.
 */
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Site } from '../../generated/prisma/client.js';
import { challengeOf, claimOf, recheckCustomHostname, removeCustomHostname } from '../../domain/publishing/hostnames/custom-hostnames.js';
import { subdomainOwner } from '../../domain/publishing/hostnames/subdomains.js';
import { VERSION } from '../../observability/startup-summary.js';
import { builder } from '../builder.js';
import { forgetLoaded } from '../context.js';
import { apiUrl } from '../urls.js';
import { OrganizationRef } from './organization.js';
import { SiteRef } from './site.js';

export const CustomHostnameStatusEnum = builder.enumType('CustomHostnameStatus', {
  description: "What the last DNS check of a custom hostname found (the public document's `CustomHostnameStatus` values quire uses).",
  values: {
    live: { value: 'live', description: "The DNS record held the claim's token: the hostname is verified and served." },
    dns_no_cname: { value: 'dns_no_cname', description: 'No TXT record at the challenge name.' },
    dns_wrong_cname: { value: 'dns_wrong_cname', description: "TXT records at the challenge name, none holding the claim's token." },
    internal_error: { value: 'internal_error', description: 'The DNS servers gave no answer (time-out, server failure): check again later.' },
  } as const,
});

const ChallengeRef = builder.simpleObject('CustomHostnameChallenge', {
  description: "The DNS record that proves a claim of a custom hostname: add it at the hostname's DNS provider, then verify.",
  fields: (t) => ({
    type: t.string({ description: 'The record\'s type: `TXT`.' }),
    name: t.string({ description: 'The record\'s name: `_quire-challenge.<hostname>`.' }),
    value: t.string({ description: 'The text the record holds: `quire-verification=<token>`, the token being new with every claim.' }),
  }),
});

/** A site's claim of its hostname. */
export const CustomHostnameRef = builder.objectRef<Site>('CustomHostname');

CustomHostnameRef.implement({
  description: 'A custom hostname claimed for a site: served on it once verified by its DNS record.',
  fields: (t) => ({
    hostname: t.string({ description: 'The hostname, e.g. `docs.example.com`.', resolve: (s) => s.hostname! }),
    site: t.field({ type: SiteRef, description: 'The site claiming it.', resolve: (s) => s }),
    isActive: t.boolean({ description: 'Whether it is verified, and so served.', resolve: (s) => !!s.hostnameVerifiedAt }),
    status: t.field({ type: CustomHostnameStatusEnum, nullable: true, description: 'What the last DNS check found; null before the first.', resolve: (s) => s.hostnameStatus as never }),
    checkedAt: t.expose('hostnameCheckedAt', { type: 'DateTime', nullable: true, description: 'When its DNS record was last checked.' }),
    verifiedAt: t.expose('hostnameVerifiedAt', { type: 'DateTime', nullable: true, description: 'When its DNS record first proved the claim.' }),
    location: t.string({ description: 'Its URL in the REST API.', resolve: (s, _a, ctx) => apiUrl(ctx, `/custom-hostnames/${s.hostname}`) }),
    challenge: t.field({ type: ChallengeRef, description: 'The DNS record that proves the claim.', resolve: (s) => challengeOf(s)! }),
  }),
});

builder.objectField(SiteRef, 'customHostname', (t) =>
  t.field({ type: CustomHostnameRef, nullable: true, description: 'Its claim of a custom hostname, when it has one (`hostname`).', resolve: (s) => (s.hostname ? s : null) }),
);

const SubdomainRef = builder.simpleObject('Subdomain', {
  description: "An organization's subdomain (its `hostname`).",
  fields: (t) => ({
    subdomain: t.string({ description: 'The subdomain.' }),
    organizationId: t.id({ description: 'The organization holding it.' }),
    isActive: t.boolean({ description: 'Whether it is in use: always true for a subdomain an organization holds.' }),
  }),
});

builder.objectField(SubdomainRef, 'organization', (t) =>
  t.field({ type: OrganizationRef, description: 'The organization holding it.', resolve: async (s, _a, ctx) => (await ctx.loaders.organization.load(String(s.organizationId)))! }),
);

/** When this build was made: the modification time of this module (in `dist/`, the build's). */
const BUILD = statSync(fileURLToPath(import.meta.url)).mtime.toISOString();

const ApiInformationRef = builder.simpleObject('ApiInformation', {
  description: 'Which quire answers.',
  fields: (t) => ({
    version: t.string({ description: "quire's version (package.json)." }),
    build: t.string({ description: 'When this build was made (ISO 8601).' }),
  }),
});

const hostnameArg = (t: { arg: { string: (o: { required: true; description: string }) => any } }) => ({ hostname: t.arg.string({ required: true, description: 'The custom hostname, e.g. `docs.example.com`.' }) });

builder.queryFields((t) => ({
  customHostname: t.field({
    type: CustomHostnameRef,
    description: "A custom hostname claimed by a site of one of the caller's organizations (members with a role); NOT_FOUND otherwise.",
    args: hostnameArg(t),
    resolve: (_r, { hostname }, ctx) => claimOf(ctx.db, ctx.access, String(hostname)),
  }),
  subdomain: t.field({
    type: SubdomainRef,
    description: "The organization holding a subdomain, when the caller is one of its members; NOT_FOUND otherwise.",
    args: { subdomain: t.arg.string({ required: true, description: 'The subdomain, e.g. `my-company`.' }) },
    resolve: (_r, { subdomain }, ctx) => subdomainOwner(ctx.db, ctx.access, subdomain).then((s) => ({ ...s, isActive: true })),
  }),
  apiInformation: t.field({ type: ApiInformationRef, description: "This server's version and build date.", resolve: () => ({ version: VERSION, build: BUILD }) }),
}));

builder.mutationFields((t) => ({
  verifyCustomHostname: t.field({
    type: CustomHostnameRef,
    description: "Checks the DNS record of a custom hostname claimed by a site of the caller's organization (site managers): once it holds the claim's token, the hostname is verified and served. CONFLICT when another site's verified claim holds it.",
    args: hostnameArg(t),
    resolve: async (_r, { hostname }, ctx) => {
      const site = await recheckCustomHostname(ctx.db, ctx.access, String(hostname), { servers: ctx.config.dnsServers });
      forgetLoaded(ctx);
      return site;
    },
  }),
  removeCustomHostname: t.boolean({
    description: "Removes a site's claim of a custom hostname (site managers): it stops being served. False when the caller's organizations claim no such hostname.",
    args: hostnameArg(t),
    resolve: async (_r, { hostname }, ctx) => {
      const removed = await removeCustomHostname(ctx.db, ctx.access, String(hostname));
      forgetLoaded(ctx);
      return removed;
    },
  }),
}));
