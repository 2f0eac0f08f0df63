/** The documented list envelope over a short list held whole (a site's sections or site spaces): `page` and `limit` as offsets. */
import { badRequest, AppError } from '../lib/errors.js';
import { arrayConnection } from '../schema/connection.js';
import { listOf, pageArgs } from './route.js';

export function arrayPage<N, T>(items: N[], query: URLSearchParams, present: (node: N) => T) {
  try {
    return listOf(arrayConnection(pageArgs(query), items as (N & {})[]) as never, present);
  } catch (error) {
    // The connection names its argument (`after`); REST calls it `page`.
    if (error instanceof AppError && error.field === 'after') throw badRequest('Invalid value for "page": not a cursor of this list', 'page');
    throw error;
  }
}
