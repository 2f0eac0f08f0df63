/** Three-way merge of JSON documents, block by block (src/lib/merge). Pure: no database. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BlockNode, FragmentNode, JSONDocument, TextNode } from '../src/lib/documents/types.js';
import { mergeDocuments, type BlockConflict } from '../src/lib/merge/index.js';

const text = (value: string): TextNode => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const block = (type: string, key: string | undefined, data: Record<string, unknown>, nodes: BlockNode['nodes'], fragments?: FragmentNode[]): BlockNode => ({
  object: 'block',
  type,
  ...(key === undefined ? {} : { key }),
  data,
  nodes,
  ...(fragments ? { fragments } : {}),
});
const p = (key: string | undefined, value: string = key ?? '') => block('paragraph', key, {}, [text(value)]);
const list = (key: string, ...items: BlockNode[]) => block('list-unordered', key, {}, items);
const li = (key: string, ...nodes: BlockNode[]) => block('list-item', key, {}, nodes);
const hint = (key: string, style: string, ...nodes: BlockNode[]) => block('hint', key, { style }, nodes);
const tabs = (key: string, ...items: BlockNode[]) => block('tabs', key, {}, items);
const tab = (key: string, title: string, ...nodes: BlockNode[]) => block('tabs-item', key, { title }, nodes);
const image = (key: string, ref: string, ...caption: BlockNode[]): BlockNode => ({
  object: 'block',
  type: 'image',
  key,
  isVoid: true,
  data: { ref },
  fragments: [{ object: 'fragment', fragment: 'caption', nodes: caption }],
});
const code = (key: string, ...lines: string[]) => block('code', key, { syntax: 'ts' }, lines.map((line, i) => block('code-line', `${key}-${i}`, {}, [text(line)])));
const doc = (...nodes: BlockNode[]): JSONDocument => ({ object: 'document', data: {}, nodes });

const keysOf = (document: JSONDocument) => document.nodes.map((node) => node.key ?? '?');
const paths = (conflicts: BlockConflict[]) => conflicts.map((c) => c.path);

type Case = {
  name: string;
  base: JSONDocument;
  ours: JSONDocument;
  theirs: JSONDocument;
  /** The merged document (checked when given). */
  merged?: JSONDocument;
  /** The conflicts' paths (none when absent). */
  conflicts?: string[][];
};

const A = p('a');
const B = p('b');
const C = p('c');

