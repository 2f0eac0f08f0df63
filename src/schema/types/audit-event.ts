/**
 * The audit log in the graph (organization admins): `Organization.auditEvents` (newest first,
 * filtered as REST's `GET /orgs/{id}/audit-events`), `Organization.auditEvent(id)` and
 * `Organization.auditEventActions`.
 */
import { auditActions, auditEventsPage, findAuditEvent, type AuditActionEntry, type AuditEventRow } from '../../domain/audit/read.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { apiUrl } from '../urls.js';
import { OrganizationRef } from './organization.js';

type Party = { type: string; id: string; label: string | null };

const ActorRef = builder.objectRef<Party>('AuditEventActor').implement({
  description: 'Who made an audited change.',
  fields: (t) => ({
    type: t.exposeString('type', { description: '`user`, or `system` for the server\'s own changes (jobs, expiry, an operator\'s CLI command).' }),
    id: t.exposeString('id', { description: 'The user\'s ID, or `system`.' }),
    label: t.exposeString('label', { nullable: true, description: 'The user\'s name when the event was recorded.' }),
  }),
});

const TargetRef = builder.objectRef<Party>('AuditEventTarget').implement({
  description: 'What an audited change was made to.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Its kind: `user`, `team`, `space`, `collection`, `site`, `api-token`, `saml-provider`, `webhook-endpoint`, `organization`, …' }),
    id: t.exposeString('id', { description: 'Its ID.' }),
    label: t.exposeString('label', { nullable: true, description: 'Its name or title when the event was recorded (null when it was already gone).' }),
  }),
});

export const AuditEventRef = builder.objectRef<AuditEventRow>('AuditEvent').implement({
  description: 'One security-relevant change of an organization, as the audit log keeps it.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (a UUID, the same as in the REST API).' }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime', description: 'When the change was made.' }),
    action: t.exposeString('action', { description: 'What was done (`auditEventActions`), e.g. `member.updated`.' }),
    actor: t.field({ type: ActorRef, description: 'Who did it.', resolve: (a) => ({ type: a.actorType, id: a.actorId, label: a.actorLabel }) }),
    target: t.field({ type: TargetRef, description: 'What it was done to.', resolve: (a) => ({ type: a.targetType, id: a.targetId, label: a.targetLabel }) }),
    source: t.exposeString('source', { description: '`api` (REST or GraphQL), `ui` (quire\'s invitation and sign-in pages), `script` (the CLI) or `workflow` (a job, or the server itself).' }),
    clientAddress: t.exposeString('clientAddress', { nullable: true, description: 'The address of the client whose request made the change (QUIRE_TRUST_PROXY decides how it is read); null for the CLI and jobs.' }),
    userAgent: t.exposeString('userAgent', { nullable: true, description: 'The `User-Agent` of that request (its first 512 characters); null when none.' }),
    eventId: t.exposeID('eventId', { description: 'The organization event it was recorded from (`organizationEvents`, webhooks: the same ID).' }),
    location: t.string({ description: 'Its address in the REST API.', resolve: (a, _args, ctx) => apiUrl(ctx, `/orgs/${a.organizationId}/audit-events/${a.id}`) }),
    payload: t.field({ type: 'JSON', description: 'The event\'s kind and its facts (`OrganizationEventKind` documents them).', resolve: (a) => a.payload }),
  }),
});

const ActionRef = builder.objectRef<AuditActionEntry>('AuditEventAction').implement({
  description: 'An action the audit log records.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Its name, as audit events carry it.' }),
    label: t.exposeString('label', { description: 'What it means, for people.' }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  auditEvents: t.connection({
    type: AuditEventRef,
    description: 'The audit log, newest first (organization admins).',
    args: {
      action: t.arg.string({ description: 'Only this action (`auditEventActions`).' }),
      actor: t.arg.string({ description: 'Only changes by this actor (a user ID, or `system`).' }),
      target: t.arg.string({ description: 'Only changes to this target (its ID).' }),
      from: t.arg({ type: 'DateTime', description: 'Only changes made at or after this time.' }),
      to: t.arg({ type: 'DateTime', description: 'Only changes made at or before this time.' }),
    },
    resolve: async (org, args, ctx) => pageConnection(await auditEventsPage(ctx.db, ctx.access, org.id, args)),
  }),
  auditEvent: t.field({
    type: AuditEventRef,
    description: 'One event of the audit log (organization admins).',
    args: { id: t.arg.id({ required: true, description: 'The audit event\'s ID.' }) },
    resolve: (org, { id }, ctx) => findAuditEvent(ctx.db, ctx.access, org.id, String(id)),
  }),
  auditEventActions: t.field({
    type: [ActionRef],
    description: 'The actions the audit log records (organization admins).',
    resolve: (org, _args, ctx) => auditActions(ctx.access, org.id),
  }),
}));
