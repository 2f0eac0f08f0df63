/** Three-way merge of revision entities and their page tree (src/lib/merge). Pure: no database. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BlockNode, JSONDocument } from '../src/lib/documents/types.js';
import { mergeEntities, type EntityMerge, type EntityVersion, type EntityVersions, type MergeEntitiesInput } from '../src/lib/merge/index.js';
import { deepEqual } from '../src/lib/merge/equal.js';

type Revision = Map<string, EntityVersion>;

const p = (key: string, value: string = key): BlockNode => ({ object: 'block', type: 'paragraph', key, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] }] });
const doc = (...nodes: BlockNode[]): JSONDocument => ({ object: 'document', data: {}, nodes });

function page(id: string, over: Partial<EntityVersion> & { title?: string; type?: string } = {}): [string, EntityVersion] {
  const { title, type, ...rest } = over;
  return [id, { kind: 'page', parentId: null, position: 'a0', slug: id, fields: { title: title ?? id, type: type ?? 'document' }, document: doc(p('b1'), p('b2')), ...rest }];
}
const file = (id: string, name: string): [string, EntityVersion] => [id, { kind: 'file', parentId: null, position: '', slug: '', fields: { name, size: 1 }, document: null }];
const rev = (...entries: [string, EntityVersion][]): Revision => new Map(entries);
/** A copy of a revision entry with changes. */
const change = (revision: Revision, id: string, over: Partial<EntityVersion> & { fields?: Record<string, unknown> }): [string, EntityVersion] => {
  const v = revision.get(id)!;
  return [id, { ...v, ...over, fields: { ...v.fields, ...over.fields } }];
};
const without = (revision: Revision, ...ids: string[]): [string, EntityVersion][] => [...revision].filter(([id]) => !ids.includes(id));
const replace = (revision: Revision, ...entries: [string, EntityVersion][]): Revision => {
  const copy = new Map(revision);
  for (const [id, v] of entries) copy.set(id, v);
  return copy;
};

/** The merge input from three whole revisions: touched = changed on a side; the rest read from base. */
function inputOf(base: Revision, ours: Revision, theirs: Revision, withChildren = true): MergeEntitiesInput {
  const touched = new Map<string, EntityVersions>();
  for (const id of new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])) {
    const versions = { base: base.get(id) ?? null, ours: ours.get(id) ?? null, theirs: theirs.get(id) ?? null };
    if (!deepEqual(versions.base, versions.ours) || !deepEqual(versions.base, versions.theirs)) touched.set(id, versions);
  }
  return {
    touched,
    parentOf: (id) => (touched.has(id) ? (() => { throw new Error(`parentOf(${id}) asked for a touched entity`); })() : base.get(id)?.parentId),
    ...(withChildren
      ? { childrenOf: (parentId: string | null) => [...base].filter(([id, v]) => v.kind === 'page' && v.parentId === parentId && !touched.has(id)).map(([id, v]) => ({ id, slug: v.slug })) }
      : {}),
  };
}
const merge = (base: Revision, ours: Revision, theirs: Revision, withChildren = true) => mergeEntities(inputOf(base, ours, theirs, withChildren));
const summary = (result: EntityMerge) => result.conflicts.map((c) => [c.entityId, c.reason, ...(c.field ? [c.field] : [])]).sort();

const base = rev(page('A', { position: 'a0' }), page('B', { position: 'a1' }), page('C', { position: 'a0', parentId: 'A' }), page('G', { position: 'a2', type: 'group' }), file('F', 'logo.png'));

type Case = {
  name: string;
  ours: Revision;
  theirs: Revision;
  base?: Revision;
  /** Expected merged versions (null = absent) of some entities. */
  merged?: Record<string, EntityVersion | null>;
  /** Expected conflicts as [entityId, reason, field?], in any order. */
  conflicts?: string[][];
  /** Run without `childrenOf`. */
  noChildren?: boolean;
};

