/**
 * Merge rules: what a change request must satisfy before it merges, beyond the `merge`
 * capability. An organization has `{type: "none"}` (the default: no rules) or
 * `{type: "rules", rules}`; a space has the same or `{type: "inherit"}` (the default: its
 * organization's). Every rule must pass, checked in order, and the first failing one is named (a
 * 409). An `allow_bypass` rule lets the users it lists merge anyway.
 *
 * Reviews that count are the current ones (reviews.ts: each reviewer's latest, unless the
 * request changed or they were asked again since). The rules:
 * - require_at_least_one_review: a current review, approving or not;
 * - require_at_least_one_approved_review: a current approving review;
 * - require_all_reviews_approved: every current review approves (none at all passes: combine it
 *   with one of the two above to require reviews);
 * - require_up_to_date_change_request: the request is based on the space's current revision;
 * - require_change_request_subject: the subject is not blank;
 * - require_author_to_merge: only the request's author merges it;
 * - require_specific_reviewers {users}: each listed user has a current approving review — the
 *   request's author excepted, who cannot review their own request;
 * - require_one_of_specific_reviewers {users}: one listed user other than the author has.
 * The public document lists three more (require_agent_review, require_change_request_description,
 * custom expressions): this server cannot evaluate them, so setting them is a 400.
 */
import { z } from 'zod';
import { Prisma, type ChangeRequest, type Organization, type Space } from '../../../generated/prisma/client.js';
import { badRequest, conflict } from '../../../lib/errors.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import { currentReviews, type ReviewRow } from './reviews.js';
import { lazySchema } from '../../../lib/validation.js';

const { sql } = Prisma;

const SIMPLE_RULES = [
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_up_to_date_change_request',
  'require_change_request_subject',
  'require_author_to_merge',
] as const;
const USER_RULES = ['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass'] as const;
/** Documented by the public API, not evaluated by this server. */
const UNSUPPORTED_RULES = ['require_agent_review', 'require_change_request_description', 'custom'];

export const MAX_RULES = 50;
export const MAX_RULE_USERS = 100;

const userList = (min: number) =>
  z
    .array(z.string().min(1).max(64))
    .min(min, 'must list at least one user')
    .max(MAX_RULE_USERS, `at most ${MAX_RULE_USERS} users`)
    .transform((users) => [...new Set(users)]);

const simple = <R extends (typeof SIMPLE_RULES)[number]>(rule: R) => z.object({ rule: z.literal(rule) }).strict();

function unknownRule(input: unknown): string {
  const rule = input && typeof input === 'object' ? (input as { rule?: unknown }).rule : undefined;
  const known = [...SIMPLE_RULES, ...USER_RULES].join(', ');
  if (typeof rule === 'string' && UNSUPPORTED_RULES.includes(rule)) return `the rule "${rule}" is not supported by this server (supported: ${known})`;
  return `must be one of ${known}`;
}

const ruleSchema = lazySchema(() => z.discriminatedUnion(
  'rule',
  [
    simple('require_at_least_one_review'),
    simple('require_at_least_one_approved_review'),
    simple('require_all_reviews_approved'),
    simple('require_up_to_date_change_request'),
    simple('require_change_request_subject'),
    simple('require_author_to_merge'),
    z.object({ rule: z.literal('require_specific_reviewers'), users: userList(1) }).strict(),
    z.object({ rule: z.literal('require_one_of_specific_reviewers'), users: userList(1) }).strict(),
    // A bypass of nobody bypasses nothing: allowed, as clients may send one before choosing users.
    z.object({ rule: z.literal('allow_bypass'), users: userList(0) }).strict(),
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? unknownRule(issue.input) : undefined) },
));

export type MergeRule = z.output<typeof ruleSchema>;
export type MergeRuleType = MergeRule['rule'];

const rulesConfig = lazySchema(() => z.object({ type: z.literal('rules'), rules: z.array(ruleSchema).max(MAX_RULES, `at most ${MAX_RULES} rules`) }).strict());
const noneConfig = lazySchema(() => z.object({ type: z.literal('none') }).strict());
const inheritConfig = lazySchema(() => z.object({ type: z.literal('inherit') }).strict());

/** `mergeRules` of an organization (PATCH /orgs/{organizationId}). */
export const organizationMergeRulesSchema = lazySchema(() => z.discriminatedUnion('type', [rulesConfig, noneConfig], {
  error: (issue) => (issue.code === 'invalid_union' ? 'must be {type: "none"} or {type: "rules", rules}' : undefined),
}));

/** `mergeRules` of a space (PATCH /spaces/{spaceId}): also `{type: "inherit"}`. */
export const spaceMergeRulesSchema = lazySchema(() => z.discriminatedUnion('type', [inheritConfig, rulesConfig, noneConfig], {
  error: (issue) => (issue.code === 'invalid_union' ? 'must be {type: "inherit"}, {type: "none"} or {type: "rules", rules}' : undefined),
}));

export type OrganizationMergeRules = z.output<typeof organizationMergeRulesSchema>;
export type SpaceMergeRules = z.output<typeof spaceMergeRulesSchema>;

/**
 * The users named by rules must be active members of the organization (a rule naming a stranger
 * could never pass): a 400 naming the rule's `users`. `field` is where the configuration sits in
 * the request body.
 */
