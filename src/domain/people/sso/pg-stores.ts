/** The SAML stores on PostgreSQL: atomic under concurrent ACS posts (one DELETE, one INSERT). */
import type { Db } from '../../../db/client.js';
import type { ReplayStore, RequestIdStore } from '../../../lib/saml/stores.js';

export function pgRequestIds(db: Db, providerId: string): RequestIdStore {
  return {
    async save(id, expiresAt) {
      await db.samlRequest.create({ data: { id, providerId, expiresAt } });
    },
    async consume(id) {
      const rows = await db.$executeRaw`DELETE FROM "SamlRequest" WHERE "id" = ${id} AND "providerId" = ${providerId} AND "expiresAt" > now()`;
      return rows === 1;
    },
  };
}

export function pgReplays(db: Db, providerId: string): ReplayStore {
  return {
    async seen(id, expiresAt) {
      // Old rows go as new ones come: nothing else needs to clean up.
      await db.$executeRaw`DELETE FROM "SamlAssertion" WHERE "expiresAt" < now() - interval '1 hour'`;
      const inserted = await db.$executeRaw`INSERT INTO "SamlAssertion" ("id", "expiresAt") VALUES (${`${providerId}:${id}`}, ${expiresAt}) ON CONFLICT DO NOTHING`;
      return inserted === 0;
    },
  };
}