const cases: Case[] = [
  {
    name: 'edits to different pages merge',
    ours: replace(base, change(base, 'A', { fields: { title: 'Alpha' } })),
    theirs: replace(base, change(base, 'B', { fields: { emoji: '🙂' } })),
    merged: { A: change(base, 'A', { fields: { title: 'Alpha' } })[1], B: change(base, 'B', { fields: { emoji: '🙂' } })[1] },
  },
  {
    name: 'edits to different fields of one page merge',
    ours: replace(base, change(base, 'A', { fields: { title: 'Alpha' } })),
    theirs: replace(base, change(base, 'A', { fields: { description: 'first' }, slug: 'alpha' })),
    merged: { A: change(base, 'A', { fields: { title: 'Alpha', description: 'first' }, slug: 'alpha' })[1] },
  },
  {
    name: 'the same field changed alike on both sides',
    ours: replace(base, change(base, 'A', { fields: { title: 'Alpha' } })),
    theirs: replace(base, change(base, 'A', { fields: { title: 'Alpha' } })),
    merged: { A: change(base, 'A', { fields: { title: 'Alpha' } })[1] },
  },
  {
    name: 'a field changed differently is a field conflict naming it (ours kept)',
    ours: replace(base, change(base, 'A', { fields: { title: 'Ours', emoji: '🙂' } })),
    theirs: replace(base, change(base, 'A', { fields: { title: 'Theirs' } })),
    merged: { A: change(base, 'A', { fields: { title: 'Ours', emoji: '🙂' } })[1] },
    conflicts: [['A', 'field', 'title']],
  },
  {
    name: 'a field removed on one side, unchanged on the other: removed',
    ours: replace(base, [ 'A', { ...base.get('A')!, fields: { type: 'document' } }]),
    theirs: replace(base, change(base, 'A', { position: 'a05' })),
    merged: { A: { ...base.get('A')!, position: 'a05', fields: { type: 'document' } } },
  },
  {
    name: 'a slug changed differently is a field conflict',
    ours: replace(base, change(base, 'A', { slug: 'one' })),
    theirs: replace(base, change(base, 'A', { slug: 'two' })),
    conflicts: [['A', 'field', 'slug']],
  },
  {
    name: 'a file renamed differently',
    ours: replace(base, file('F', 'a.png')),
    theirs: replace(base, file('F', 'b.png')),
    conflicts: [['F', 'field', 'name']],
  },
  {
    name: 'created on one side: kept',
    ours: replace(base, page('N', { parentId: 'A', position: 'a1' })),
    theirs: base,
    merged: { N: page('N', { parentId: 'A', position: 'a1' })[1] },
  },
  {
    name: 'created on both sides alike: kept',
    ours: replace(base, page('N')),
    theirs: replace(base, page('N')),
    merged: { N: page('N')[1] },
  },
  {
    name: 'created on both sides differently: edit-edit',
    ours: replace(base, page('N', { title: 'one' })),
    theirs: replace(base, page('N', { title: 'two' })),
    merged: { N: page('N', { title: 'one' })[1] },
    conflicts: [['N', 'edit-edit']],
  },
  { name: 'deleted on one side, unchanged on the other: deleted', ours: rev(...without(base, 'B')), theirs: base, merged: { B: null } },
  { name: 'deleted on both sides', ours: rev(...without(base, 'B')), theirs: rev(...without(base, 'B')), merged: { B: null } },
  {
    name: 'deleted on one side, a field changed on the other: delete-edit',
    ours: rev(...without(base, 'B')),
    theirs: replace(base, change(base, 'B', { fields: { title: 'Bee' } })),
    merged: { B: null },
    conflicts: [['B', 'delete-edit']],
  },
  {
    name: 'deleted on one side, moved on the other: delete-edit',
    ours: replace(base, change(base, 'B', { parentId: 'A', position: 'a1' })),
    theirs: rev(...without(base, 'B')),
    merged: { B: change(base, 'B', { parentId: 'A', position: 'a1' })[1] },
    conflicts: [['B', 'delete-edit']],
  },
  {
    name: 'deleted on one side, body edited on the other: delete-edit',
    ours: rev(...without(base, 'B')),
    theirs: replace(base, change(base, 'B', { document: doc(p('b1', 'new'), p('b2')) })),
    conflicts: [['B', 'delete-edit']],
  },
  {
    name: 'moved on one side, edited on the other',
    ours: replace(base, change(base, 'B', { parentId: 'A', position: 'a1' })),
    theirs: replace(base, change(base, 'B', { fields: { title: 'Bee' } })),
    merged: { B: change(base, 'B', { parentId: 'A', position: 'a1', fields: { title: 'Bee' } })[1] },
  },
  {
    name: 'both sides moving a page to different parents: move-move (ours kept)',
    ours: replace(base, change(base, 'B', { parentId: 'A', position: 'a1' })),
    theirs: replace(base, change(base, 'B', { parentId: 'C', position: 'a0' })),
    merged: { B: change(base, 'B', { parentId: 'A', position: 'a1' })[1] },
    conflicts: [['B', 'move-move']],
  },
  {
    name: 'both sides moving a page under the same parent at different positions: ours position, no conflict',
    ours: replace(base, change(base, 'B', { parentId: 'A', position: 'a1' })),
    theirs: replace(base, change(base, 'B', { parentId: 'A', position: 'Zz' })),
    merged: { B: change(base, 'B', { parentId: 'A', position: 'a1' })[1] },
  },
  {
    name: 'both sides moving a page to the same place',
    ours: replace(base, change(base, 'B', { parentId: 'A', position: 'a1' })),
    theirs: replace(base, change(base, 'B', { parentId: 'A', position: 'a1', fields: { title: 'Bee' } })),
    merged: { B: change(base, 'B', { parentId: 'A', position: 'a1', fields: { title: 'Bee' } })[1] },
  },
  {
    name: 'bodies edited in different blocks merge',
    ours: replace(base, change(base, 'A', { document: doc(p('b1', 'ours'), p('b2')) })),
    theirs: replace(base, change(base, 'A', { document: doc(p('b1'), p('b2', 'theirs'), p('b3')) })),
    merged: { A: change(base, 'A', { document: doc(p('b1', 'ours'), p('b2', 'theirs'), p('b3')) })[1] },
  },
  {
    name: 'the same block edited differently: a document conflict',
    ours: replace(base, change(base, 'A', { document: doc(p('b1', 'ours'), p('b2')) })),
    theirs: replace(base, change(base, 'A', { document: doc(p('b1', 'theirs'), p('b2')), fields: { title: 'Alpha' } })),
    merged: { A: change(base, 'A', { document: doc(p('b1', 'ours'), p('b2')), fields: { title: 'Alpha' } })[1] },
    conflicts: [['A', 'document']],
  },
  {
    name: 'a body removed on one side and edited on the other: a document conflict',
    ours: replace(base, change(base, 'A', { document: null, fields: { type: 'link' } })),
    theirs: replace(base, change(base, 'A', { document: doc(p('b1', 'theirs'), p('b2')) })),
    conflicts: [['A', 'document']],
  },
  {
    name: 'a cycle: A moved under B on one side, B under A on the other',
    ours: replace(base, change(base, 'A', { parentId: 'B' })),
    theirs: replace(base, change(base, 'B', { parentId: 'A' })),
    conflicts: [['A', 'cycle'], ['B', 'cycle']],
  },
  {
    name: 'a cycle through an untouched page: B moved under C (child of A), A under B',
    ours: replace(base, change(base, 'B', { parentId: 'C' })),
    theirs: replace(base, change(base, 'A', { parentId: 'B' })),
    conflicts: [['A', 'cycle'], ['B', 'cycle']],
  },
  {
    name: 'an orphan: the parent deleted on one side, a child added under it on the other',
    ours: rev(...without(base, 'B')),
    theirs: replace(base, page('N', { parentId: 'B' })),
    merged: { B: null, N: page('N', { parentId: 'B' })[1] },
    conflicts: [['N', 'orphan']],
  },
  {
    name: 'an orphan: the parent deleted on one side, a page moved under it on the other',
    ours: rev(...without(base, 'A', 'C')),
    theirs: replace(base, change(base, 'B', { parentId: 'A' })),
    conflicts: [['B', 'orphan']],
  },
  {
    name: 'a path collision: two new sibling pages with one slug',
    ours: replace(base, page('N1', { slug: 'intro' })),
    theirs: replace(base, page('N2', { slug: 'intro' })),
    conflicts: [['N1', 'path'], ['N2', 'path']],
  },
  {
    name: 'a path collision: a rename on one side, a move on the other',
    ours: replace(base, change(base, 'B', { slug: 'C' })),
    theirs: replace(base, change(base, 'B', { parentId: 'A' })),
    conflicts: [['B', 'path']],
  },
  {
    name: 'a path collision with an untouched sibling goes unseen without childrenOf',
    ours: replace(base, change(base, 'B', { slug: 'C' })),
    theirs: replace(base, change(base, 'B', { parentId: 'A' })),
    noChildren: true,
  },
  {
    name: 'a path collision: a rename on each side',
    ours: replace(base, change(base, 'A', { slug: 'same' })),
    theirs: replace(base, change(base, 'B', { slug: 'same' })),
    conflicts: [['A', 'path'], ['B', 'path']],
  },
  {
    name: 'pages without a slug (links) never collide',
    ours: replace(base, page('L1', { slug: '', type: 'link', document: null })),
    theirs: replace(base, page('L2', { slug: '', type: 'link', document: null })),
  },
  {
    name: 'group-nesting: a page made a group on one side, moved down on the other',
    ours: replace(base, change(base, 'B', { fields: { type: 'group' } })),
    theirs: replace(base, change(base, 'B', { parentId: 'A' })),
    conflicts: [['B', 'group-nesting']],
  },
  {
    name: 'group-nesting: a group moved under a page',
    ours: replace(base, change(base, 'G', { parentId: 'A', position: 'a5' })),
    theirs: base,
    conflicts: [['G', 'group-nesting']],
  },
  {
    name: 'a page under a group is fine',
    ours: replace(base, change(base, 'B', { parentId: 'G' })),
    theirs: replace(base, change(base, 'B', { fields: { title: 'Bee' } })),
  },
];

