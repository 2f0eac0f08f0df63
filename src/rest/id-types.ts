/**
 * REST bodies are JSON, where an ID is a string. GraphQL's ID type also accepts integers (and
 * turns them into strings), so `{"parent": 123}` would reach the resolvers as "123" and answer
 * 404. REST refuses it instead: a 400 naming the field, before the operation runs.
 */
import { print, type DocumentNode, type GraphQLSchema } from 'graphql';

type Field = { type: unknown };
const fieldsOf = (schema: GraphQLSchema, name: string) => {
  const type = schema.getType(name) as { getFields?: () => Record<string, Field> } | undefined;
  // Input objects have fields; scalars and enums do not.
  return type && typeof type.getFields === 'function' ? type.getFields() : undefined;
};

/** The first place in `value` (of GraphQL type `type`, printed) where an ID is not a string. */
function misplacedId(schema: GraphQLSchema, type: string, value: unknown, path: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  const nullable = type.endsWith('!') ? type.slice(0, -1) : type;
  if (nullable.startsWith('[')) {
    const inner = nullable.slice(1, -1);
    const items = Array.isArray(value) ? value : [value];
    for (let i = 0; i < items.length; i++) {
      const found = misplacedId(schema, inner, items[i], Array.isArray(value) ? `${path}[${i}]` : path);
      if (found) return found;
    }
    return undefined;
  }
  if (nullable === 'ID') return typeof value === 'string' ? undefined : path;
  const fields = fieldsOf(schema, nullable);
  if (!fields || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const field = fields[key];
    const found = field && misplacedId(schema, String(field.type), item, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}

/**
 * A check of an operation's variables: the REST name of the first ID given as something other
 * than a string (the `input` variable's fields by their own names), or undefined.
 */
export function idTypeCheck(schema: GraphQLSchema, document: DocumentNode): (variables: Record<string, unknown>) => string | undefined {
  const definitions = document.definitions.flatMap((d) => (d.kind === 'OperationDefinition' ? (d.variableDefinitions ?? []) : []));
  const types = definitions.map((d) => ({ name: d.variable.name.value, type: print(d.type) }));
  return (variables) => {
    for (const { name, type } of types) {
      const found = misplacedId(schema, type, variables[name], name === 'input' ? '' : name);
      if (found !== undefined) return found || name;
    }
    return undefined;
  };
}
