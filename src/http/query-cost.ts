/**
 * The cost of a GraphQL operation: how many objects its answer may hold, at most. Each object
 * field costs the number of times it can be resolved — the product of the page sizes of the lists
 * above it (`first`/`last`, from literals or variables; a connection without them pages by the
 * default size) — so `spaces(first: 1000) { … aggregatedUsers(first: 1000) }` costs about two
 * million and is refused before anything runs, while a page of 20 collections of 20 spaces costs
 * under a thousand. Scalars are free: the size of a document is bounded by the token limit.
 * Computed in time linear in the document: once per document when no page size comes from a
 * variable, otherwise per execution (variables change the cost).
 */
import {
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { DEFAULT_PAGE_SIZE } from '../domain/kernel/pagination/keyset.js';

type Variables = Record<string, unknown> | null | undefined;

/** A `first`/`last` argument's value, when it is a usable number; `fromVariable` is told when a variable gave it. */
function pageSizeOf(value: ValueNode, variables: Variables, fromVariable: () => void): number | undefined {
  if (value.kind === Kind.VARIABLE) fromVariable();
  const raw = value.kind === Kind.VARIABLE ? variables?.[value.name.value] : value.kind === Kind.INT ? Number(value.value) : undefined;
  return typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 ? raw : undefined;
}

const isConnection = (type: GraphQLNamedType) => type.name.endsWith('Connection');

// Types are read by their printed form and duck typing, not graphql's `is…Type` checks: those use
// `instanceof`, and the schema may come from the other of graphql's CJS and ESM builds.
const isList = (field: GraphQLField<unknown, unknown>) => String(field.type).replace(/!$/, '').startsWith('[');
const namedTypeOf = (schema: GraphQLSchema, field: GraphQLField<unknown, unknown>) => schema.getType(String(field.type).replace(/[[\]!]/g, ''));
const fieldsOf = (type: GraphQLNamedType | undefined | null) =>
  type && 'getFields' in type && typeof type.getFields === 'function' ? (type.getFields() as Record<string, GraphQLField<unknown, unknown>>) : undefined;

/** Costs that no variable changes, by document and operation name (REST's documents are parsed once). */
const staticCosts = new WeakMap<DocumentNode, Map<string, number>>();

export function operationCost(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: Variables): number {
  const known = staticCosts.get(document)?.get(operationName ?? '');
  if (known !== undefined) return known;
  let variable = false;
  const cost = computeCost(schema, document, operationName, variables, () => (variable = true));
  if (!variable) {
    const costs = staticCosts.get(document) ?? new Map<string, number>();
    costs.set(operationName ?? '', cost);
    staticCosts.set(document, costs);
  }
  return cost;
}

function computeCost(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: Variables, fromVariable: () => void): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION && (!operationName || definition.name?.value === operationName)) operation ??= definition;
  }
  if (!operation) return 0;
  const root = schema.getRootType(operation.operation);
  if (!root) return 0;

  /** `times`: how often this selection set is resolved; `pageSize`: the size of its lists. */
  const costOf = (selectionSet: SelectionSetNode, parent: GraphQLNamedType, times: number, pageSize: number, spread: Set<string>): number => {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? (schema.getType(selection.typeCondition.name.value) ?? parent) : parent;
        cost += costOf(selection.selectionSet, type, times, pageSize, spread);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || spread.has(fragment.name.value)) continue; // validation refuses cycles
        const type = schema.getType(fragment.typeCondition.name.value) ?? parent;
        cost += costOf(fragment.selectionSet, type, times, pageSize, new Set([...spread, fragment.name.value]));
        continue;
      }
      const field = selection.selectionSet && fieldsOf(parent)?.[selection.name.value];
      if (!field) continue;
      const type = namedTypeOf(schema, field) ?? parent;
      const resolved = isList(field) ? times * pageSize : times;
      let size: number | undefined;
      for (const argument of selection.arguments ?? []) {
        if (argument.name.value === 'first' || argument.name.value === 'last') size = Math.max(size ?? 0, pageSizeOf(argument.value, variables, fromVariable) ?? 0);
      }
      if (size === undefined && isConnection(type)) size = DEFAULT_PAGE_SIZE;
      cost += resolved + costOf(selection.selectionSet!, type, resolved, size ?? 1, spread);
    }
    return cost;
  };
  return costOf(operation.selectionSet, root, 1, 1, new Set());
}

/** Refuses operations whose cost is over `maxCost`, before they run (HTTP, REST and WebSocket alike). */
export function useQueryCostLimit(maxCost: number): Plugin {
  const refuse = (cost: number) =>
    createGraphQLError(`Query cost ${cost} exceeds the limit of ${maxCost} (the cost counts the objects an answer may hold: ask for smaller pages, first/last, or fewer nested lists)`, {
      extensions: { code: 'BAD_REQUEST', cost, maxCost, http: { status: 400 } },
    });
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = operationCost(args.schema, args.document, args.operationName, args.variableValues);
      if (cost > maxCost) setResultAndStopExecution({ errors: [refuse(cost)] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const cost = operationCost(args.schema, args.document, args.operationName, args.variableValues);
      if (cost > maxCost) setResultAndStopExecution({ errors: [refuse(cost)] });
    },
  };
}
