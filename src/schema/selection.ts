/**
 * What a request selects of a connection's nodes, so a list reads only the columns its nodes
 * need (see spaces/rows.ts CORE_SPACE_COLUMNS).
 */
import { Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLObjectType, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

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
export function nestedConnection(info: Selection, nodeType: string, field: string): SelectedField | undefined {
  return selectedField(info, nodeType, field, nodeFields(info.fieldNodes, info.fragments).get(field));
}

/** A field selected directly on the object being resolved (`collections` in `organization { collections(…) }`), as nestedConnection. */
export function childField(info: Selection, type: string, field: string): SelectedField | undefined {
  return selectedField(info, type, field, children(info.fieldNodes, info.fragments).get(field));
}

/** What a lookahead needs of a resolver's info (a SelectedField's `selection` is one too). */
export type Selection = Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments' | 'schema' | 'variableValues'>;
export type SelectedField = { args: Record<string, unknown>; fieldNodes: FieldNode[]; selection: Selection };

function selectedField(info: Selection, type: string, field: string, fieldNodes: FieldNode[] | undefined): SelectedField | undefined {
  const definition = (info.schema.getType(type) as GraphQLObjectType | undefined)?.getFields()[field];
  if (!fieldNodes || !definition) return undefined;
  const responseName = (node: FieldNode) => node.alias?.value ?? node.name.value;
  if (fieldNodes.some((node) => responseName(node) !== responseName(fieldNodes[0]))) return undefined;
  const args = scalarArguments(definition, fieldNodes[0], info.variableValues);
  return args && { args, fieldNodes, selection: { ...info, fieldNodes } };
}

/**
 * A field's arguments when each is a scalar literal, a variable or absent (defaults applied);
 * undefined otherwise. graphql-js's getArgumentValues would do, but it recognises types with
 * `instanceof`, which fails when the schema was built with another copy of graphql (vitest loads
 * two).
 */
function scalarArguments(definition: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown>): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  for (const arg of definition.args) {
    const value = node.arguments?.find((a) => a.name.value === arg.name)?.value;
    if (!value || (value.kind === Kind.VARIABLE && variables[value.name.value] === undefined)) {
      if (arg.defaultValue !== undefined) args[arg.name] = arg.defaultValue;
    } else if (value.kind === Kind.VARIABLE) args[arg.name] = variables[value.name.value];
    else if (value.kind === Kind.INT) args[arg.name] = Number.parseInt(value.value, 10);
    else if (value.kind === Kind.STRING || value.kind === Kind.BOOLEAN) args[arg.name] = value.value;
    else if (value.kind === Kind.NULL) args[arg.name] = null;
    else return undefined;
  }
  return args;
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
