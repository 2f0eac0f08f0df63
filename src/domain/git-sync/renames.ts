/**
 * Renames with edits: a page file that vanished and a new one whose text is mostly the same are
 * one page moved (and edited), so it keeps its ID — its links, comments and history. Similarity is
 * the Jaccard index of the two texts' word sets; pairs are taken best first, each side once, at
 * or above the threshold. Bounded: past `MAX_CANDIDATES` on either side nothing is compared (a
 * reorganized repository is then new pages), so the cost stays small whatever the repository.
 */
export const SIMILARITY_THRESHOLD = 0.5;
export const MAX_CANDIDATES = 200;

const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size && !b.size) return 1;
  let common = 0;
  for (const word of a) if (b.has(word)) common++;
  return common / (a.size + b.size - common);
}

/** New key → old key, for the pairs similar enough. */
export function matchSimilar(added: ReadonlyMap<string, string>, removed: ReadonlyMap<string, string>, threshold = SIMILARITY_THRESHOLD): Map<string, string> {
  const out = new Map<string, string>();
  if (!added.size || !removed.size || added.size > MAX_CANDIDATES || removed.size > MAX_CANDIDATES) return out;
  const oldWords = [...removed].map(([key, text]) => [key, wordsOf(text)] as const);
  const pairs: { added: string; removed: string; score: number }[] = [];
  for (const [key, text] of added) {
    const words = wordsOf(text);
    for (const [oldKey, old] of oldWords) {
      const score = jaccard(words, old);
      if (score >= threshold) pairs.push({ added: key, removed: oldKey, score });
    }
  }
  pairs.sort((a, b) => b.score - a.score);
  const taken = new Set<string>();
  for (const pair of pairs) {
    if (out.has(pair.added) || taken.has(pair.removed)) continue;
    out.set(pair.added, pair.removed);
    taken.add(pair.removed);
  }
  return out;
}

/** The plain text of a stored body (its leaves), for comparison. */
export function plainTextOf(document: unknown): string {
  const parts: string[] = [];
  const stack: unknown[] = [document];
  while (stack.length) {
    const node = stack.pop() as { leaves?: { text?: string }[]; nodes?: unknown[] } | null;
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node.leaves)) for (const leaf of node.leaves) parts.push(leaf.text ?? '');
    if (Array.isArray(node.nodes)) for (let i = node.nodes.length - 1; i >= 0; i--) stack.push(node.nodes[i]);
  }
  return parts.join(' ');
}