const cases: Case[] = [
  { name: 'a block changed on one side takes that side', base: doc(A, B), ours: doc(A, p('b', 'B!')), theirs: doc(A, B), merged: doc(A, p('b', 'B!')) },
  { name: 'a block changed alike on both sides', base: doc(A, B), ours: doc(p('a', 'A!'), B), theirs: doc(p('a', 'A!'), B), merged: doc(p('a', 'A!'), B) },
  { name: 'edits to different blocks merge', base: doc(A, B, C), ours: doc(p('a', 'A!'), B, C), theirs: doc(A, B, p('c', 'C!')), merged: doc(p('a', 'A!'), B, p('c', 'C!')) },
  {
    name: 'the same block changed differently is a conflict (ours kept)',
    base: doc(A, B),
    ours: doc(A, p('b', 'ours')),
    theirs: doc(A, p('b', 'theirs')),
    merged: doc(A, p('b', 'ours')),
    conflicts: [['b']],
  },
  {
    name: 'key order inside a block does not count as a change',
    base: doc({ object: 'block', type: 'heading-1', key: 'h', data: { id: 'x' }, nodes: [text('H')] }),
    ours: doc({ nodes: [text('H')], data: { id: 'x' }, key: 'h', type: 'heading-1', object: 'block' }),
    theirs: doc({ object: 'block', type: 'heading-1', key: 'h', data: { id: 'y' }, nodes: [text('H')] }),
    merged: doc({ object: 'block', type: 'heading-1', key: 'h', data: { id: 'y' }, nodes: [text('H')] }),
  },
  {
    name: 'edits in different list items merge',
    base: doc(list('l', li('i1', p('p1')), li('i2', p('p2')))),
    ours: doc(list('l', li('i1', p('p1', 'one')), li('i2', p('p2')))),
    theirs: doc(list('l', li('i1', p('p1')), li('i2', p('p2', 'two')))),
    merged: doc(list('l', li('i1', p('p1', 'one')), li('i2', p('p2', 'two')))),
  },
  {
    name: 'the same block changed differently inside a list item: conflict at the nested path',
    base: doc(A, list('l', li('i1', p('p1')), li('i2', p('p2')))),
    ours: doc(A, list('l', li('i1', p('p1', 'ours')), li('i2', p('p2', 'two')))),
    theirs: doc(p('a', 'A!'), list('l', li('i1', p('p1', 'theirs')), li('i2', p('p2')))),
    merged: doc(p('a', 'A!'), list('l', li('i1', p('p1', 'ours')), li('i2', p('p2', 'two')))),
    conflicts: [['l', 'i1', 'p1']],
  },
  {
    name: 'the same block changed differently inside a tabs-item',
    base: doc(tabs('t', tab('t1', 'One', p('x')), tab('t2', 'Two', p('y')))),
    ours: doc(tabs('t', tab('t1', 'One', p('x', 'ours')), tab('t2', 'Two', p('y')))),
    theirs: doc(tabs('t', tab('t1', 'One', p('x', 'theirs')), tab('t2', 'Second', p('y')))),
    merged: doc(tabs('t', tab('t1', 'One', p('x', 'ours')), tab('t2', 'Second', p('y')))),
    conflicts: [['t', 't1', 'x']],
  },
  {
    name: "a container's data changed on one side and its children on the other merge",
    base: doc(hint('h', 'info', A, B)),
    ours: doc(hint('h', 'warning', A, B)),
    theirs: doc(hint('h', 'info', A, p('b', 'B!'), C)),
    merged: doc(hint('h', 'warning', A, p('b', 'B!'), C)),
  },
  {
    name: "a container's data changed differently on both sides is a conflict at the container",
    base: doc(hint('h', 'info', A, B)),
    ours: doc(hint('h', 'warning', A, B)),
    theirs: doc(hint('h', 'danger', p('a', 'A!'), B)),
    merged: doc(hint('h', 'warning', A, B)),
    conflicts: [['h']],
  },
  {
    name: 'a container whose type changed on one side and children on the other merges',
    base: doc(list('l', li('i1', p('p1')))),
    ours: doc({ ...list('l', li('i1', p('p1'))), type: 'list-ordered' }),
    theirs: doc(list('l', li('i1', p('p1')), li('i2', p('p2')))),
    merged: doc({ ...list('l', li('i1', p('p1')), li('i2', p('p2'))), type: 'list-ordered' }),
  },
  {
    name: "an image's caption (a fragment) and its data merge",
    base: doc(image('img', 'file-1', p('cap', 'caption'))),
    ours: doc(image('img', 'file-2', p('cap', 'caption'))),
    theirs: doc(image('img', 'file-1', p('cap', 'better caption'))),
    merged: doc(image('img', 'file-2', p('cap', 'better caption'))),
  },
  {
    name: 'a caption paragraph changed differently: conflict inside the fragment',
    base: doc(image('img', 'f', p('cap', 'caption'))),
    ours: doc(image('img', 'f', p('cap', 'ours'), p('more'))),
    theirs: doc(image('img', 'f', p('cap', 'theirs'))),
    merged: doc(image('img', 'f', p('cap', 'ours'), p('more'))),
    conflicts: [['img', 'cap']],
  },
  {
    name: 'a fragment deleted on one side and edited on the other is a conflict at its block',
    base: doc(image('img', 'f', p('cap', 'caption'))),
    ours: doc({ ...image('img', 'f'), fragments: [] }),
    theirs: doc(image('img', 'f', p('cap', 'theirs'))),
    conflicts: [['img']],
  },
  {
    name: 'code is one value: different lines changed on both sides conflict',
    base: doc(code('c', 'one', 'two')),
    ours: doc(code('c', 'ONE', 'two')),
    theirs: doc(code('c', 'one', 'TWO')),
    conflicts: [['c']],
  },
  {
    name: 'a leaf turned container on one side is one value',
    base: doc(p('x', 'x')),
    ours: doc(p('x', 'x!')),
    theirs: doc(hint('x', 'info', p('y'))),
    conflicts: [['x']],
  },
  { name: 'deleted on one side, unchanged on the other: deleted', base: doc(A, B, C), ours: doc(A, C), theirs: doc(A, B, C), merged: doc(A, C) },
  { name: 'deleted on both sides', base: doc(A, B, C), ours: doc(A, C), theirs: doc(A, C), merged: doc(A, C) },
  { name: 'deleted on one side, edited elsewhere on the other', base: doc(A, B, C), ours: doc(A, C), theirs: doc(A, B, p('c', 'C!')), merged: doc(A, p('c', 'C!')) },
  {
    name: 'deleted by ours, edited by theirs: conflict, ours (deleted) kept',
    base: doc(A, B, C),
    ours: doc(A, C),
    theirs: doc(A, p('b', 'B!'), C),
    merged: doc(A, C),
    conflicts: [['b']],
  },
  {
    name: 'edited by ours, deleted by theirs: conflict, ours (edited) kept in place',
    base: doc(A, B, C),
    ours: doc(A, p('b', 'B!'), C),
    theirs: doc(A, C),
    merged: doc(A, p('b', 'B!'), C),
    conflicts: [['b']],
  },
  {
    name: 'a list item deleted on one side and edited on the other',
    base: doc(list('l', li('i1', p('p1')), li('i2', p('p2')))),
    ours: doc(list('l', li('i2', p('p2')))),
    theirs: doc(list('l', li('i1', p('p1', 'edited')), li('i2', p('p2')))),
    conflicts: [['l', 'i1']],
  },
  { name: 'deleted on one side, moved on the other: deleted', base: doc(A, B, C), ours: doc(A, B), theirs: doc(C, A, B), merged: doc(A, B) },
  {
    name: 'insertions at both ends both survive',
    base: doc(A, B, C),
    ours: doc(p('x'), A, B, C),
    theirs: doc(A, B, C, p('y')),
    merged: doc(p('x'), A, B, C, p('y')),
  },
  {
    name: 'insertions at different places in the middle both survive',
    base: doc(A, B, C),
    ours: doc(A, p('x'), B, C),
    theirs: doc(A, B, p('y'), C),
    merged: doc(A, p('x'), B, p('y'), C),
  },
  {
    name: 'an insertion next to a block the other side deleted',
    base: doc(A, B, C),
    ours: doc(A, p('x'), B, C),
    theirs: doc(A, C),
    merged: doc(A, p('x'), C),
  },
  {
    name: 'different insertions at the same place are a conflict (ours first)',
    base: doc(A, B),
    ours: doc(A, p('x'), B),
    theirs: doc(A, p('y'), B),
    merged: doc(A, p('x'), p('y'), B),
    conflicts: [['x'], ['y']],
  },
  { name: 'the same insertion on both sides', base: doc(A, B), ours: doc(A, p('x'), B), theirs: doc(A, p('x'), B), merged: doc(A, p('x'), B) },
  { name: 'a block moved on one side and edited on the other', base: doc(A, B, C), ours: doc(C, A, B), theirs: doc(A, p('b', 'B!'), C), merged: doc(C, A, p('b', 'B!')) },
  { name: 'the same reorder on both sides', base: doc(A, B, C), ours: doc(C, B, A), theirs: doc(C, B, A), merged: doc(C, B, A) },
  { name: 'reorders of different regions', base: doc(A, B, C, p('d'), p('e')), ours: doc(B, A, C, p('d'), p('e')), theirs: doc(A, B, C, p('e'), p('d')), merged: doc(B, A, C, p('e'), p('d')) },
  {
    name: 'conflicting reorders of the same region are a conflict (ours order)',
    base: doc(A, B, C),
    ours: doc(B, A, C),
    theirs: doc(A, C, B),
    merged: doc(B, A, C),
    conflicts: [['b'], ['a']],
  },
  {
    name: 'a block moved into two different containers is a conflict',
    base: doc(A, hint('h1', 'info', B), hint('h2', 'info', C)),
    ours: doc(hint('h1', 'info', B, A), hint('h2', 'info', C)),
    theirs: doc(hint('h1', 'info', B), hint('h2', 'info', C, A)),
    conflicts: [['h2', 'a']],
  },
  {
    name: 'a block moved into a container on one side, unchanged on the other',
    base: doc(A, hint('h', 'info', B)),
    ours: doc(hint('h', 'info', B, A)),
    theirs: doc(A, hint('h', 'info', p('b', 'B!'))),
    merged: doc(hint('h', 'info', p('b', 'B!'), A)),
  },
  {
    name: 'document data changed on one side',
    base: doc(A),
    ours: { ...doc(A), data: { schemaVersion: 2 } },
    theirs: doc(p('a', 'A!')),
    merged: { ...doc(p('a', 'A!')), data: { schemaVersion: 2 } },
  },
  {
    name: 'document data changed differently: conflict with an empty path',
    base: doc(A),
    ours: { ...doc(A), data: { schemaVersion: 2 } },
    theirs: { ...doc(A), data: { schemaVersion: 3 } },
    merged: { ...doc(A), data: { schemaVersion: 2 } },
    conflicts: [[]],
  },
  {
    name: 'keyless blocks: edits to different ones merge',
    base: doc(p(undefined, 'one'), p(undefined, 'two'), p(undefined, 'three')),
    ours: doc(p(undefined, 'ONE'), p(undefined, 'two'), p(undefined, 'three')),
    theirs: doc(p(undefined, 'one'), p(undefined, 'two'), p(undefined, 'THREE')),
    merged: doc(p(undefined, 'ONE'), p(undefined, 'two'), p(undefined, 'THREE')),
  },
  {
    name: 'keyless blocks: identical siblings, one deleted on each side',
    base: doc(p(undefined, 'same'), p(undefined, 'same'), p(undefined, 'same')),
    ours: doc(p(undefined, 'same'), p(undefined, 'same')),
    theirs: doc(p(undefined, 'same'), p(undefined, 'same')),
    merged: doc(p(undefined, 'same'), p(undefined, 'same')),
  },
  {
    name: 'keyless blocks: the same one edited differently is a conflict at #index',
    base: doc(A, p(undefined, 'one')),
    ours: doc(A, p(undefined, 'ours')),
    theirs: doc(A, p(undefined, 'theirs')),
    conflicts: [['#1'], ['#1']],
  },
  {
    name: 'keys named like Object.prototype properties',
    base: doc(p('constructor'), p('__proto__'), p('toString')),
    ours: doc(p('__proto__'), p('constructor', 'C!'), p('toString')),
    theirs: doc(p('constructor'), p('__proto__'), p('toString', 'T!'), p('hasOwnProperty')),
    merged: doc(p('__proto__'), p('constructor', 'C!'), p('toString', 'T!'), p('hasOwnProperty')),
  },
  {
    name: 'duplicate keys among siblings do not break the merge',
    base: doc(p('d', 'one'), p('d', 'two')),
    ours: doc(p('d', 'one'), p('d', 'two'), p('x')),
    theirs: doc(p('y'), p('d', 'one'), p('d', 'two')),
    merged: doc(p('y'), p('d', 'one'), p('d', 'two'), p('x')),
  },
];

