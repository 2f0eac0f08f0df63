/**
 * A page with its list's total: a list's count comes from the domain with its rows, read only
 * when asked for (GraphQL `totalCount`, REST `count`), so resolvers count nothing themselves.
 */
import type { Page } from './keyset.js';

/** A total, or how to read it (called only when the total is selected). */
export type Count = number | (() => Promise<number> | number);

export type CountedPage<Row> = Page<Row> & { totalCount: Count };

/** `page` with its list's total (a new object: pages may be cached by loaders). */
export const counted = <Row>(page: Page<Row>, totalCount: Count): CountedPage<Row> => ({ ...page, totalCount });

/**
 * The one rule of what a reader counts of a list of content. A member with an organization role
 * sees every live item, so the list's counter (kept on the parent row) is its total; a guest sees
 * only what their grants reach, so their total is a COUNT with the list's own predicate. Also
 * used for another member's list (their spaces): `guest` is then that member's.
 */
export const countFor = (reader: { guest: boolean }, counts: { member: number; guest: () => Promise<number> }): Count => (reader.guest ? counts.guest : counts.member);

/** An empty page (a list that reads nothing: e.g. a disabled member's spaces), counted 0. */
export const emptyPage = <Row>(): CountedPage<Row> => ({ rows: [], hasNextPage: false, hasPreviousPage: false, cursorOf: () => '', totalCount: 0 });
