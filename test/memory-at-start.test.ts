/**
 * What an idle server holds (docs/performance.md, Memory): Prisma's parameterization graph in
 * Maps (scripts/prisma-generate.mjs patches its runtime), and one memory-reducing collection at
 * the end of a start (observability/startup-collection.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectStartupGarbage } from '../src/observability/startup-collection.js';

const runtimeFile = createRequire(import.meta.url).resolve('@prisma/client/runtime/client');

/** The generated client's parameterization schema (strings and the graph as base64url). */
function generatedSchema(): { strings: string[]; graph: string } {
  const source = readFileSync('src/generated/prisma/internal/class.ts', 'utf8');
  const match = /config\.parameterizationSchema = \{\s*strings: JSON\.parse\((".*?")\),\s*graph: "(.*?)"/s.exec(source);
  if (!match) throw new Error('the generated client no longer states its parameterization schema this way');
  return { strings: JSON.parse(JSON.parse(match[1])), graph: match[2] };
}

type Graph = { inputNodes: { edges: Map<number, { flags: number }> }[]; outputNodes: { edges: Map<number, unknown> }[] };

/** The runtime's own decoder of that schema, taken from the (patched) runtime file Node loads. */
function runtimeDecoder(): (schema: { strings: string[]; graph: string }) => Graph {
  const source = readFileSync(runtimeFile, 'utf8');
  const entry = /function (\w+)\(e\)\{return new \w+\(e\)\.deserialize\(\)\}/.exec(source);
  // The entry, its base64url helper and the decoder class follow one another, then the graph's reader (`var …=class e{`).
  const reader = entry ? source.indexOf('=class e{', entry.index) : -1;
  if (!entry || reader < 0) throw new Error('the runtime no longer decodes its graph this way');
  const code = `${source.slice(entry.index, source.lastIndexOf('var ', reader))};return ${entry[1]};`;
  return new Function('Buffer', code)(Buffer);
}

describe('memory held from the start', () => {
  it("Prisma's runtime, as installed, keeps the graph's edges in Maps and looks them up there", () => {
    const runtime = readFileSync(runtimeFile, 'utf8');
    expect(runtime.match(/n\.edges\.get\(i\)/g)).toHaveLength(2);
    expect(runtime).not.toMatch(/n\.edges\[i\]/);

    const schema = generatedSchema();
    const graph = runtimeDecoder()(schema);
    expect(graph.inputNodes.length).toBeGreaterThan(1_000);
    expect(graph.inputNodes.every((node) => node.edges instanceof Map)).toBe(true);
    expect(graph.outputNodes.every((node) => node.edges instanceof Map)).toBe(true);
    // The edges are keyed by the index of their name in the schema's strings, as before.
    const { strings } = schema;
    expect(graph.inputNodes.some((node) => node.edges.has(strings.indexOf('where')))).toBe(true); // the arguments of the queries that filter
    const edges = graph.inputNodes.flatMap((node) => [...node.edges.keys()]);
    expect(edges.every((key) => Number.isInteger(key) && key >= 0 && key < strings.length)).toBe(true);
  });

  it('collects the start\'s garbage once, shrinking the young generation, without leaving `gc` exposed', () => {
    const newSpace = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.physical_space_size;
    // Short-lived allocations grow the young generation, as a start does.
    let kept = 0;
    for (let i = 0; i < 200_000; i++) kept += new Array(64).fill(i).length;
    expect(kept).toBe(200_000 * 64);
    const before = newSpace();
    const ms = collectStartupGarbage();
    expect(ms).toBeGreaterThan(0);
    if (Number(process.versions.node.split('.')[0]) >= 22) {
      expect(newSpace()).toBeLessThan(before);
      expect(newSpace()).toBeLessThanOrEqual(4 * 1024 * 1024);
    }
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
  });
});
