/**
 * Summarizes a V8 heap snapshot (.heapsnapshot, from `node --heapsnapshot-signal=SIGUSR2` or
 * v8.writeHeapSnapshot) by what retains it: self size by node type, then each object counted
 * once, for the package whose code holds it (a script, its functions and their contexts, and
 * what they dominate; else a referrer's package), then the largest dominators. The attribution
 * is a heuristic: read it for orders of magnitude, and drill into a retainer with DRILL.
 *   node --max-old-space-size=6000 scripts/heap-snapshot-summary.mjs FILE [packages to list: 40]
 * Environment: TOP (dominators listed: 40), MIN (their least size in bytes: 1 MiB), PREDS=1
 * (their referrers), DRILL=type:name (the dominator tree under the largest such node, DDEPTH deep).
 * See docs/performance.md, Memory.
 */

import fs from 'node:fs';
const file = process.argv[2];
const snap = JSON.parse(fs.readFileSync(file, 'utf8'));
const { node_fields, edge_fields, node_types, edge_types } = snap.snapshot.meta;
const NF = node_fields.length, EF = edge_fields.length;
const nodes = snap.nodes, edges = snap.edges, strings = snap.strings;
const N = nodes.length / NF;
const iType = node_fields.indexOf('type'), iName = node_fields.indexOf('name'), iSize = node_fields.indexOf('self_size'), iEC = node_fields.indexOf('edge_count');
const eType = edge_fields.indexOf('type'), eName = edge_fields.indexOf('name_or_index'), eTo = edge_fields.indexOf('to_node');
const ntypes = node_types[iType], etypes = edge_types[eType];
const firstEdge = new Uint32Array(N + 1);
for (let i = 0, e = 0; i < N; i++) { firstEdge[i] = e; e += nodes[i * NF + iEC] * EF; } firstEdge[N] = edges.length;
const typeOf = (i) => ntypes[nodes[i * NF + iType]];
const nameOf = (i) => strings[nodes[i * NF + iName]];
const sizeOf = (i) => nodes[i * NF + iSize];
const WEAK = etypes.indexOf('weak'), SHORTCUT = etypes.indexOf('shortcut');
const edgeName = (e) => { const t = etypes[edges[e + eType]]; return t === 'element' || t === 'hidden' ? String(edges[e + eName]) : strings[edges[e + eName]]; };
let total = 0; for (let i = 0; i < N; i++) total += sizeOf(i);
const MB = (b) => (b / 1048576).toFixed(1);
console.log(`nodes ${N}, total self ${MB(total)} MB`);
const byType = {};
for (let i = 0; i < N; i++) byType[typeOf(i)] = (byType[typeOf(i)] ?? 0) + sizeOf(i);
console.log('by type:', Object.entries(byType).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${MB(v)}`).join(', '));
// dominators (Cooper-Harvey-Kennedy) from node 0
const postIdx = new Int32Array(N).fill(-1); const order = new Uint32Array(N); let cnt = 0;
{ const stack = new Uint32Array(N); const ep = new Uint32Array(N); let sp = 0; const seen = new Uint8Array(N);
  stack[sp++] = 0; seen[0] = 1; ep[0] = firstEdge[0];
  while (sp) { const v = stack[sp - 1]; const e = ep[v];
    if (e < firstEdge[v + 1]) { ep[v] = e + EF; const t = edges[e + eType]; if (t === WEAK || t === SHORTCUT) continue; const w = edges[e + eTo] / NF; if (!seen[w]) { seen[w] = 1; ep[w] = firstEdge[w]; stack[sp++] = w; } }
    else { sp--; postIdx[v] = cnt; order[cnt++] = v; } } }
console.log(`reachable ${cnt}`);
// predecessors
const predCount = new Uint32Array(N + 1);
for (let v = 0; v < N; v++) { if (postIdx[v] < 0) continue; for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += EF) { const t = edges[e + eType]; if (t === WEAK || t === SHORTCUT) continue; predCount[edges[e + eTo] / NF + 1]++; } }
for (let i = 1; i <= N; i++) predCount[i] += predCount[i - 1];
const preds = new Uint32Array(predCount[N]); const fill = predCount.slice();
for (let v = 0; v < N; v++) { if (postIdx[v] < 0) continue; for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += EF) { const t = edges[e + eType]; if (t === WEAK || t === SHORTCUT) continue; const w = edges[e + eTo] / NF; preds[fill[w]++] = v; } }
const idom = new Int32Array(N).fill(-1); idom[0] = 0;
const intersect = (a, b) => { while (a !== b) { while (postIdx[a] < postIdx[b]) a = idom[a]; while (postIdx[b] < postIdx[a]) b = idom[b]; } return a; };
for (let changed = true, it = 0; changed; it++) { changed = false;
  for (let k = cnt - 2; k >= 0; k--) { const v = order[k]; let nd = -1;
    for (let p = predCount[v]; p < predCount[v + 1]; p++) { const u = preds[p]; if (idom[u] < 0) continue; nd = nd < 0 ? u : intersect(u, nd); }
    if (nd >= 0 && idom[v] !== nd) { idom[v] = nd; changed = true; } } }
const retained = new Float64Array(N);
for (let k = 0; k < cnt; k++) { const v = order[k]; retained[v] += sizeOf(v); if (v !== 0) retained[idom[v]] += retained[v]; }
// attribution to packages
const pkgOf = (url) => { if (!url) return null; let m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url); if (m) return m[1]; m = /\/(dist|src)\/(.*)$/.exec(url); if (m) { const parts = m[2].split('/'); return 'quire:' + (parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0]); } if (url.startsWith('node:') || !url.includes('/')) return '(node core)'; return url.slice(0, 60); };
const child = (v, name) => { for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += EF) if (edgeName(e) === name) return edges[e + eTo] / NF; return -1; };
const scriptName = (s) => nameOf(s);
const own = new Array(N).fill(null);
const sourceBy = {};
for (let v = 0; v < N; v++) {
  const t = typeOf(v), nm = nameOf(v);
  if (t === 'code' && child(v, 'source') >= 0 && child(v, 'name') >= 0 && (nm.startsWith('file:') || nm.startsWith('/') || nm.startsWith('node:'))) { const p = pkgOf(scriptName(v)); own[v] = p; const src = child(v, 'source'); if (src >= 0) { own[src] = p; sourceBy[p] = (sourceBy[p] ?? 0) + sizeOf(src); } }
}
for (let v = 0; v < N; v++) { const t = typeOf(v), nm = nameOf(v);
  if (t === 'code' && !own[v]) { let s = child(v, 'script'); if (s < 0) s = child(v, 'script_or_debug_info'); if (s >= 0 && own[s]) own[v] = own[s]; }
}
for (let v = 0; v < N; v++) { if (typeOf(v) === 'closure') { const s = child(v, 'shared'); if (s >= 0 && own[s]) own[v] = own[s]; } }
// contexts: attribute to the package of a closure pointing at them (first one)
for (let v = 0; v < N; v++) { if (typeOf(v) !== 'closure' || !own[v]) continue; const c = child(v, 'context'); if (c >= 0 && !own[c]) own[c] = own[v]; }
// propagate down dominator tree (order reversed = preorder-ish: parents before children since postorder reversed)
const attr = new Array(N).fill(null);
for (let k = cnt - 1; k >= 0; k--) { const v = order[k]; attr[v] = own[v] ?? (v === 0 ? null : attr[idom[v]]); }
// second pass: a node dominated by nothing attributed takes the package of an attributed predecessor (e.g. a constant pool)
for (let pass = 0; pass < 3; pass++) {
  for (let k = cnt - 1; k >= 0; k--) { const v = order[k]; if (!attr[v] && !own[v]) { for (let p = predCount[v]; p < predCount[v + 1]; p++) { const u = preds[p]; if (attr[u]) { own[v] = attr[u]; break; } } }
    attr[v] = own[v] ?? (v === 0 ? null : attr[idom[v]]); }
}
const byPkg = {};
for (let k = 0; k < cnt; k++) { const v = order[k]; const p = attr[v] ?? '(unattributed)'; byPkg[p] = (byPkg[p] ?? 0) + sizeOf(v); }
const top = Object.entries(byPkg).sort((a, b) => b[1] - a[1]);
const un = {}; for (let k = 0; k < cnt; k++) { const v = order[k]; if (attr[v]) continue; const key = typeOf(v) + ':' + nameOf(v).replace(/\s+/g, ' ').slice(0, 40); un[key] = (un[key] ?? 0) + sizeOf(v); }
console.log('unattributed by type:name:', Object.entries(un).sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${k} ${MB(v)}`).join('\n  '));
console.log('\nself size of objects attributed to a package (own script/closure/context, else dominator):');
for (const [p, s] of top.slice(0, Number(process.argv[3] ?? 40))) console.log(`${MB(s).padStart(7)} MB  ${p}   (source text ${MB(sourceBy[p] ?? 0)})`);
// top dominators overall
const idx = Array.from({ length: cnt }, (_, k) => order[k]).filter((v) => v !== 0).sort((a, b) => retained[b] - retained[a]);
console.log('\nlargest retainers (not nested in a larger one listed):');
const listed = new Set(); let shown = 0;
for (const v of idx) { if (shown >= Number(process.env.TOP ?? 40)) break; if (retained[v] < Number(process.env.MIN ?? 1048576)) break; let u = idom[v], nested = false; while (u !== 0) { if (listed.has(u)) { nested = true; break; } u = idom[u]; } if (nested) continue; listed.add(v); shown++;
  const edgeTo = (u, w) => { for (let e = firstEdge[u]; e < firstEdge[u + 1]; e += EF) if (edges[e + eTo] / NF === w) return edgeName(e); return '~'; };
  const path = []; let w = v; for (let d = 0; d < Number(process.env.DEPTH ?? 6) && w !== 0; d++) { path.push(`${typeOf(w)}:${nameOf(w).replace(/\s+/g, ' ').slice(0, 40)}.${edgeTo(idom[w], w)}`); w = idom[w]; }
  console.log(`${MB(retained[v]).padStart(7)} MB  [${attr[v] ?? '-'}] ${path.join(' <- ')}`);
  if (process.env.PREDS) { let shownP = 0; for (let p = predCount[v]; p < predCount[v + 1] && shownP < 6; p++, shownP++) { const u = preds[p]; console.log(`          <- ${edgeTo(u, v)} of ${typeOf(u)}:${nameOf(u).replace(/\s+/g, ' ').slice(0, 60)} [${attr[u] ?? '-'}] <- ${(() => { const r = []; for (let q = predCount[u]; q < predCount[u + 1] && r.length < 3; q++) r.push(edgeTo(preds[q], u) + ' of ' + typeOf(preds[q]) + ':' + nameOf(preds[q]).replace(/\s+/g, ' ').slice(0, 50) + ' [' + (attr[preds[q]] ?? '-') + ']'); return r.join(' | '); })()}`); } } }
