/**
 * A real database client whose raw reads ($queryRaw and $queryRawUnsafe: organizations, spaces,
 * lists) behave otherwise; the API-token lookup (also a raw read) is left alone, so that requests
 * still authenticate.
 */
import type { Db } from '../../src/db/client.js';

type QueryRaw = Db['$queryRaw'];

/** The SQL text of a `$queryRaw` call (tagged template or Prisma.Sql) or a `$queryRawUnsafe` one. */
function textOf(args: unknown[]): string {
  const [first] = args as [unknown];
  if (typeof first === 'string') return first;
  if (Array.isArray(first)) return first.join('?');
  return (first as { text?: string })?.text ?? '';
}

/**
 * `db`, with `$queryRaw` and `$queryRawUnsafe` replaced by `replace(original)` (everything else,
 * and token lookups, untouched); `original` runs the call as it was made.
 */
export function withQueryRaw(db: Db, replace: (original: QueryRaw) => (...args: Parameters<QueryRaw>) => unknown): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== '$queryRaw' && prop !== '$queryRawUnsafe') return value;
      const original = (value as QueryRaw).bind(target) as QueryRaw;
      const replaced = replace(original);
      return (...args: Parameters<QueryRaw>) => (textOf(args).includes('FROM "ApiToken"') ? original(...args) : replaced(...args));
    },
  });
}
