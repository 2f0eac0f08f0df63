import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { ROLES } from '../domain/access/roles.js';
import { createOrganizationWithOwner, createUser, userByEmail } from '../domain/people/identity/bootstrap.js';
import { createToken, listTokens, revokeToken } from '../domain/people/identity/token-admin.js';
import { AppError } from '../lib/errors.js';
import { UsageError } from './usage-error.js';

type Values = Record<string, string | undefined>;

const present = {
  user: (u: { id: string; email: string; displayName: string }) => ({ object: 'user', id: u.id, email: u.email, displayName: u.displayName }),
  organization: (o: { id: string; title: string }) => ({ object: 'organization', id: o.id, title: o.title }),
};

/** Each admin command and the flags it cannot do without. */
const REQUIRED: Record<string, string[]> = {
  'create-org': ['title', 'owner-email'],
  'create-user': ['email'],
  'create-token': ['email'],
  'list-tokens': ['email'],
  'revoke-token': ['email', 'id'],
};
/** `--role`: a role, or `guest` (a member with no role of the organization's, only what is shared). */
const ROLE_CHOICES = [...ROLES, 'guest'];

function required(values: Values, name: string): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** Mistakes visible without the database are reported before it is opened (an embedded one takes seconds). */
function checkFlags(sub: string | undefined, values: Values): void {
  if (!sub || !Object.hasOwn(REQUIRED, sub)) throw new UsageError(`Unknown admin command: ${sub ?? '(none)'}; one of: ${Object.keys(REQUIRED).join(', ')}`);
  for (const name of REQUIRED[sub]) required(values, name);
  if (values.role !== undefined && !ROLE_CHOICES.includes(values.role)) throw new UsageError(`--role must be one of: ${ROLE_CHOICES.join(', ')} (got "${values.role}")`);
  if (values.role && !values.org) throw new UsageError('--role needs --org');
  const days = values['expires-in-days'];
  if (days !== undefined && !(Number(days) > 0)) throw new UsageError('--expires-in-days must be a positive number');
}

/** The domain names its inputs as the API does (`ownerEmail`); the operator typed `--owner-email`. */
function asFlagError(error: unknown): unknown {
  if (!(error instanceof AppError) || error.code !== 'BAD_REQUEST' || !error.field) return error;
  const flag = `--${error.field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  return new UsageError(error.message.replace(`"${error.field}"`, flag));
}

/** Each command prints exactly one JSON object, on the last line of standard output. */
export async function admin(config: Config, sub: string | undefined, values: Values): Promise<void> {
  checkFlags(sub, values);
  const database = await openDatabase(config);
  try {
    let out: unknown;
    if (sub === 'create-org') {
      const r = await createOrganizationWithOwner(database.db, {
        title: required(values, 'title'),
        ownerEmail: required(values, 'owner-email'),
        ownerName: values['owner-name'],
      });
      out = { organization: present.organization(r.organization), user: present.user(r.user), token: r.token };
    } else if (sub === 'create-user') {
      const r = await createUser(database.db, { email: required(values, 'email'), name: values.name, org: values.org, role: values.role });
      out = { user: present.user(r.user), token: r.token };
    } else if (sub === 'create-token') {
      const days = values['expires-in-days'];
      const expiresAt = days === undefined ? undefined : new Date(Date.now() + Number(days) * 86_400_000);
      const user = await userByEmail(database.db, required(values, 'email'));
      const { token, record } = await createToken(database.db, { userId: user.id }, { name: values.name, expiresAt }, null);
      out = { token, apiToken: record };
    } else if (sub === 'list-tokens') {
      const user = await userByEmail(database.db, required(values, 'email'));
      out = { apiTokens: await listTokens(database.db, { userId: user.id }) };
    } else {
      const user = await userByEmail(database.db, required(values, 'email'));
      await revokeToken(database.db, { userId: user.id }, required(values, 'id'), null);
      out = { revoked: values.id };
    }
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } catch (error) {
    throw asFlagError(error);
  } finally {
    await database.close();
  }
}
