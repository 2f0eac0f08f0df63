/**
 * The audit log (`organizations` tag of the public document): `GET /orgs/{organizationId}/audit-events`
 * (newest first, `limit` 1–100, default 20, filtered by `action`, `actor`, `target`, `from`, `to`),
 * `…/audit-events/{auditEventId}` and `…/audit-event-actions`. Organization admins only.
 */
import { badRequest } from '../../lib/errors.js';
import { route, type RestInput } from '../route.js';

const EVENT_FIELDS = 'id occurredAt action actor { type id label } target { type id label } source clientAddress userAgent eventId location';

type AuditEventData = {
  id: string;
  occurredAt: string;
  action: string;
  actor: { type: string; id: string; label: string | null };
  target: { type: string; id: string; label: string | null };
  source: string;
  clientAddress: string | null;
  userAgent: string | null;
  eventId: string;
  location: string;
  payload?: Record<string, unknown>;
};

const party = (p: { type: string; id: string; label: string | null }) => ({ type: p.type, id: p.id, ...(p.label != null ? { label: p.label } : {}) });

/** `AuditEvent`, with quire's `ipAddress` and `userAgent` of the request that made the change. */
function presentAuditEvent(e: AuditEventData) {
  return {
    object: 'audit-event',
    id: e.id,
    occurredAt: e.occurredAt,
    action: e.action,
    actor: party(e.actor),
    source: e.source,
    target: party(e.target),
    urls: { location: e.location },
    ipAddress: e.clientAddress,
    userAgent: e.userAgent,
  };
}

/** `limit`: 1–100 (20 when absent), as documented. */
function limitOf(query: URLSearchParams): number {
  const text = query.get('limit');
  if (text === null) return 20;
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < 1 || n > 100) throw badRequest('Invalid value for "limit": must be an integer between 1 and 100', 'limit');
  return n;
}

function timeOf(query: URLSearchParams, name: 'from' | 'to'): string | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  // RFC 3339 date-time, as the document's `format: date-time` says.
  if (!/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(text) || Number.isNaN(Date.parse(text))) {
    throw badRequest(`Invalid value for "${name}": must be a date-time (RFC 3339, e.g. 2026-01-31T12:00:00Z)`, name);
  }
  return new Date(text).toISOString();
}

const text = (query: URLSearchParams, name: string) => query.get(name) ?? undefined;

const filters = ({ params, query }: RestInput) => {
  const page = query.get('page');
  return {
    org: params.organizationId,
    first: limitOf(query),
    ...(page ? { after: page } : {}),
    action: text(query, 'action'),
    actor: text(query, 'actor'),
    target: text(query, 'target'),
    from: timeOf(query, 'from'),
    to: timeOf(query, 'to'),
  };
};

export const auditRoutes = [
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/audit-events',
    // No `count`: the document makes it optional, and counting a large log costs what a page must not.
    operation: `query RestListAuditEvents($org: ID!, $first: Int, $after: String, $action: String, $actor: String, $target: String, $from: DateTime, $to: DateTime) {
      organization(id: $org) { auditEvents(first: $first, after: $after, action: $action, actor: $actor, target: $target, from: $from, to: $to) {
        pageInfo { hasNextPage endCursor } edges { node { ${EVENT_FIELDS} } } } }
    }`,
    variables: filters,
    result: (data) => {
      const list = data.organization.auditEvents;
      return {
        items: list.edges.map((e: { node: AuditEventData }) => presentAuditEvent(e.node)),
        ...(list.pageInfo.hasNextPage && list.pageInfo.endCursor ? { next: { page: list.pageInfo.endCursor } } : {}),
      };
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/audit-events/{auditEventId}',
    operation: `query RestGetAuditEvent($org: ID!, $id: ID!) { organization(id: $org) { auditEvent(id: $id) { ${EVENT_FIELDS} payload } } }`,
    variables: ({ params }) => ({ org: params.organizationId, id: params.auditEventId }),
    result: (data) => {
      const e: AuditEventData = data.organization.auditEvent;
      // `executionId`: the organization event (webhook `webhook-id`, subscription `id`) it was recorded from.
      return { ...presentAuditEvent(e), executionId: e.eventId, schemaVersion: 1, payload: e.payload ?? {} };
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/{organizationId}/audit-event-actions',
    operation: `query RestListAuditEventActions($org: ID!) { organization(id: $org) { auditEventActions { id label } } }`,
    variables: ({ params }) => ({ org: params.organizationId }),
    result: (data) => ({ items: data.organization.auditEventActions.map((a: { id: string; label: string }) => ({ object: 'audit-event-action', id: a.id, label: a.label })) }),
  }),
];
