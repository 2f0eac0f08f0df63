/**
 * Pages of a site's short ordered lists — its sections, section groups, root site spaces — cut
 * from the whole list the loaders read (one statement for every site of a request; a site holds
 * tens of each). Keyset pages all the same: the cursor is the row's (position, id), the lists'
 * sibling order (order.ts), so paging stays stable while items are added, moved or removed, as
 * every other connection's does; a cursor of another list (or another site) is a 400.
 */
import { Prisma } from '../../../../generated/prisma/client.js';
import { counted, type CountedPage } from '../../../kernel/pagination/counted.js';
import { planPage, toPage, type PageArgs, type SortKey } from '../../../kernel/pagination/keyset.js';
import { bySiblingOrder } from '../order.js';

type Sibling = { id: string; position: string };

const { raw } = Prisma;

/** `tag` names the list and its parent (`sections:<siteId>`): cursors are refused elsewhere. */
export function siblingsPage<Row extends Sibling>(tag: string, rows: readonly Row[], args: PageArgs): CountedPage<Row> {
  const key: SortKey<Row> = {
    tag: `site-siblings:${tag}`,
    columns: [
      { sql: raw('"position"'), type: 'text' },
      { sql: raw('"id"'), type: 'text' },
    ],
    keyOf: (row) => [row.position, row.id],
  };
  const plan = planPage(key, args);
  const asRow = (values: unknown[] | undefined) => values && { position: String(values[0]), id: String(values[1]) };
  const after = asRow(plan.after);
  const before = asRow(plan.before);
  const sorted = [...rows].sort(bySiblingOrder);
  const within = sorted.filter((row) => (!after || bySiblingOrder(row, after) > 0) && (!before || bySiblingOrder(row, before) < 0));
  // In the order a statement would read them (backwards for `last`), one more than the page.
  const read = (plan.backward ? within.reverse() : within).slice(0, plan.size + 1);
  return counted(toPage(key, plan, read), rows.length);
}