describe('mergeDocuments', () => {
  it.each(cases)('$name', ({ base, ours, theirs, merged, conflicts = [] }) => {
    const result = mergeDocuments(base, ours, theirs);
    expect(paths(result.conflicts)).toEqual(conflicts);
    if (merged) expect(result.document).toEqual(merged);
  });

  it('a conflict carries the three versions of the block', () => {
    const nested = (value: string) => doc(list('l', li('i', p('p', value))));
    const { conflicts } = mergeDocuments(nested('base'), nested('ours'), nested('theirs'));
    expect(conflicts).toEqual([{ path: ['l', 'i', 'p'], base: p('p', 'base'), ours: p('p', 'ours'), theirs: p('p', 'theirs') }]);

    const deleted = mergeDocuments(doc(A, B), doc(A), doc(A, p('b', 'B!')));
    expect(deleted.conflicts).toEqual([{ path: ['b'], base: B, ours: null, theirs: p('b', 'B!') }]);

    const data = mergeDocuments({ ...doc(), data: { x: 1 } }, { ...doc(), data: { x: 2 } }, { ...doc(), data: { x: 3 } });
    expect(data.conflicts).toEqual([
      { path: [], base: { object: 'block', type: 'document', data: { x: 1 } }, ours: { object: 'block', type: 'document', data: { x: 2 } }, theirs: { object: 'block', type: 'document', data: { x: 3 } } },
    ]);
  });

  it('keeps the order of sibling keys when only one side reorders and the other edits', () => {
    const result = mergeDocuments(doc(A, B, C, p('d')), doc(p('d'), C, B, A), doc(A, B, p('c', 'C!'), p('d')));
    expect(result.conflicts).toEqual([]);
    expect(keysOf(result.document)).toEqual(['d', 'c', 'b', 'a']);
    expect(result.document.nodes[1]).toEqual(p('c', 'C!'));
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over generated documents and edits.

const TEXTS = ['a', 'b', 'c'];
type Shape = { type: string; keyed: boolean; text?: string; data?: Record<string, unknown>; children?: Shape[]; caption?: Shape[] };

/** Mostly keyed, sometimes keyless. */
const keyedFlag = fc.integer({ min: 0, max: 9 }).map((n) => n > 0);

const shapeArb = fc.letrec<{ block: Shape }>((tie) => ({
  block: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: fc.record({ type: fc.constantFrom('paragraph', 'heading-1'), keyed: keyedFlag, text: fc.constantFrom(...TEXTS) }), weight: 5 },
    { arbitrary: fc.record({ type: fc.constant('list-unordered'), keyed: keyedFlag, children: fc.array(fc.record({ type: fc.constant('list-item'), keyed: keyedFlag, children: fc.array(tie('block'), { maxLength: 3 }) }), { maxLength: 3 }) }), weight: 1 },
    { arbitrary: fc.record({ type: fc.constant('hint'), keyed: keyedFlag, data: fc.record({ style: fc.constantFrom('info', 'warning') }), children: fc.array(tie('block'), { maxLength: 3 }) }), weight: 1 },
    { arbitrary: fc.record({ type: fc.constant('tabs'), keyed: keyedFlag, children: fc.array(fc.record({ type: fc.constant('tabs-item'), keyed: keyedFlag, data: fc.record({ title: fc.constantFrom('x', 'y') }), children: fc.array(tie('block'), { maxLength: 2 }) }), { maxLength: 3 }) }), weight: 1 },
    { arbitrary: fc.record({ type: fc.constant('image'), keyed: keyedFlag, data: fc.record({ ref: fc.constantFrom('f1', 'f2') }), caption: fc.array(tie('block'), { maxLength: 2 }) }), weight: 1 },
  ),
}));

/** A document from shapes, with unique keys `k0`, `k1`... where keyed. */
function build(shapes: Shape[]): JSONDocument {
  let next = 0;
  const make = (shape: Shape): BlockNode => {
    const key = shape.keyed ? `k${next++}` : undefined;
    if (shape.caption) return { object: 'block', type: shape.type, ...(key ? { key } : {}), isVoid: true, data: shape.data ?? {}, fragments: [{ object: 'fragment', fragment: 'caption', nodes: shape.caption.map(make) }] };
    if (shape.children) return block(shape.type, key, shape.data ?? {}, shape.children.map(make));
    return block(shape.type, key, shape.data ?? {}, [text(shape.text ?? '')]);
  };
  return doc(...shapes.map(make));
}

/** An edit, its targets chosen by index among the candidates (modulo their number). */
type Edit =
  | { op: 'text'; target: number; value: string }
  | { op: 'delete'; target: number }
  | { op: 'insert'; target: number; at: number; keyed: boolean; value: string }
  | { op: 'move'; target: number; at: number }
  | { op: 'data'; target: number; value: string };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('text' as const), target: fc.nat(), value: fc.constantFrom('x', 'y', 'z') }),
  fc.record({ op: fc.constant('delete' as const), target: fc.nat() }),
  fc.record({ op: fc.constant('insert' as const), target: fc.nat(), at: fc.nat(), keyed: keyedFlag, value: fc.constantFrom('x', 'y') }),
  fc.record({ op: fc.constant('move' as const), target: fc.nat(), at: fc.nat() }),
  fc.record({ op: fc.constant('data' as const), target: fc.nat(), value: fc.constantFrom('info', 'warning', 'danger') }),
);

