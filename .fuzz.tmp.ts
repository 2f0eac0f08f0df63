import fc from 'fast-check';
import { markdownToDocument, documentToMarkdown, sameContent } from './src/domain/markdown/index.ts';
const pieces = ['{% hint style="info" %}', '{% endhint %}', '{% tabs %}', '{% tab title="x" %}', '{% endtab %}', '{% endtabs %}', '{% code title="a" %}', '{% endcode %}', '```', '```js', '~~~', '<details>', '<summary>x</summary>', '</details>', '<figure><img src="a.png" alt=""><figcaption><p>c</p></figcaption></figure>', '$$', '$', '* ', '- ', '1. ', '3) ', '> ', '| a | b |', '| - | - |', '---', '***', '# ', '## ', '#### ', '**', '__', '_', '*', '`', '~~', '[a](b.md)', '![i](x.png)', '<mark style="color:red;">', '</mark>', '\n', '\n', '\n\n', '  ', '   ', 'text', 'word', '{% embed url="x" %}', '{% file src="f" %}', '{% endfile %}', '{% content-ref url="x.md" %}', '{% endcontent-ref %}', '{% include "x.md" %}', '<!-- c -->', '<sup>', '</sup>', '<kbd>', '\t', '    ', '<br>', '&amp;', '\\', '<a href="x">', '</a>', '[ ] ', '[x] ', '<div>', '[^1]', '[^1]: note', '[r]: /u', '[r]', 'www.x.com', 'http://y.org', ':', '!', '[', ']', '(', ')', '<', '>', '{%', '%}', '&#x20;', ' '];
const md = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((a) => a.join(''));
let unstable = 0, changed = 0; const samples: string[] = [];
const runs = Number(process.env.RUNS ?? 3000);
fc.assert(fc.property(fc.oneof(md, fc.string({ unit: 'binary', maxLength: 80 })), (input) => {
  const a = markdownToDocument(input);
  const w1 = documentToMarkdown(a.document, a);
  const b = markdownToDocument(w1);
  const w2 = documentToMarkdown(b.document, b);
  const c = markdownToDocument(w2);
  const w3 = documentToMarkdown(c.document, c);
  if (!sameContent(b.document, c.document) || w2 !== w3) { unstable++; if (samples.length < 8) samples.push(JSON.stringify(input) + '\n   w1=' + JSON.stringify(w1) + '\n   w2=' + JSON.stringify(w2) + '\n   w3=' + JSON.stringify(w3)); }
  if (!sameContent(a.document, b.document)) changed++;
  return true;
}), { numRuns: runs, seed: Number(process.env.SEED ?? 42) });
console.log('unstable after one pass', unstable, 'first pass changed', changed);
console.log(samples.join('\n'));
