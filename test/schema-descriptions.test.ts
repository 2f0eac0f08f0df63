/**
 * The schema explains itself: every type, field, argument, input field and enum value is
 * described, as `npm run lint:schema` (graphql-eslint's require-description) also checks on the
 * printed schema.graphql. A new one without a description fails here, naming it.
 * Types are told apart by shape, not graphql's `is…Type`: vitest may load another build of graphql
 * than the schema's (see http/yoga.ts).
 */
import { describe, expect, it } from 'vitest';
import { schema } from '../src/schema/index.js';

type Described = { name: string; description?: string | null };
type Field = Described & { args?: readonly Described[] };
type NamedType = Described & { getFields?: () => Record<string, Field>; getValues?: () => readonly Described[] };
type Kind = 'field' | 'argument' | 'enumValue';

const BUILT_IN_SCALARS = ['String', 'Int', 'Float', 'Boolean', 'ID'];
const ownTypes: NamedType[] = Object.values(schema.getTypeMap()).filter((t) => !t.name.startsWith('__') && !BUILT_IN_SCALARS.includes(t.name));

function undescribed(type: NamedType): { kind: Kind; name: string }[] {
  const found: { kind: Kind; name: string }[] = [];
  for (const field of Object.values(type.getFields?.() ?? {})) {
    if (!field.description) found.push({ kind: 'field', name: `${type.name}.${field.name}` });
    for (const arg of field.args ?? []) if (!arg.description) found.push({ kind: 'argument', name: `${type.name}.${field.name}(${arg.name})` });
  }
  for (const value of type.getValues?.() ?? []) if (!value.description) found.push({ kind: 'enumValue', name: `${type.name}.${value.name}` });
  return found;
}

describe('schema descriptions', () => {
  it('describes every type', () => {
    expect(ownTypes.filter((t) => !t.description).map((t) => t.name)).toEqual([]);
  });

  it('describes every query, mutation and subscription', () => {
    const roots = [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!];
    const fields = roots.flatMap((root) => Object.values(root.getFields()).map((field) => ({ root: root.name, field })));
    expect(fields.length).toBeGreaterThan(100);
    expect(fields.filter(({ field }) => !field.description).map(({ root, field }) => `${root}.${field.name}`)).toEqual([]);
  });

  it('describes the connections: their types, fields and paging arguments', () => {
    const connectionTypes = ownTypes.filter((t) => /(Connection|ConnectionEdge|Edge)$/.test(t.name) || t.name === 'PageInfo');
    expect(connectionTypes.length).toBeGreaterThan(50);
    expect(connectionTypes.flatMap(undescribed).map((u) => u.name)).toEqual([]);
    const pagingArgs = ownTypes.flatMap(undescribed).filter((u) => u.kind === 'argument' && /\((after|before|first|last)\)$/.test(u.name));
    expect(pagingArgs).toEqual([]);
  });

  it('describes every field, argument, input field and enum value', () => {
    const all = ownTypes.flatMap((type) => [...Object.values(type.getFields?.() ?? {}), ...(type.getValues?.() ?? [])]);
    expect(all.length).toBeGreaterThan(1000);
    expect(ownTypes.flatMap(undescribed).map((u) => `${u.kind} ${u.name}`)).toEqual([]);
  });
});