/** Every list of sibling blocks in a document (the top level, children, fragments' nodes). */
function blockLists(document: JSONDocument): BlockNode[][] {
  const lists: BlockNode[][] = [];
  const visit = (blocks: BlockNode[]) => {
    lists.push(blocks);
    for (const b of blocks) {
      if (b.type !== 'paragraph' && b.type !== 'heading-1' && Array.isArray(b.nodes)) visit(b.nodes as BlockNode[]);
      for (const f of b.fragments ?? []) visit(f.nodes);
    }
  };
  visit(document.nodes);
  return lists;
}

/** Applies edits to a copy; new blocks get keys `${prefix}0`, `${prefix}1`... */
function edit(document: JSONDocument, edits: Edit[], prefix: string): JSONDocument {
  const copy = structuredClone(document);
  let next = 0;
  for (const e of edits) {
    const lists = blockLists(copy);
    const all = lists.flatMap((l) => l.map((b, i) => ({ list: l, i, b })));
    const pick = <T>(items: T[], n: number): T | undefined => (items.length ? items[n % items.length] : undefined);
    if (e.op === 'text') {
      const leaf = pick(all.filter((x) => x.b.type === 'paragraph' || x.b.type === 'heading-1'), e.target);
      if (leaf) leaf.list[leaf.i] = { ...leaf.b, nodes: [text(e.value)] };
    } else if (e.op === 'delete') {
      const x = pick(all, e.target);
      if (x) x.list.splice(x.i, 1);
    } else if (e.op === 'insert') {
      const l = pick(lists, e.target)!;
      l.splice(e.at % (l.length + 1), 0, p(e.keyed ? `${prefix}${next++}` : undefined, e.value));
    } else if (e.op === 'move') {
      const l = pick(lists.filter((x) => x.length > 1), e.target);
      if (l) {
        const [moved] = l.splice(e.at % l.length, 1);
        l.splice((e.at * 7 + 3) % (l.length + 1), 0, moved);
      }
    } else {
      const x = pick(all.filter((y) => y.b.type === 'hint'), e.target);
      if (x) x.list[x.i] = { ...x.b, data: { style: e.value } };
    }
  }
  return copy;
}

