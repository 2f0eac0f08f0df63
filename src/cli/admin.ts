import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { createOrganizationWithOwner, createUser, userByEmail } from '../domain/people/identity/bootstrap.js';
import { createToken, listTokens, revokeToken } from '../domain/people/identity/token-admin.js';
import { UsageError } from './usage-error.js';

type Values = Record<string, string | undefined>;

const present = {
  user: (u: { id: string; email: string; displayName: string }) => ({ object: 'user', id: u.id, email: u.email, displayName: u.displayName }),
  organization: (o: { id: string; title: string }) => ({ object: 'organization', id: o.id, title: o.title }),
};

function required(values: Values, name: string): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** Each command prints exactly one JSON object, on the last line of standard output. */
export async function admin(config: Config, sub: string | undefined, values: Values): Promise<void> {
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
      if (values.role && !values.org) throw new UsageError('--role needs --org');
      const r = await createUser(database.db, { email: required(values, 'email'), name: values.name, org: values.org, role: values.role });
      out = { user: present.user(r.user), token: r.token };
    } else if (sub === 'create-token') {
      const days = values['expires-in-days'];
      if (days !== undefined && !(Number(days) > 0)) throw new UsageError('--expires-in-days must be a positive number');
      const expiresAt = days === undefined ? undefined : new Date(Date.now() + Number(days) * 86_400_000);
      const user = await userByEmail(database.db, required(values, 'email'));
      const { token, record } = await createToken(database.db, { userId: user.id }, { name: values.name, expiresAt });
      out = { token, apiToken: record };
    } else if (sub === 'list-tokens') {
      const user = await userByEmail(database.db, required(values, 'email'));
      out = { apiTokens: await listTokens(database.db, { userId: user.id }) };
    } else if (sub === 'revoke-token') {
      const user = await userByEmail(database.db, required(values, 'email'));
      await revokeToken(database.db, { userId: user.id }, required(values, 'id'));
      out = { revoked: values.id };
    } else {
      throw new UsageError(`Unknown admin command: ${sub ?? '(none)'}`);
    }
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    await database.close();
  }
}
