/**
 * GFM constructs that a text cannot contain, left out of its parse. Parts of remark-gfm cost a
 * page's conversion much whatever it holds: autolink literals (the email syntax is tried at the
 * start of every word, then a transform searches every text node for URLs and emails) and tables
 * (every paragraph line is tried as a table's head row) were half of a plain page's conversion.
 * A text without the characters one needs is parsed without it, by a processor of its own
 * (remark.ts), to the same tree:
 *
 * - The email, `www.` and `http(s)://` syntaxes need `@`, `www` and `http` in the source.
 * - The transform needs `@`, `http` or `www` in a text node (case-insensitive), where only the
 *   source, its backslash escapes (which leave those letters in the source) and its character
 *   references (`&…;`) can put them: a text with none of `@`, `&`, `http`, `www` has none.
 * - A table needs a delimiter row: a `|`, or a `:` right before or after a `-` (`:-`, `-:`).
 *
 * A failed attempt at a construct leaves micromark's events as they were (the `data` it splits is
 * joined again by the text resolver), so leaving out one that cannot succeed changes nothing.
 * Constructs and the transform are recognized by name: should a release rename them, they stay
 * in, and the text is parsed as before.
 */
import type { Data, Processor } from 'unified';

/** Whether texts cannot contain each part (see above): its constructs by name, or the autolink transform. */
export type GfmUnused = { emailAutolink: boolean; wwwAutolink: boolean; protocolAutolink: boolean; table: boolean; autolinkTransform: boolean };

/** What `text` cannot contain (see above). */
export const gfmUnused = (text: string): GfmUnused => ({
  emailAutolink: !text.includes('@'),
  wwwAutolink: !/www/i.test(text),
  protocolAutolink: !/http/i.test(text),
  table: !/\||:-|-:/.test(text),
  autolinkTransform: !/[@&]|http|www/i.test(text),
});

const AUTOLINK_TRANSFORM = 'transformGfmAutolinkLiterals';

type SyntaxExtension = NonNullable<Data['micromarkExtensions']>[number];
type TreeExtension = NonNullable<Data['fromMarkdownExtensions']>[number];
type Named = { name?: string };

/** A syntax extension without the constructs named `names`, in every hook and code. */
function withoutConstructs(extension: SyntaxExtension, names: readonly string[]): SyntaxExtension {
  const hooks = Object.entries(extension as Record<string, Record<string, unknown> | undefined>).map(([hook, codes]) => [
    hook,
    codes &&
      Object.fromEntries(
        Object.entries(codes).map(([code, value]) => [
          code,
          Array.isArray(value) ? value.filter((c: Named) => !names.includes(c?.name ?? '')) : names.includes((value as Named)?.name ?? '') ? [] : value,
        ]),
      ),
  ]);
  return Object.fromEntries(hooks) as SyntaxExtension;
}

function withoutTransform(extension: TreeExtension | TreeExtension[], name: string): TreeExtension | TreeExtension[] {
  if (Array.isArray(extension)) return extension.map((e) => withoutTransform(e, name) as TreeExtension);
  return extension.transforms ? { ...extension, transforms: extension.transforms.filter((t) => t.name !== name) } : extension;
}

/** A plugin used after remark-gfm: leaves out of the processor's parse what `unused` says the texts it parses cannot contain. */
export default function remarkGfmUnused(this: Processor, unused: GfmUnused): undefined {
  const names = (['emailAutolink', 'wwwAutolink', 'protocolAutolink', 'table'] as const).filter((name) => unused[name]);
  const data = this.data();
  if (names.length && data.micromarkExtensions) data.micromarkExtensions = data.micromarkExtensions.map((e) => withoutConstructs(e, names));
  if (unused.autolinkTransform && data.fromMarkdownExtensions)
    data.fromMarkdownExtensions = data.fromMarkdownExtensions.map((e) => withoutTransform(e, AUTOLINK_TRANSFORM)) as Data['fromMarkdownExtensions'];
}
