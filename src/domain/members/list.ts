/** Filtering and ordering of an organization's member list (in memory, over the loaded members). */
import type { Member, User } from '../../generated/prisma/client.js';
import { ROLES, type Role } from '../permissions/roles.js';

export const MEMBER_SORTS = ['joinedAt', 'lastSeenAt', 'name'] as const;
export const MEMBER_ROLE_FILTERS = [...ROLES, 'guest'] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];

export type MemberFilter = {
  order?: 'asc' | 'desc' | null;
  /** A role, or `guest` for members without one. */
  role?: Role | 'guest' | null;
  /** Case-insensitive "contains" on display name and email. */
  search?: string | null;
  /** Default `joinedAt`; `lastSeenAt` lists only members who have been seen ("active"). */
  sort?: MemberSort | null;
};

type Row = Member & { user: User };

const byName = (a: Row, b: Row) =>
  a.user.displayName.localeCompare(b.user.displayName, undefined, { sensitivity: 'base' }) || a.user.email.localeCompare(b.user.email);

const time = (d: Date | null) => d?.getTime() ?? 0;

export function filterMembers<M extends Row>(members: M[], filter: MemberFilter): M[] {
  const sort = filter.sort ?? 'joinedAt';
  const direction = filter.order === 'asc' ? 1 : -1;
  const search = filter.search?.trim().toLowerCase();
  const role = filter.role === 'guest' ? null : filter.role;
  const compare = sort === 'name' ? byName : (a: Row, b: Row) => time(a[sort]) - time(b[sort]);
  return members
    .filter(
      (m) =>
        (filter.role == null || m.role === role) &&
        (!search || m.user.displayName.toLowerCase().includes(search) || m.user.email.toLowerCase().includes(search)) &&
        (sort !== 'lastSeenAt' || m.lastSeenAt !== null),
    )
    .sort((a, b) => direction * (compare(a, b) || a.userId.localeCompare(b.userId)));
}
