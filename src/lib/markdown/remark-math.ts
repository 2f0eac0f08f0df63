/**
 * remark-math's plugin, without KaTeX. The package takes micromark's math syntax from
 * micromark-extension-math's index, which also imports that package's HTML renderer and, with
 * it, KaTeX: ~2.4 MiB of heap in every process that parses markdown, for a renderer it never
 * uses (the published site renders math itself, published/render/document/math.ts). The syntax
 * is loaded from its own module instead: the package's exports name only its index, so the module
 * is found beside it — both packages resolved from remark-math, whose dependencies they are.
 * Loaded with `require` (ES modules without top-level await; Node ≥ 22.12): a top-level `await
 * import()` here stalls the conversion threads run from source under tsx's loader.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Options } from 'remark-math';
import type { Data, Processor } from 'unified';

type Syntax = { math(options?: Options): NonNullable<Data['micromarkExtensions']>[number] };
type Tree = {
  mathFromMarkdown(): NonNullable<Data['fromMarkdownExtensions']>[number];
  mathToMarkdown(options?: Options): NonNullable<Data['toMarkdownExtensions']>[number];
};

const fromRemarkMath = createRequire(createRequire(import.meta.url).resolve('remark-math'));
const { math } = fromRemarkMath(path.join(path.dirname(fromRemarkMath.resolve('micromark-extension-math')), 'lib', 'syntax.js')) as Syntax;
const { mathFromMarkdown, mathToMarkdown } = fromRemarkMath('mdast-util-math') as Tree;

/** Same as remark-math 6's default export: `$$` blocks and inline math, parsed and written. */
export default function remarkMath(this: Processor, options: Options = {}): undefined {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(math(options));
  (data.fromMarkdownExtensions ??= []).push(mathFromMarkdown());
  (data.toMarkdownExtensions ??= []).push(mathToMarkdown(options));
}