describe('mergeEntities', () => {
  it.each(cases)('$name', ({ ours, theirs, base: b = base, merged, conflicts = [], noChildren }) => {
    const result = merge(b, ours, theirs, !noChildren);
    expect(summary(result)).toEqual(conflicts.map((c) => [...c]).sort());
    for (const [id, version] of Object.entries(merged ?? {})) expect(result.merged.get(id)).toEqual(version);
  });

  it('gives one merged entry per touched id, and nothing else', () => {
    const ours = rev(...without(base, 'B'), page('N'));
    const result = merge(base, ours, replace(base, change(base, 'A', { fields: { title: 'Alpha' } })));
    expect([...result.merged.keys()].sort()).toEqual(['A', 'B', 'N']);
  });

  it('attaches the block conflicts to a document conflict', () => {
    const ours = replace(base, change(base, 'A', { document: doc(p('b1', 'ours'), p('b2')) }));
    const theirs = replace(base, change(base, 'A', { document: doc(p('b1', 'theirs'), p('b2')) }));
    const [conflict] = merge(base, ours, theirs).conflicts;
    expect(conflict).toMatchObject({ entityId: 'A', kind: 'page', reason: 'document', base: base.get('A'), ours: ours.get('A'), theirs: theirs.get('A') });
    expect(conflict.blocks).toEqual([{ path: ['b1'], base: p('b1'), ours: p('b1', 'ours'), theirs: p('b1', 'theirs') }]);
  });

  it('carries the three versions and the kind on every conflict', () => {
    const result = merge(base, rev(...without(base, 'F')), replace(base, file('F', 'other.png')));
    expect(result.conflicts).toEqual([{ entityId: 'F', kind: 'file', reason: 'delete-edit', base: base.get('F'), ours: null, theirs: file('F', 'other.png')[1] }]);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over generated revisions and edits.

type Op =
  | { op: 'title'; target: number; value: string }
  | { op: 'body'; target: number; block: number; value: string }
  | { op: 'append'; target: number }
  | { op: 'move'; target: number; parent: number; position: string }
  | { op: 'position'; target: number; position: string }
  | { op: 'delete'; target: number }
  | { op: 'create'; parent: number; position: string }
  | { op: 'slug'; target: number; slug: string }
  | { op: 'file'; target: number; value: string };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('title' as const), target: fc.nat(), value: fc.constantFrom('X', 'Y') }),
  fc.record({ op: fc.constant('body' as const), target: fc.nat(), block: fc.nat(), value: fc.constantFrom('x', 'y') }),
  fc.record({ op: fc.constant('append' as const), target: fc.nat() }),
  { arbitrary: fc.record({ op: fc.constant('move' as const), target: fc.nat(), parent: fc.nat(), position: fc.constantFrom('a0', 'm', 'z') }), weight: 4 },
  fc.record({ op: fc.constant('position' as const), target: fc.nat(), position: fc.constantFrom('b', 'c') }),
  fc.record({ op: fc.constant('delete' as const), target: fc.nat() }),
  fc.record({ op: fc.constant('create' as const), parent: fc.nat(), position: fc.constantFrom('a', 'n') }),
  { arbitrary: fc.record({ op: fc.constant('slug' as const), target: fc.nat(), slug: fc.constantFrom('u', 'v') }), weight: 2 },
  fc.record({ op: fc.constant('file' as const), target: fc.nat(), value: fc.constantFrom('x.png', 'y.png') }),
);

/** A base revision: pages p0… each under an earlier page or at the top, files f0…. */
const baseArb = fc
  .record({ parents: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), files: fc.nat(2) })
  .map(({ parents, files }) => {
    const revision: Revision = new Map();
    parents.forEach((n, i) => {
      const parentId = n % (i + 1) === 0 ? null : `p${(n % (i + 1)) - 1}`;
      revision.set(`p${i}`, page(`p${i}`, { parentId, position: `a${i}` })[1]);
    });
    for (let i = 0; i < files; i++) revision.set(`f${i}`, file(`f${i}`, `f${i}.png`)[1]);
    return revision;
  });

