/**
 * PostGraphile 5's reads A, B and C of the benchmark organization (scripts/bench-org.ts): their
 * GraphQL documents and what their answers must hold, in one place for bench-throughput.ts (which
 * imports them) and bench-postgraphile.sh (which runs this file with its Node 24, types stripped;
 * so: no imports, erasable TypeScript only):
 *   node postgraphile-reads.ts SIZE ORG_ID SPACE_ID            one line per read: its name, a tab, its JSON request body
 *   node postgraphile-reads.ts SIZE ORG_ID SPACE_ID check A    the answer to read A on stdin: prints what is wrong with it, nothing when right
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `body`: the POST /graphql body; `check`: what is wrong with the answer, or undefined when it is the expected one. */
export type PostgraphileRead = { name: string; body: string; check(answer: any): string | undefined };

export function postgraphileReads(size: number, { orgId, spaceId }: { orgId: string; spaceId: string }): PostgraphileRead[] {
  const read = (name: string, query: string, id: string, holds: (d: any) => boolean): PostgraphileRead => ({
    name,
    body: JSON.stringify({ query, variables: { id } }),
    check: (d) => (holds(d) ? undefined : JSON.stringify(d).slice(0, 300)),
  });
  return [
    read('A  PostGraphile spaceByRowId', 'query($id: String!) { spaceByRowId(rowId: $id) { rowId title emoji visibility createdAt updatedAt } }', spaceId, (d) => d.data?.spaceByRowId?.rowId === spaceId),
    read(
      `B  PostGraphile org → ${size} collections → ${size} spaces`,
      `query($id: String!) { organizationByRowId(rowId: $id) { collectionsByOrganizationId(first: ${size}, orderBy: POSITION_ASC) { edges { node { rowId title spacesByParentId(first: ${size}, orderBy: POSITION_ASC, condition: {deletedAt: null}) { edges { node { rowId title } } } } } } } }`,
      orgId,
      (d) => d.data?.organizationByRowId?.collectionsByOrganizationId.edges.filter((c: any) => c.node.spacesByParentId.edges.length === size).length === size,
    ),
    read(
      'C  PostGraphile org → 100 spaces (REST columns)',
      'query($id: String!) { organizationByRowId(rowId: $id) { spacesByOrganizationId(first: 100, orderBy: CREATED_AT_ASC, condition: {deletedAt: null}) { edges { node { rowId title emoji visibility editMode defaultLevel createdAt updatedAt deletedAt organizationId parentId revisionId } } } } }',
      orgId,
      (d) => d.data?.organizationByRowId?.spacesByOrganizationId.edges.length === 100,
    ),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [size, orgId, spaceId, command, letter] = process.argv.slice(2);
  const reads = postgraphileReads(Number(size), { orgId, spaceId });
  if (command === 'check') {
    const text = readFileSync(0, 'utf8');
    let failure: string | undefined;
    try {
      failure = reads.find((r) => r.name[0] === letter)!.check(JSON.parse(text));
    } catch {
      failure = `unreadable answer: ${text.slice(0, 300)}`;
    }
    if (failure) console.log(failure);
  } else for (const r of reads) console.log(`${r.name}\t${r.body}`);
}
