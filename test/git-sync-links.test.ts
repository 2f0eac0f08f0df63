/**
 * The link targets a git import resolves before converting a file (link-candidates.ts): what the
 * platform's dialect writes is found; what it misses is left to the conversion's own targets
 * (theirs.ts converts such a file again), so a miss costs time, never a link.
 */
import { describe, expect, it } from 'vitest';
import { linkCandidates } from '../src/domain/git-sync/link-candidates.js';
import { markdownToDocument, relativeTargets } from '../src/lib/markdown/index.js';

const targetsOf = (markdown: string) => relativeTargets(markdownToDocument(markdown).document).map((t) => t.url).sort();

describe('git import link candidates', () => {
  it('finds the relative targets of the platform dialect, and no absolute URL nor anchor', () => {
    const markdown = [
      '# Title',
      'See [install](../guide/install.md#steps), [label](other.md "Nav") and [web](https://example.com/a.md) or [here](#top).',
      '![diagram](<../.gitbook/assets/a b.png>)',
      '<figure><img src="../.gitbook/assets/x.png" alt="x"><figcaption><p>x</p></figcaption></figure>',
      '{% content-ref url="setup/README.md" %}[setup](setup/README.md){% endcontent-ref %}',
      '{% file src="../.gitbook/assets/report.pdf" %}Report{% endfile %}',
      '{% include "../.gitbook/includes/note.md" %}',
      '[ref]: ./reference.md',
      'Use [the ref][ref].',
    ].join('\n\n');
    const candidates = linkCandidates(markdown).sort();
    expect(candidates).toEqual(
      ['../.gitbook/assets/a b.png', '../.gitbook/assets/report.pdf', '../.gitbook/assets/x.png', '../.gitbook/includes/note.md', '../guide/install.md#steps', './reference.md', 'other.md', 'setup/README.md'].sort(),
    );
    // Every target the conversion answers was found.
    for (const target of targetsOf(markdown)) expect(candidates).toContain(target);
  });

  it('misses a path with parentheses, which the conversion still answers as a target', () => {
    const markdown = 'See [v1](notes(v1).md).';
    expect(targetsOf(markdown)).toEqual(['notes(v1).md']);
    expect(linkCandidates(markdown)).not.toContain('notes(v1).md');
  });
});
