/**
 * What a request selects of a connection's nodes, so a list reads only the columns its nodes
 * need (see spaces/rows.ts CORE_SPACE_COLUMNS).
 */
import { getArgumentValues, type FieldNode, type FragmentDefinitionNode, type GraphQLObjectType, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

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

/** The fields selected on `edges { node { … } }` of a connection's field nodes, by name. */
function nodeFields(fieldNodes: readonly FieldNode[], fragments: Record<string, FragmentDefinitionNode>): Map<string, FieldNode[]> {
  const edges = children(fieldNodes, fragments).get('edges') ?? [];
  return children(children(edges, fragments).get('node') ?? [], fragments);
}

/** Names of the fields selected on `edges { node { … } }` of the connection being resolved (or of `fieldNodes`). */
export function selectedNodeFields(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): Set<string> {
  return new Set(nodeFields(info.fieldNodes, info.fragments).keys());
}

/**
 * A connection selected on the nodes of the connection being resolved — `spaces` in
 * `collections { edges { node { spaces(first: 20) { … } } } }` — with its arguments, when it is
 * selected under one response name (its field nodes are then those its own resolver will get).
 */
export function nestedConnection(info: GraphQLResolveInfo, nodeType: string, field: string): { args: Record<string, unknown>; fieldNodes: FieldNode[] } | undefined {
  const fieldNodes = nodeFields(info.fieldNodes, info.fragments).get(field);
  const definition = (info.schema.getType(nodeType) as GraphQLObjectType | undefined)?.getFields()[field];
  if (!fieldNodes || !definition) return undefined;
  const responseName = (node: FieldNode) => node.alias?.value ?? node.name.value;
  if (fieldNodes.some((node) => responseName(node) !== responseName(fieldNodes[0]))) return undefined;
  try {
    return { args: getArgumentValues(definition, fieldNodes[0], info.variableValues), fieldNodes };
  } catch {
    return undefined; // arguments its own resolver will refuse, in its own words
  }
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
