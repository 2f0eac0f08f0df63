/**
 * A bound on the fields one selection set may hold, fragments spread into it included. graphql-js
 * checks that fields of one response name can be merged by comparing them pairwise: a 30 KB
 * document repeating one field 5,000 times (within the token limit) kept the server busy for
 * seconds. Counting first, in one linear pass, refuses such documents before that check runs.
 */
import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

/** The largest number of fields any selection set of `document` holds once its fragments are spread. */
export function widestSelection(document: DocumentNode): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const spreadWidth = new Map<string, number>(); // memo: fields a fragment adds where it is spread
  let widest = 0;

  /** Fields `set` contributes to its own level; records the widest nested level on the way. */
  const width = (set: SelectionSetNode, visiting: Set<string>): number => {
    let fields = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        fields++;
        if (selection.selectionSet) {
          const inner = width(selection.selectionSet, visiting);
          widest = Math.max(widest, inner);
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        fields += width(selection.selectionSet, visiting);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || visiting.has(name)) continue; // unknown or cyclic: validation says so
        if (!spreadWidth.has(name)) spreadWidth.set(name, width(fragment.selectionSet, new Set([...visiting, name])));
        fields += spreadWidth.get(name)!;
      }
    }
    return fields;
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      const top = width(definition.selectionSet, new Set());
      widest = Math.max(widest, top);
    }
  }
  return widest;
}

export function useMaxSelectionBreadth(maxFields: number): Plugin {
  // Documents already measured (the parse cache hands out the same document for the same text).
  const measured = new WeakMap<DocumentNode, number>();
  return {
    onValidate({ params, setResult }) {
      let widest = measured.get(params.documentAST);
      if (widest === undefined) measured.set(params.documentAST, (widest = widestSelection(params.documentAST)));
      if (widest > maxFields) {
        setResult([createGraphQLError(`A selection set holds ${widest} fields (fragments included); at most ${maxFields} are allowed`, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } })]);
      }
    },
  };
}
