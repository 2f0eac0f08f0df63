/** Filters of team lists. */
import type { Team } from '../../generated/prisma/client.js';
import { memberKey, type Loaders } from '../loaders.js';

/** Case-insensitive "contains" on the title; no filter when empty. */
export function titleMatches(team: Team, title?: string | null): boolean {
  const needle = title?.trim().toLowerCase();
  return !needle || team.title.toLowerCase().includes(needle);
}

/**
 * `owner`: a member ID; keeps the teams that member can manage (every team for an active
 * organization admin, the teams they own otherwise; none for a non-member).
 */
export async function filterTeams(loaders: Loaders, organizationId: string, teams: Team[], filter: { owner?: string | null; title?: string | null }): Promise<Team[]> {
  let manages = (_team: Team) => true;
  if (filter.owner != null) {
    const key = memberKey(organizationId, filter.owner);
    const [member, memberships] = await Promise.all([loaders.member.load(key), loaders.memberTeams.load(key)]);
    const owned = new Set(memberships.filter((m) => m.role === 'owner').map((m) => m.teamId));
    const active = !!member && !member.disabled;
    manages = (team) => active && (member.role === 'admin' || owned.has(team.id));
  }
  return teams.filter((team) => manages(team) && titleMatches(team, filter.title));
}