/** Applies edits to a copy, keeping the tree valid (no cycle, unique slugs among siblings). */
function apply(revision: Revision, ops: Op[], side: string): Revision {
  const r = new Map(revision);
  let next = 0;
  const pages = () => [...r].filter(([, v]) => v.kind === 'page').map(([id]) => id);
  const pick = (ids: string[], n: number) => (ids.length ? ids[n % ids.length] : undefined);
  const descendants = (id: string): Set<string> => {
    const found = new Set([id]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [child, v] of r) if (v.parentId && found.has(v.parentId) && !found.has(child)) found.add(child), (grew = true);
    }
    return found;
  };
  const slugFree = (parentId: string | null, slug: string, self?: string) => ![...r].some(([id, v]) => id !== self && v.kind === 'page' && v.parentId === parentId && v.slug === slug);
  const set = (id: string, over: Partial<EntityVersion>) => r.set(id, { ...r.get(id)!, ...over });
  for (const o of ops) {
    if (o.op === 'title') {
      const id = pick(pages(), o.target);
      if (id) set(id, { fields: { ...r.get(id)!.fields, title: o.value } });
    } else if (o.op === 'body' || o.op === 'append') {
      const id = pick(pages(), o.target);
      const body = id && r.get(id)!.document;
      if (!id || !body) continue;
      const nodes = [...body.nodes];
      if (o.op === 'append') nodes.push(p(`${side}${next++}`));
      else if (nodes.length) nodes[o.block % nodes.length] = p(nodes[o.block % nodes.length].key!, o.value);
      set(id, { document: { ...body, nodes } });
    } else if (o.op === 'move') {
      const id = pick(pages(), o.target);
      if (!id) continue;
      const blocked = descendants(id);
      const parentId = pick([null, ...pages().filter((x) => !blocked.has(x))] as string[], o.parent) ?? null;
      if (slugFree(parentId, r.get(id)!.slug, id)) set(id, { parentId, position: o.position });
    } else if (o.op === 'position') {
      const id = pick(pages(), o.target);
      if (id) set(id, { position: o.position });
    } else if (o.op === 'delete') {
      const id = pick([...r.keys()], o.target);
      if (id) for (const gone of descendants(id)) r.delete(gone);
    } else if (o.op === 'create') {
      const id = `${side}${next++}`;
      r.set(id, page(id, { parentId: pick([null, ...pages()] as string[], o.parent) ?? null, position: o.position })[1]);
    } else if (o.op === 'slug') {
      const id = pick(pages(), o.target);
      if (id && slugFree(r.get(id)!.parentId, o.slug, id)) set(id, { slug: o.slug });
    } else {
      const id = pick([...r].filter(([, v]) => v.kind === 'file').map(([x]) => x), o.target);
      if (id) set(id, { fields: { ...r.get(id)!.fields, name: o.value } });
    }
  }
  return r;
}

