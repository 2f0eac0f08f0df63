/** Keys and grouping helpers shared by the request-scoped loaders. */

/** A change request of a space by its ID or its number. */
export const changeRequestKey = (spaceId: string, idOrNumber: string) => `${spaceId}:${idOrNumber}`;
export const memberKey = (organizationId: string, userId: string) => `${organizationId}:${userId}`;
export const teamMemberKey = (teamId: string, userId: string) => `${teamId}:${userId}`;
export const revisionPageKey = (revisionId: string, pageId: string) => `${revisionId}:${pageId}`;
export const splitKey = (key: string) => key.split(':') as [string, string];

export function byId<T extends { id: string }>(rows: T[], keys: readonly string[]): (T | null)[] {
  const map = new Map(rows.map((r) => [r.id, r]));
  return keys.map((k) => map.get(k) ?? null);
}

export function groupBy<T>(rows: T[], keyOf: (row: T) => string | null, keys: readonly string[]): T[][] {
  const map = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const row of rows) map.get(keyOf(row) ?? '')?.push(row);
  return keys.map((k) => map.get(k) ?? []);
}
