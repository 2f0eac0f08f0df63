import { markdownToDocument, documentToMarkdown } from './src/domain/markdown/index.ts';
const cases: [string, string][] = [
  ['deep quotes', '>'.repeat(20000) + ' x'],
  ['deep quotes sp', '> '.repeat(20000) + ' x'],
  ['deep lists', Array.from({ length: 3000 }, (_, i) => '  '.repeat(i) + '* x').join('\n')],
  ['deep ordered', Array.from({ length: 3000 }, (_, i) => '   '.repeat(i) + '1. x').join('\n')],
  ['list markers', '* '.repeat(5000) + 'x'],
  ['mixed', '> * '.repeat(3000) + 'x'],
  ['brackets', '['.repeat(50000) + 'a' + ']'.repeat(50000)],
  ['links', '[a]('.repeat(20000)],
  ['emphasis', '*a '.repeat(20000)],
  ['emph2', '*'.repeat(30000) + 'a' + '_'.repeat(30000)],
  ['backticks', '`'.repeat(30000) + 'a'],
  ['html', '<a '.repeat(20000)],
  ['deep hints', '{% hint style="info" %}\n'.repeat(3000) + 'x'],
  ['deep details', '<details>\n\n'.repeat(3000) + 'x'],
  ['deep tabs inline', '{% tabs %}'.repeat(3000)],
  ['table', '| a |\n| - |\n' + '| x |\n'.repeat(20000)],
  ['unclosed tabs', '{% tabs %}\n{% tab title="a" %}\nA\n{% tab title="b" %}\nB'],
  ['orphan close', 'text\n{% endhint %}\nmore'],
  ['endembed alone', '{% endembed %}'],
  ['tag mid-line', 'see {% hint style="info" %} here'],
  ['tag in fence', '```\n{% hint %}\n```'],
  ['weird attrs', '{% hint style="nope" foo=bar %}\nx\n{% endhint %}'],
];
for (const [name, md] of cases) {
  const t = Date.now();
  try {
    const p = markdownToDocument(md);
    const out = documentToMarkdown(p.document, p);
    console.log(name.padEnd(16), String(Date.now() - t).padStart(6) + 'ms', JSON.stringify(out.slice(0, 90)));
  } catch (e) { console.log(name, 'THREW', (e as Error).message); }
}