export async function requireRuleUsers(db: Queryable, organizationId: string, config: SpaceMergeRules, field = 'mergeRules'): Promise<void> {
  if (config.type !== 'rules') return;
  const named = [...new Set(config.rules.flatMap((r) => ('users' in r ? r.users : [])))];
  if (!named.length) return;
  const rows = await db.$queryRaw<{ userId: string }[]>(sql`SELECT "userId" FROM "Member"
    WHERE "organizationId" = ${organizationId} AND "userId" = ANY(${named}::text[]) AND NOT "disabled"`);
  const members = new Set(rows.map((r) => r.userId));
  for (const [index, rule] of config.rules.entries()) {
    const stranger = 'users' in rule ? rule.users.find((u) => !members.has(u)) : undefined;
    if (stranger) {
      const at = `${field}.rules.${index}.users`;
      throw badRequest(`Invalid value for "${at}": ${stranger} is not a member of the organization`, at);
    }
  }
}

/** A stored configuration (always written through the schemas above; anything else fails closed). */
function stored<S extends z.ZodType>(schema: S, value: unknown, owner: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw conflict(`The merge rules of the ${owner} are invalid: set them again`);
  return parsed.data;
}

/** The rules that apply to the space's change requests: its own, or its organization's when it inherits. */
export function effectiveRules(organization: Pick<Organization, 'mergeRules'>, space: Pick<Space, 'mergeRules'>): MergeRule[] {
  const own = stored(spaceMergeRulesSchema, space.mergeRules, 'space');
  const config = own.type === 'inherit' ? stored(organizationMergeRulesSchema, organization.mergeRules, 'organization') : own;
  return config.type === 'rules' ? config.rules : [];
}

export type MergeRulesSubject = {
  changeRequest: Pick<ChangeRequest, 'id' | 'subject' | 'createdById'>;
  space: Pick<Space, 'organizationId' | 'mergeRules'>;
  /** Read from the database when omitted (only needed when the space inherits). */
  organization?: Pick<Organization, 'mergeRules'> | null;
  /** Who merges. */
  userId: string;
  /** Whether the request is based on the space's current revision. */
  upToDate: boolean;
};

export type FailingRule = { rule: MergeRuleType; message: string };

const list = (ids: readonly string[]) => ids.join(', ');

/** The first rule the merge would not meet (null: it may merge), reading reviews only when a rule needs them. */
export async function failingMergeRule(db: Queryable, subject: MergeRulesSubject): Promise<FailingRule | null> {
  const { changeRequest, space, userId, upToDate } = subject;
  let organization = subject.organization;
  if (!organization && stored(spaceMergeRulesSchema, space.mergeRules, 'space').type === 'inherit') {
    [organization] = await db.$queryRaw<Pick<Organization, 'mergeRules'>[]>(sql`SELECT "mergeRules" FROM "Organization" WHERE "id" = ${space.organizationId}`);
  }
  const rules = effectiveRules(organization ?? { mergeRules: { type: 'none' } }, space);
  if (rules.some((r) => r.rule === 'allow_bypass' && r.users.includes(userId))) return null;
  let reviews: ReviewRow[] | undefined;
  const current = async () => (reviews ??= await currentReviews(db, changeRequest.id));
  const approvedBy = async () => new Set((await current()).filter((r) => r.status === 'approved').map((r) => r.reviewerId));
  const author = changeRequest.createdById;
  for (const rule of rules) {
    const fail = (message: string): FailingRule => ({ rule: rule.rule, message });
    switch (rule.rule) {
      case 'allow_bypass':
        break;
      case 'require_at_least_one_review':
        if (!(await current()).length) return fail('the change request needs a review of its current revision');
        break;
      case 'require_at_least_one_approved_review':
        if (!(await approvedBy()).size) return fail('the change request needs an approving review of its current revision');
        break;
      case 'require_all_reviews_approved': {
        const against = (await current()).filter((r) => r.status !== 'approved').map((r) => r.reviewerId);
        if (against.length) return fail(`changes are requested by ${list(against)}`);
        break;
      }
      case 'require_up_to_date_change_request':
        if (!upToDate) return fail("the change request must be updated with the space's current content first");
        break;
      case 'require_change_request_subject':
        if (!changeRequest.subject.trim()) return fail('the change request needs a subject');
        break;
      case 'require_author_to_merge':
        if (userId !== author) return fail('only the author of the change request can merge it');
        break;
      case 'require_specific_reviewers': {
        const approved = await approvedBy();
        const missing = rule.users.filter((u) => u !== author && !approved.has(u));
        if (missing.length) return fail(`approving reviews are missing from ${list(missing)}`);
        break;
      }
      case 'require_one_of_specific_reviewers': {
        const approved = await approvedBy();
        const candidates = rule.users.filter((u) => u !== author);
        if (!candidates.length) return fail('the only listed reviewer is the author, who cannot review their own change request');
        if (!candidates.some((u) => approved.has(u))) return fail(`one of ${list(candidates)} must approve the change request`);
        break;
      }
    }
  }
  return null;
}

/** Refuses the merge (409) naming the first rule it does not meet. */
export async function checkMergeRules(db: Queryable, subject: MergeRulesSubject): Promise<void> {
  const failing = await failingMergeRule(db, subject);
  if (failing) throw conflict(`Merge rule "${failing.rule}" is not met: ${failing.message}`);
}
