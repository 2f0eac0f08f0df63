/** A real database client whose raw reads ($queryRaw: organizations, spaces, lists) behave otherwise. */
import type { Db } from '../../src/db/client.js';

type QueryRaw = Db['$queryRaw'];

/** `db`, with `$queryRaw` replaced by `replace(original)` (everything else untouched). */
export function withQueryRaw(db: Db, replace: (original: QueryRaw) => (...args: Parameters<QueryRaw>) => unknown): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      return prop === '$queryRaw' ? replace((value as QueryRaw).bind(target)) : value;
    },
  });
}