const documentArb = fc.array(shapeArb.block, { maxLength: 6 }).map(build);
const editsArb = fc.array(editArb, { maxLength: 4 });
const scenarioArb = fc.record({ base: documentArb, ours: editsArb, theirs: editsArb }).map(({ base, ours, theirs }) => ({ base, x: edit(base, ours, 'x'), y: edit(base, theirs, 'y') }));

describe('mergeDocuments properties', () => {
  it('merging with an unchanged side gives the other side exactly', () => {
    fc.assert(
      fc.property(scenarioArb, ({ base, x }) => {
        const left = mergeDocuments(base, base, x);
        expect(left.conflicts).toEqual([]);
        expect(left.document).toEqual(x);
        const right = mergeDocuments(base, x, base);
        expect(right.conflicts).toEqual([]);
        expect(right.document).toEqual(x);
      }),
      { numRuns: 300 },
    );
  });

  it('merging a side with itself gives it', () => {
    fc.assert(
      fc.property(scenarioArb, ({ base, x }) => {
        const result = mergeDocuments(base, x, x);
        expect(result.conflicts).toEqual([]);
        expect(result.document).toEqual(x);
      }),
      { numRuns: 200 },
    );
  });

  it('is symmetric when there are no conflicts', () => {
    let clean = 0;
    fc.assert(
      fc.property(scenarioArb, ({ base, x, y }) => {
        const xy = mergeDocuments(base, x, y);
        const yx = mergeDocuments(base, y, x);
        expect(xy.conflicts.length === 0).toBe(yx.conflicts.length === 0);
        if (xy.conflicts.length === 0) {
          clean++;
          expect(xy.document).toEqual(yx.document);
        }
      }),
      { numRuns: 500 },
    );
    expect(clean).toBeGreaterThan(100); // the generated edits mostly combine
  });

  it('keeps both sides when their edits are disjoint', () => {
    // x edits only the first top-level block's text, y only appends: both must show.
    fc.assert(
      fc.property(documentArb, fc.constantFrom('x', 'y', 'z'), (base, value) => {
        fc.pre(base.nodes.length > 0 && base.nodes[0].type === 'paragraph' && base.nodes[0].key !== undefined);
        const x = structuredClone(base);
        x.nodes[0] = { ...x.nodes[0], nodes: [text(`${value}!`)] };
        const y = structuredClone(base);
        y.nodes.push(p('appended'));
        const result = mergeDocuments(base, x, y);
        expect(result.conflicts).toEqual([]);
        expect(result.document).toEqual({ ...x, nodes: [...x.nodes, p('appended')] });
      }),
    );
  });

  it('never throws, whatever the three documents', () => {
    const loose = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.record({ object: fc.constant('block'), type: fc.constantFrom('paragraph', 'hint', 'code', 'image'), key: fc.option(fc.constantFrom('a', 'b', '', 'constructor', '__proto__'), { nil: undefined }), data: fc.option(fc.dictionary(fc.constantFrom('x', 'y'), fc.nat(2)), { nil: undefined }), nodes: fc.option(fc.array(tie('node'), { maxLength: 3 }), { nil: undefined }), fragments: fc.option(fc.array(fc.record({ object: fc.constant('fragment'), fragment: fc.constantFrom('caption', 'body'), nodes: fc.array(tie('node'), { maxLength: 2 }) }), { maxLength: 2 }), { nil: undefined }) }, { requiredKeys: ['object', 'type'] }),
        fc.constant(text('t')),
        fc.record({ object: fc.constant('inline'), type: fc.constant('link') }),
        fc.constantFrom(null, 3, 'text', { object: 'block', type: 'list', nodes: 'oops', fragments: [null] }),
      ),
    }));
    const looseDoc = fc.array(loose.node, { maxLength: 5 }).map((nodes) => ({ object: 'document', data: {}, nodes }) as unknown as JSONDocument);
    fc.assert(
      fc.property(looseDoc, looseDoc, looseDoc, (base, ours, theirs) => {
        const result = mergeDocuments(base, ours, theirs);
        expect(Array.isArray(result.document.nodes)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