if (process.env.DRILL) {
  const kids = new Map();
  for (let k = 0; k < cnt; k++) { const v = order[k]; if (v === 0) continue; const d = idom[v]; if (!kids.has(d)) kids.set(d, []); kids.get(d).push(v); }
  const edgeTo2 = (u, w) => { for (let e = firstEdge[u]; e < firstEdge[u + 1]; e += EF) if (edges[e + eTo] / NF === w) return edgeName(e); return '~'; };
  const show = (v, depth, max) => { const ks = (kids.get(v) ?? []).sort((a, b) => retained[b] - retained[a]).filter((w) => retained[w] > Number(process.env.DMIN ?? 200000)).slice(0, 8);
    for (const w of ks) { console.log(`${'  '.repeat(depth)}${MB(retained[w]).padStart(6)} ${edgeTo2(v, w)} -> ${typeOf(w)}:${nameOf(w).replace(/\s+/g, ' ').slice(0, 60)}`); if (depth < max) show(w, depth + 1, max); } };
  const targets = Array.from({ length: cnt }, (_, k) => order[k]).filter((v) => `${typeOf(v)}:${nameOf(v)}`.startsWith(process.env.DRILL)).sort((a, b) => retained[b] - retained[a]).slice(0, 1);
  for (const t of targets) { console.log(`DRILL ${typeOf(t)}:${nameOf(t).slice(0, 60)} ${MB(retained[t])}`); show(t, 1, Number(process.env.DDEPTH ?? 4)); }
}
