/**
 * What a request selects of a connection's nodes, so a list reads only the columns its nodes
 * need (see spaces/rows.ts CORE_SPACE_COLUMNS).
 */
import type { FieldNode, FragmentDefinitionNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';

function fieldNames(set: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, into: Map<string, FieldNode[]>): void {
  for (const selection of set?.selections ?? []) {
    if (selection.kind === 'Field') into.set(selection.name.value, [...(into.get(selection.name.value) ?? []), selection]);
    else if (selection.kind === 'InlineFragment') fieldNames(selection.selectionSet, fragments, into);
    else fieldNames(fragments[selection.name.value]?.selectionSet, fragments, into);
  }
}

function children(nodes: readonly FieldNode[], fragments: Record<string, FragmentDefinitionNode>): Map<string, FieldNode[]> {
  const into = new Map<string, FieldNode[]>();
  for (const node of nodes) fieldNames(node.selectionSet, fragments, into);
  return into;
}

/** Names of the fields selected on `edges { node { … } }` of the connection being resolved. */
export function selectedNodeFields(info: GraphQLResolveInfo): Set<string> {
  const edges = children(info.fieldNodes, info.fragments).get('edges') ?? [];
  const nodes = children(edges, info.fragments).get('node') ?? [];
  return new Set(children(nodes, info.fragments).keys());
}

/**
 * The columns the selected fields need, beyond those every row carries: `needs` maps each field
 * to its columns; a field it does not list (one added later) gets `all`, never too few.
 */
export function columnsFor<Column extends string>(fields: Set<string>, needs: Record<string, readonly Column[]>, all: readonly Column[]): Column[] {
  const out = new Set<Column>();
  for (const field of fields) {
    const columns = Object.hasOwn(needs, field) ? needs[field] : all;
    for (const c of columns) out.add(c);
  }
  return [...out].sort();
}