const opsArb = fc.array(opArb, { maxLength: 4 });
const scenarioArb = fc.record({ base: baseArb, x: opsArb, y: opsArb }).map(({ base: b, x, y }) => ({ base: b, x: apply(b, x, 'x'), y: apply(b, y, 'y') }));

const asObject = (merged: Map<string, EntityVersion | null>) => Object.fromEntries([...merged].sort(([a], [b]) => (a < b ? -1 : 1)));
const moved = (b: EntityVersion | undefined, v: EntityVersion | undefined) => !!b && !!v && (b.parentId !== v.parentId || b.position !== v.position);

describe('mergeEntities properties', () => {
  it('merging with an unchanged side gives the other side exactly', () => {
    fc.assert(
      fc.property(scenarioArb, ({ base: b, x }) => {
        for (const result of [merge(b, b, x), merge(b, x, b)]) {
          expect(result.conflicts).toEqual([]);
          for (const [id, version] of result.merged) expect(version).toEqual(x.get(id) ?? null);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is symmetric when there are no conflicts (but for ours-wins positions)', () => {
    let clean = 0;
    let oursPosition = 0;
    fc.assert(
      fc.property(scenarioArb, ({ base: b, x, y }) => {
        const xy = merge(b, x, y);
        const yx = merge(b, y, x);
        expect(xy.conflicts.length === 0).toBe(yx.conflicts.length === 0);
        if (xy.conflicts.length) return;
        clean++;
        const left = asObject(xy.merged);
        const right = asObject(yx.merged);
        expect(Object.keys(left)).toEqual(Object.keys(right));
        for (const id of Object.keys(left)) {
          const [bv, xv, yv] = [b.get(id), x.get(id), y.get(id)];
          if (moved(bv, xv) && moved(bv, yv) && xv!.parentId === yv!.parentId && xv!.position !== yv!.position) {
            // The documented rule: both moved under one parent to different positions, ours wins.
            oursPosition++;
            expect(left[id]?.position).toBe(xv!.position);
            expect(right[id]?.position).toBe(yv!.position);
            expect({ ...left[id], position: '' }).toEqual({ ...right[id], position: '' });
          } else {
            expect(left[id]).toEqual(right[id]);
          }
        }
      }),
      { numRuns: 500 },
    );
    expect(clean).toBeGreaterThan(100);
    expect(oursPosition).toBeGreaterThan(0);
  });

  it('leaves a valid tree when there are no conflicts', () => {
    fc.assert(
      fc.property(scenarioArb, ({ base: b, x, y }) => {
        const input = inputOf(b, x, y);
        const result = mergeEntities(input);
        if (result.conflicts.length) return;
        const final = new Map(b);
        for (const [id, v] of result.merged) if (v) final.set(id, v);
        else final.delete(id);
        for (const [id, v] of final) {
          if (v.kind !== 'page') continue;
          // Every ancestor exists, and the walk up ends at the top.
          const seen = new Set([id]);
          for (let parent = v.parentId; parent !== null; parent = final.get(parent)!.parentId) {
            expect(final.has(parent)).toBe(true);
            expect(seen.has(parent)).toBe(false);
            seen.add(parent);
          }
          const clash = [...final].filter(([other, w]) => other !== id && w.kind === 'page' && w.parentId === v.parentId && w.slug === v.slug);
          expect(clash).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
