// How much of the public API document quire serves, computed — never counted by hand: every
// operation of @gitbook/api's spec/openapi.json is either served (it is in src/rest/openapi.json,
// the document GET /v1/openapi.json answers, made from the route table by openapi-document.mjs),
// out of scope (a rule of out-of-scope.mjs, with its reason), or not served yet. `--write` puts the summary in
// the README between its api-coverage markers; test/api-coverage.test.ts fails while it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { outOfScope } from './out-of-scope.mjs';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const key = (method, p) => `${method.toUpperCase()} ${p}`;

/** The key a request matches whatever its path parameters are named (the router matches so). */
const shapeOf = (k) => k.replace(/\{[^}]+\}/g, '{}');

function operations(document) {
  return Object.entries(document.paths).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ key: key(m, p), path: p, tags: item[m].tags ?? [], own: item[m]['x-quire-shape'] })),
  );
}

/** Served, out of scope by family, not served yet by tag, and quire's own additions. */
export function coverage(root = path.resolve(import.meta.dirname, '..')) {
  const publicDocument = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
  const served = JSON.parse(readFileSync(path.join(root, 'src/rest/openapi.json'), 'utf8'));
  const servedOps = new Map(operations(served).map((op) => [shapeOf(op.key), op]));
  const all = operations(publicDocument);
  const publicKeys = new Set(all.map((op) => shapeOf(op.key)));
  const version = JSON.parse(readFileSync(path.join(root, 'node_modules/@gitbook/api/package.json'), 'utf8')).version;
  const result = { version, total: all.length, served: 0, ownShape: [], outOfScope: new Map(), notYet: new Map(), additions: 0 };
  for (const op of all) {
    const answering = servedOps.get(shapeOf(op.key));
    if (answering?.own) result.ownShape.push(op.key);
    else if (answering) result.served += 1;
    if (answering) continue;
    const rule = outOfScope(op);
    const groups = rule ? result.outOfScope : result.notYet;
    const group = rule ? rule.area : op.tags[0] ?? 'untagged';
    if (!groups.has(group)) groups.set(group, { why: rule?.why, operations: [] });
    groups.get(group).operations.push(op.key);
  }
  result.additions = [...servedOps.keys()].filter((k) => !publicKeys.has(k)).length;
  return result;
}

const count = (groups) => [...groups.values()].reduce((n, g) => n + g.operations.length, 0);

/** The README's section. */
export function summary(c = coverage()) {
  const lines = [
    `Of the ${c.total} operations of the public document (\`@gitbook/api\` ${c.version}), quire serves **${c.served}** as`,
    `documented and ${c.ownShape.length} in the API description's shape where the two differ (${c.ownShape.map((k) => `\`${k}\``).join(', ')}:`,
    'translation settings, where the public document now has AI translation syncs); the',
    `${count(c.outOfScope)} out of scope and ${count(c.notYet)} not served yet answer 501. quire also serves ${c.additions} operations of its`,
    'own (webhook endpoints, paths the API description documents that the public document lacks).',
    'Computed by `node scripts/api-coverage.mjs` from `/v1/openapi.json` and the public document.',
    '',
    '| Out of scope | Operations | Why |',
    '|---|---|---|',
    ...[...c.outOfScope].map(([area, g]) => `| ${area} | ${g.operations.length} | ${g.why} |`),
  ];
  if (c.notYet.size) {
    lines.push('', '| Not served yet (tag) | Operations |', '|---|---|');
    for (const [tag, g] of c.notYet) lines.push(`| ${tag} | ${g.operations.map((o) => `\`${o}\``).join(', ')} |`);
  }
  return lines.join('\n');
}

const START = '<!-- api-coverage:start -->';
const END = '<!-- api-coverage:end -->';

/** The README with its coverage section replaced by `text`. */
export function withSection(readme, text) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} section`);
  return `${readme.slice(0, start + START.length)}\n${text}\n${readme.slice(end)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const text = summary();
  if (process.argv.includes('--write')) {
    const file = path.resolve(import.meta.dirname, '../README.md');
    writeFileSync(file, withSection(readFileSync(file, 'utf8'), text));
    console.log('Wrote the api-coverage section of README.md');
  } else if (process.argv.includes('--list')) {
    for (const [group, g] of [...coverage().notYet, ...coverage().outOfScope]) for (const op of g.operations) console.log(`${group}\t${op}`);
  } else {
    console.log(text);
  }
}
