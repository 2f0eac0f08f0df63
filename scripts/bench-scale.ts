/**
 * Scale benchmark: does one page of a list cost the same in a small and in a huge organization?
 * Seeds two organizations in one database (N spaces and N members each, N/10 collections of which
 * 10% nest, N/50 teams of five, grants to users and teams, a guest with grants on ~20 spaces and
 * 2 collections, and a `read` member with none), serves quire on 127.0.0.1 from a worker thread of
 * this process, sends sequential requests (no concurrency) for one page of each list and prints
 * median / p90 latency, SQL statements per request (counted by the server's Prisma `onQuery`) and
 * the large/small ratio of the medians, then a table and the worst ratio against the 1.5× target.
 * Every response is checked (status, count, page size); a failed check prints FAIL and the run
 * goes on. Figures, not pass/fail: the exit code is non-zero only when seeding fails or the server
 * fails (does not start, or crashes, e.g. out of memory: then the scenario is reported and the
 * server restarted). Usage:
 *   DATABASE_URL=postgresql://… npx tsx scripts/bench-scale.ts [--small 500] [--large 50000]
 *     [--requests 200] [--warmup 30] [--limit 20] [--budget 120] [--timeout 300]
 * Without DATABASE_URL it uses the embedded PostgreSQL under ./.quire/bench-scale. Each run seeds
 * fresh organizations (earlier runs' data stays). `--budget`: at most this many seconds per
 * scenario and organization (a quarter for the warm-up; fewer requests are measured when it runs
 * out). `--timeout`: seconds after which one request counts as failed (the server is restarted).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import type { Prisma } from '../src/generated/prisma/client.js';
import { createOrganizationWithOwner, createUser } from '../src/domain/people/identity/bootstrap.js';
import { newId } from '../src/domain/kernel/ids.js';

// ─── options ────────────────────────────────────────────────────────────────────────────────

type Options = { small: number; large: number; requests: number; warmup: number; limit: number; budgetMs: number; timeoutMs: number };

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      small: { type: 'string', default: '500' },
      large: { type: 'string', default: '50000' },
      requests: { type: 'string', default: '200' },
      warmup: { type: 'string', default: '30' },
      limit: { type: 'string', default: '20' },
      budget: { type: 'string', default: '120' },
      timeout: { type: 'string', default: '300' },
    },
  });
  const int = (name: keyof typeof values, min: number) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min} (got ${values[name]})`);
    return n;
  };
  return {
    small: int('small', 50),
    large: int('large', 50),
    requests: int('requests', 1),
    warmup: int('warmup', 0),
    limit: int('limit', 1),
    budgetMs: int('budget', 1) * 1000,
    timeoutMs: int('timeout', 1) * 1000,
  };
}

// ─── seeding ────────────────────────────────────────────────────────────────────────────────

type Label = 'small' | 'large';
type Caller = 'owner' | 'guest' | 'reader';

type SeededOrg = {
  label: Label;
  n: number;
  id: string;
  tokens: Record<Caller, string>;
  /** A live space the guest cannot see (the permissions/aggregate scenario). */
  aggregateSpaceId: string;
  expect: {
    spaces: number;
    guestSpaces: number;
    guestCollections: number;
    members: number;
    /** Members with a `lastSeenAt` (what `sort=lastSeenAt` lists), counted when the scenario starts. */
    seenMembers: number;
    collections: number;
    rootCollections: number;
    teams: number;
    aggregate: number;
  };
};

type CollectionRow = { id: string; parentId: string | null };
type SpaceRow = { id: string; parentId: string | null; deleted: boolean };

const CHUNK = 5_000;
type Role = Prisma.ContentPermissionCreateManyInput['role'];
const ROLE_CYCLE: Role[] = ['read', 'read', 'read', 'comment', 'edit', 'edit', 'review', 'create', 'read', 'admin'];

type SqlType = 'text' | 'integer' | 'timestamp(3)' | '"Role"' | '"TeamRole"' | '"SpaceVisibility"';

/**
 * Bulk insert: per chunk of CHUNK rows, one `INSERT … SELECT * FROM unnest($1::text[], …)` with
 * one array parameter per column (about ten times faster than createMany, whose per-row work in
 * the Prisma client dominates at this size). Rows are Prisma's createMany inputs, so the column
 * names are checked against the schema; every row must have the same keys. Columns not listed
 * in `types` are text. Triggers and column defaults apply as for any INSERT, but Prisma's
 * client-side `@updatedAt` does not: rows must give `updatedAt` where the model has one.
 */
async function insertRows<T extends object>(db: Db, table: string, rows: T[], types: Partial<Record<keyof T & string, SqlType>> = {}): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]) as (keyof T & string)[];
  const names = columns.map((c) => `"${c}"`).join(', ');
  const arrays = columns.map((c, i) => `$${i + 1}::${types[c] ?? 'text'}[]`).join(', ');
  const sql = `INSERT INTO "${table}" (${names}) SELECT * FROM unnest(${arrays})`;
  const value = (v: unknown) => (v instanceof Date ? v.toISOString() : (v ?? null));
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await db.$executeRawUnsafe(sql, ...columns.map((c) => chunk.map((row) => value(row[c]))));
  }
}

async function seedUsersAndMembers(db: Db, orgId: string, n: number, tag: string): Promise<string[]> {
  const users: Prisma.UserCreateManyInput[] = Array.from({ length: n }, (_, i) => ({ id: newId('User'), email: `u${i}.${tag}@bench-scale.test`, displayName: `User ${i}` }));
  await insertRows(db, 'User', users);
  const now = Date.now();
  const members: Prisma.MemberCreateManyInput[] = users.map((u, i) => ({
    organizationId: orgId,
    userId: u.id,
    role: ROLE_CYCLE[i % ROLE_CYCLE.length],
    joinedAt: new Date(now - (n - i) * 60_000),
    lastSeenAt: i % 3 === 0 ? null : new Date(now - ((i * 7919) % n) * 1000),
  }));
  await insertRows(db, 'Member', members, { role: '"Role"', joinedAt: 'timestamp(3)', lastSeenAt: 'timestamp(3)' });
  return users.map((u) => u.id);
}

/**
 * N/10 collections: 90% at the root, then 10% nested (two thirds under a root collection, one
 * third one level deeper), inserted level by level so parents exist before their children.
 */
async function seedCollections(db: Db, orgId: string, n: number): Promise<CollectionRow[][]> {
  const total = Math.max(1, Math.floor(n / 10));
  const nested = Math.floor(total / 10);
  const deeper = Math.floor(nested / 3);
  const make = (count: number, parentOf: (j: number) => string | null): CollectionRow[] =>
    Array.from({ length: count }, (_, j) => ({ id: newId('Collection'), parentId: parentOf(j) }));
  const roots = make(total - nested, () => null);
  const level1 = make(nested - deeper, (j) => roots[(j * 13) % roots.length].id);
  const level2 = make(deeper, (j) => level1[(j * 7) % level1.length].id);
  let position = 0;
  for (const level of [roots, level1, level2]) {
    const rows: Prisma.CollectionCreateManyInput[] = level.map((c) => ({
      id: c.id,
      organizationId: orgId,
      parentId: c.parentId,
      title: `Collection ${position}`,
      position: position++,
      updatedAt: new Date(),
    }));
    await insertRows(db, 'Collection', rows, { position: 'integer', updatedAt: 'timestamp(3)' });
  }
  return [roots, level1, level2];
}

/**
 * N live spaces (one in ten at the root, the rest spread over the collections; visibilities
 * public, in-collection and private) plus N/100 trashed ones interleaved in creation order, each
 * with its revision.
 */
async function seedSpaces(db: Db, orgId: string, n: number, collections: CollectionRow[]): Promise<SpaceRow[]> {
  const base = Date.now() - 30 * 24 * 3600_000;
  const trashed = Math.floor(n / 100);
  const spaces: SpaceRow[] = [];
  const rows: Prisma.SpaceCreateManyInput[] = [];
  const inCollection: string[] = [];
  for (let i = 0; i < n + trashed; i++) {
    const deleted = i >= n;
    const k = deleted ? i - n : i;
    const parentId = k % 10 === 0 ? null : collections[(k * 7919) % collections.length].id;
    const id = newId('Space');
    if (k % 5 === 1 && parentId) inCollection.push(id);
    spaces.push({ id, parentId, deleted });
    rows.push({
      id,
      organizationId: orgId,
      parentId,
      title: `Space ${i}`,
      position: i,
      visibility: k % 5 === 0 ? 'public' : 'private',
      revisionId: newId('Revision'),
      createdAt: new Date(base + (deleted ? k * 100 + 50 : i) * 10),
      updatedAt: new Date(),
      deletedAt: deleted ? new Date() : null,
    });
  }
  const dates = { createdAt: 'timestamp(3)', updatedAt: 'timestamp(3)', deletedAt: 'timestamp(3)' } as const;
  await insertRows(db, 'Space', rows, { position: 'integer', visibility: '"SpaceVisibility"', ...dates });
  await insertRows<Prisma.RevisionCreateManyInput>(db, 'Revision', rows.map((s) => ({ id: s.revisionId, spaceId: s.id, lineId: s.id, seq: 1 })), { seq: 'integer' });
  // Through Prisma: `in_collection` is stored as `in-collection` (@map), which raw SQL would need to know.
  for (let i = 0; i < inCollection.length; i += CHUNK) {
    await db.space.updateMany({ where: { id: { in: inCollection.slice(i, i + CHUNK) } }, data: { visibility: 'in_collection' } });
  }
  return spaces;
}

/** N/50 teams of five members (the first one owns the team). */
async function seedTeams(db: Db, orgId: string, n: number, users: string[]): Promise<string[]> {
  const teams: Prisma.TeamCreateManyInput[] = Array.from({ length: Math.max(2, Math.floor(n / 50)) }, (_, t) => ({ id: newId('Team'), organizationId: orgId, title: `Team ${t}` }));
  await insertRows(db, 'Team', teams);
  const memberships: Prisma.TeamMemberCreateManyInput[] = teams.flatMap((team, t) =>
    Array.from({ length: 5 }, (_, k) => ({ teamId: team.id, userId: users[(t * 5 + k) % users.length], role: k === 0 ? ('owner' as const) : ('member' as const) })),
  );
  await insertRows(db, 'TeamMember', memberships, { role: '"TeamRole"' });
  return teams.map((t) => t.id);
}

/**
 * Per space one or two user grants and, on every fourth, a team grant; on every fifth collection
 * a user and a team grant. Grants to the guest are added separately (seedGuestGrants).
 */
async function seedGrants(db: Db, orgId: string, spaces: SpaceRow[], collections: CollectionRow[], users: string[], teams: string[]): Promise<void> {
  type Target = { spaceId?: string; collectionId?: string };
  type Holder = { userId?: string; teamId?: string };
  const grant = ({ spaceId, collectionId }: Target, { userId, teamId }: Holder, role: Role): Prisma.ContentPermissionCreateManyInput => ({
    id: newId('ContentPermission'),
    organizationId: orgId,
    spaceId: spaceId ?? null,
    collectionId: collectionId ?? null,
    userId: userId ?? null,
    teamId: teamId ?? null,
    role,
  });
  const rows: Prisma.ContentPermissionCreateManyInput[] = [];
  spaces.forEach((s, i) => {
    rows.push(grant({ spaceId: s.id }, { userId: users[(i * 31) % users.length] }, 'edit'));
    if (i % 2 === 0) rows.push(grant({ spaceId: s.id }, { userId: users[(i * 31 + 1) % users.length] }, 'comment'));
    if (i % 4 === 0) rows.push(grant({ spaceId: s.id }, { teamId: teams[i % teams.length] }, 'read'));
  });
  collections.forEach((c, i) => {
    if (i % 5 !== 0) return;
    rows.push(grant({ collectionId: c.id }, { userId: users[(i * 17) % users.length] }, 'admin'));
    rows.push(grant({ collectionId: c.id }, { teamId: teams[i % teams.length] }, 'edit'));
  });
  await insertRows(db, 'ContentPermission', rows, { role: '"Role"' });
}

/** The guest reads ~20 spaces directly and 2 collections (one with nested collections). */
async function seedGuestGrants(db: Db, orgId: string, guestId: string, live: SpaceRow[], levels: CollectionRow[][]) {
  const [roots, level1] = levels;
  const spaceIds = [...new Set(Array.from({ length: 20 }, (_, k) => live[(k * Math.floor(live.length / 20) + 1) % live.length].id))];
  const withChildren = level1.length ? level1[0].parentId! : roots[0].id;
  const collectionIds = [...new Set([withChildren, roots[roots.length - 1].id])];
  const rows: Prisma.ContentPermissionCreateManyInput[] = [
    ...spaceIds.map((spaceId) => ({ id: newId('ContentPermission'), organizationId: orgId, spaceId, userId: guestId, role: 'read' as const })),
    ...collectionIds.map((collectionId) => ({ id: newId('ContentPermission'), organizationId: orgId, collectionId, userId: guestId, role: 'comment' as const })),
  ];
  await db.contentPermission.createMany({ data: rows });
  return { spaceIds: new Set(spaceIds), collectionIds: new Set(collectionIds) };
}

/** Whether a collection is one the guest's grants reach: granted, or under a granted one (at any depth). */
function underGrant(collections: CollectionRow[], granted: { collectionIds: Set<string> }): (collectionId: string | null) => boolean {
  const parentOf = new Map(collections.map((c) => [c.id, c.parentId]));
  return (collectionId) => {
    for (let id = collectionId; id; id = parentOf.get(id) ?? null) if (granted.collectionIds.has(id)) return true;
    return false;
  };
}

/** Live spaces the guest can read: granted directly, or under a granted collection (at any depth). */
function guestVisible(live: SpaceRow[], collections: CollectionRow[], granted: { spaceIds: Set<string>; collectionIds: Set<string> }): Set<string> {
  const reached = underGrant(collections, granted);
  return new Set(live.filter((s) => granted.spaceIds.has(s.id) || reached(s.parentId)).map((s) => s.id));
}

/** How many collections the guest can see: the granted ones and everything under them. */
function guestVisibleCollections(collections: CollectionRow[], granted: { collectionIds: Set<string> }): number {
  const reached = underGrant(collections, granted);
  return collections.filter((c) => reached(c.id)).length;
}

async function seedOrganization(db: Db, label: Label, n: number, runId: string): Promise<SeededOrg> {
  const tag = `${label}.${runId}`;
  const owner = await createOrganizationWithOwner(db, { title: `Scale ${label} ${runId}`, ownerEmail: `owner.${tag}@bench-scale.test` });
  const orgId = owner.organization.id;
  const guest = await createUser(db, { email: `guest.${tag}@bench-scale.test`, org: orgId, role: 'guest' });
  const reader = await createUser(db, { email: `reader.${tag}@bench-scale.test`, org: orgId, role: 'read' });

  const steps: string[] = [];
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await fn();
    steps.push(`${name} ${((performance.now() - start) / 1000).toFixed(1)}s`);
    return result;
  };
  const users = await step('users+members', () => seedUsersAndMembers(db, orgId, n, tag));
  const levels = await step('collections', () => seedCollections(db, orgId, n));
  const collections = levels.flat();
  const spaces = await step('spaces+revisions', () => seedSpaces(db, orgId, n, collections));
  const teams = await step('teams', () => seedTeams(db, orgId, n, users));
  await step('grants', () => seedGrants(db, orgId, spaces, collections, users, teams));
  const live = spaces.filter((s) => !s.deleted);
  const grants = await seedGuestGrants(db, orgId, guest.user.id, live, levels);
  const visible = guestVisible(live, collections, grants);
  console.log(`  ${label}: ${steps.join(', ')}`);

  const aggregateSpace = live.find((s, i) => i > 0 && !visible.has(s.id))!;
  return {
    label,
    n,
    id: orgId,
    tokens: { owner: owner.token, guest: guest.token, reader: reader.token },
    aggregateSpaceId: aggregateSpace.id,
    expect: {
      spaces: live.length,
      guestSpaces: visible.size,
      guestCollections: guestVisibleCollections(collections, grants),
      members: n + 3, // the seeded members, the owner, the guest and the reader
      seenMembers: n - Math.ceil(n / 3),
      collections: collections.length,
      rootCollections: levels[0].length,
      teams: teams.length,
      aggregate: n + 2, // every member with an organization role (seeded, owner, reader); not the guest
    },
  };
}

// ─── measuring ──────────────────────────────────────────────────────────────────────────────

type Request = { method: 'GET' | 'POST'; path: string; body?: string };
type Reply = { status: number; body: any; ms: number; statements: number };

type Scenario = {
  name: string;
  caller: Caller;
  /** The request for one organization, or why it cannot be made (a failure). */
  request: (org: SeededOrg) => Promise<Request | { fail: string }>;
  /** A failure message, or null when the reply is right. */
  check: (org: SeededOrg, reply: Reply) => string | null;
};

type Measurement = { samples: number[]; statements: number[]; failures: number; note?: string };

/**
 * quire, served from a worker thread of this process: buildApp + start(0, '127.0.0.1') over its
 * own Prisma client, whose `onQuery` counts SQL statements into memory shared with this thread.
 * A worker thread, not this one, so that a server running out of memory (a possible result at
 * scale) ends that thread and is reported, instead of ending the benchmark.
 */
class ServerThread {
  base = '';
  crashes = 0;
  private worker?: Worker;
  private exited?: Promise<void>;
  private failure?: string;
  private readonly statements = new Int32Array(new SharedArrayBuffer(4));

  constructor(private readonly databaseUrl: string) {}

  statementCount(): number {
    return Atomics.load(this.statements, 0);
  }

  async start(): Promise<void> {
    // The worker runs this file: register tsx there first (workers do not inherit its loader).
    const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
    const data: ServerData = { databaseUrl: this.databaseUrl, statements: this.statements.buffer as SharedArrayBuffer };
    const worker = new Worker(boot, { eval: true, workerData: data });
    this.worker = worker;
    this.failure = undefined;
    this.exited = new Promise((resolve) => {
      worker.on('error', (error: Error & { code?: string }) => (this.failure = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'the server ran out of memory' : `the server failed: ${error.message}`));
      worker.on('exit', (code) => {
        this.failure ??= `the server thread exited (code ${code})`;
        if (this.worker === worker) this.worker = undefined;
        resolve();
      });
    });
    const listening = new Promise<string>((resolve) => worker.once('message', (m: { listening: string }) => resolve(m.listening)));
    const base = await Promise.race([listening, this.exited.then(() => undefined)]);
    if (!base) throw new Error(`the server did not start: ${this.failure}`);
    this.base = base;
  }

  /** Stops the server cleanly, or ends its thread when that takes more than 10 s. */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    worker.postMessage('stop');
    const timer = setTimeout(() => void worker.terminate(), 10_000);
    await this.exited;
    clearTimeout(timer);
  }

  /** After a failed request: why the server failed, if it did (waits briefly for its thread to end). */
  async diagnose(): Promise<string | undefined> {
    if (this.worker) await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
    if (this.worker) return undefined;
    this.crashes++;
    return this.failure;
  }

  /** A fresh server: ends a running one (e.g. still busy with a request that timed out) first. */
  async restart(): Promise<void> {
    if (this.worker) {
      await this.worker.terminate();
      await this.exited;
    }
    await this.start();
  }
}

type ServerData = { databaseUrl: string; statements: SharedArrayBuffer };

/** The worker thread's side of ServerThread. */
async function serveInThisThread({ databaseUrl, statements }: ServerData): Promise<void> {
  const counter = new Int32Array(statements);
  const db = createPrismaClient(databaseUrl, { poolMax: 10, onQuery: () => Atomics.add(counter, 0, 1) });
  const app = buildApp({ db, config: { ...loadConfig({ PORT: '0', QUIRE_RATE_LIMIT: process.env.QUIRE_RATE_LIMIT ?? '1000000000' }), databaseUrl } });
  const { url } = await app.start(0, '127.0.0.1');
  parentPort!.on('message', async () => {
    await app.stop();
    await db.$disconnect();
    process.exit(0); // ends this thread only
  });
  parentPort!.postMessage({ listening: url });
}

class Client {
  constructor(
    private readonly server: ServerThread,
    private readonly timeoutMs: number,
  ) {}

  async send(token: string, req: Request): Promise<Reply> {
    const before = this.server.statementCount();
    const start = performance.now();
    const res = await fetch(this.server.base + req.path, {
      method: req.method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: req.body,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    const ms = performance.now() - start;
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // keep the text: the check reports it
    }
    return { status: res.status, body, ms, statements: this.server.statementCount() - before };
  }
}

/**
 * Warm-up (at most a quarter of the time budget), then measured requests until `--requests` or
 * the budget. Failed checks are counted and the first one printed. A request that fails (timeout,
 * server crash) ends the measurement and restarts the server.
 */
async function measure(client: Client, server: ServerThread, scenario: Scenario, org: SeededOrg, opts: Options): Promise<Measurement> {
  const result: Measurement = { samples: [], statements: [], failures: 0 };
  const fail = (message: string) => {
    if (result.failures++ === 0) console.log(`    FAIL ${org.label}: ${message}`);
  };
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const token = org.tokens[scenario.caller];
  try {
    const req = await scenario.request(org);
    if ('fail' in req) {
      fail(req.fail);
      return { ...result, note: 'not measured' };
    }
    for (let i = 0; i < opts.warmup && elapsed() < opts.budgetMs / 4; i++) {
      const reply = await client.send(token, req);
      const failure = scenario.check(org, reply);
      if (failure) fail(failure);
    }
    while (result.samples.length < opts.requests) {
      if (result.samples.length > 0 && elapsed() > opts.budgetMs) {
        result.note = `time budget of ${opts.budgetMs / 1000}s reached after ${result.samples.length} measured requests`;
        break;
      }
      const reply = await client.send(token, req);
      const failure = scenario.check(org, reply);
      if (failure) fail(failure);
      result.samples.push(reply.ms);
      result.statements.push(reply.statements);
    }
  } catch (error) {
    const reason = (await server.diagnose()) ?? `request failed: ${(error as Error).message}`;
    result.failures++;
    result.note = `stopped: ${reason}`;
    console.log(`    FAIL ${org.label}: ${reason} (after ${((performance.now() - started) / 1000).toFixed(1)}s); restarting the server`);
    await server.restart();
  }
  if (result.failures > 1) console.log(`    FAIL ${org.label}: ${result.failures} responses failed their check`);
  return result;
}

function quantile(values: number[], q: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

const fmt = (ms: number) => (Number.isNaN(ms) ? '—' : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));

/** Statements per request: one number when constant, else "min–max". */
function statementsOf(m: Measurement): string {
  if (!m.statements.length) return '—';
  const lo = Math.min(...m.statements);
  const hi = Math.max(...m.statements);
  return lo === hi ? String(lo) : `${lo}–${hi}`;
}

function report(org: SeededOrg, m: Measurement): void {
  const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
  const figures = m.samples.length
    ? `median ${fmt(quantile(m.samples, 0.5))} ms, p90 ${fmt(quantile(m.samples, 0.9))} ms, ${statementsOf(m)} statements/request, ${m.samples.length} requests, RSS ${rss} MiB`
    : 'no measurement';
  console.log(`    ${org.label.padEnd(5)} (N=${org.n}): ${figures}${m.note ? ` — ${m.note}` : ''}`);
}

// ─── scenarios ──────────────────────────────────────────────────────────────────────────────

const get = (path: string): Request => ({ method: 'GET', path });

/** A REST list reply: status 200, `count` as expected, and a full page of `items` (fewer at the end). */
function listCheck(expected: (org: SeededOrg) => number, limit: number, offset = 0) {
  return (org: SeededOrg, reply: Reply): string | null => {
    if (reply.status !== 200) return `status ${reply.status}: ${JSON.stringify(reply.body).slice(0, 300)}`;
    const want = expected(org);
    const { count, items } = reply.body ?? {};
    if (count !== want) return `count ${count}, expected ${want}`;
    if (!Array.isArray(items)) return 'no items array';
    const page = Math.max(0, Math.min(limit, want - offset));
    if (items.length !== page) return `${items.length} items, expected ${page}`;
    return null;
  };
}

function graphqlCheck(expected: (org: SeededOrg) => number, limit: number) {
  return (org: SeededOrg, reply: Reply): string | null => {
    if (reply.status !== 200) return `status ${reply.status}: ${JSON.stringify(reply.body).slice(0, 300)}`;
    if (reply.body?.errors) return `errors: ${JSON.stringify(reply.body.errors).slice(0, 300)}`;
    const spaces = reply.body?.data?.organization?.spaces;
    const want = expected(org);
    if (spaces?.totalCount !== want) return `totalCount ${spaces?.totalCount}, expected ${want}`;
    if (spaces.edges?.length !== Math.min(limit, want)) return `${spaces.edges?.length} edges, expected ${Math.min(limit, want)}`;
    return null;
  };
}

function buildScenarios(db: Db, client: Client, limit: number): Scenario[] {
  const spacesPath = (org: SeededOrg) => `/v1/orgs/${org.id}/spaces?limit=${limit}`;
  const firstPageIds = new Map<string, Set<string>>();
  const secondPage = async (org: SeededOrg): Promise<Request | { fail: string }> => {
    const first = await client.send(org.tokens.owner, get(spacesPath(org)));
    const cursor = first.body?.next?.page;
    if (first.status !== 200) return { fail: `the first page answered ${first.status}` };
    if (typeof cursor !== 'string') return { fail: 'the first page answered no `next` (no second page to ask for)' };
    firstPageIds.set(org.id, new Set((first.body.items ?? []).map((s: { id: string }) => s.id)));
    return get(`${spacesPath(org)}&page=${encodeURIComponent(cursor)}`);
  };
  const secondPageCheck = (org: SeededOrg, reply: Reply) => {
    const failure = listCheck((o) => o.expect.spaces, limit, limit)(org, reply);
    if (failure) return failure;
    const repeated = (reply.body.items as { id: string }[]).filter((s) => firstPageIds.get(org.id)?.has(s.id));
    return repeated.length ? `${repeated.length} items of the first page repeated on the second` : null;
  };
  const graphql = (org: SeededOrg): Request => ({
    method: 'POST',
    path: '/graphql',
    body: JSON.stringify({
      query: `query($id: ID!) { organization(id: $id) { spaces(first: ${limit}) { totalCount edges { node { id title permissions { admin } } } } } }`,
      variables: { id: org.id },
    }),
  });
  const rest = (name: string, caller: Caller, path: (org: SeededOrg) => string, expected: (org: SeededOrg) => number): Scenario => ({
    name,
    caller,
    request: async (org) => get(path(org)),
    check: listCheck(expected, limit),
  });
  return [
    rest(`REST spaces ?limit=${limit}`, 'owner', spacesPath, (o) => o.expect.spaces),
    { name: `REST spaces ?limit=${limit}&page=<next> (page 2)`, caller: 'owner', request: secondPage, check: secondPageCheck },
    rest(`REST members ?limit=${limit}`, 'owner', (o) => `/v1/orgs/${o.id}/members?limit=${limit}`, (o) => o.expect.members),
    {
      // The API lists only members who have been seen with this sort; recount them first in case
      // serving requests sets lastSeenAt (not counted as statements of a request).
      ...rest(`REST members ?limit=${limit}&sort=lastSeenAt`, 'owner', (o) => `/v1/orgs/${o.id}/members?limit=${limit}&sort=lastSeenAt`, (o) => o.expect.seenMembers),
      request: async (org) => {
        org.expect.seenMembers = await db.member.count({ where: { organizationId: org.id, lastSeenAt: { not: null } } });
        return get(`/v1/orgs/${org.id}/members?limit=${limit}&sort=lastSeenAt`);
      },
    },
    rest(`REST collections ?limit=${limit} (nested)`, 'owner', (o) => `/v1/orgs/${o.id}/collections?limit=${limit}`, (o) => o.expect.collections),
    rest(`REST collections ?nested=false&limit=${limit}`, 'owner', (o) => `/v1/orgs/${o.id}/collections?nested=false&limit=${limit}`, (o) => o.expect.rootCollections),
    rest(`REST teams ?limit=${limit}`, 'owner', (o) => `/v1/orgs/${o.id}/teams?limit=${limit}`, (o) => o.expect.teams),
    rest(`REST space permissions/aggregate ?limit=${limit}`, 'owner', (o) => `/v1/spaces/${o.aggregateSpaceId}/permissions/aggregate?limit=${limit}`, (o) => o.expect.aggregate),
    { name: `GraphQL organization.spaces(first: ${limit})`, caller: 'owner', request: async (org) => graphql(org), check: graphqlCheck((o) => o.expect.spaces, limit) },
    rest(`REST spaces ?limit=${limit} as guest`, 'guest', spacesPath, (o) => o.expect.guestSpaces),
    rest(`REST collections ?limit=${limit} as guest`, 'guest', (o) => `/v1/orgs/${o.id}/collections?limit=${limit}`, (o) => o.expect.guestCollections),
    rest(`REST spaces ?limit=${limit} as read member`, 'reader', spacesPath, (o) => o.expect.spaces),
  ];
}

// ─── summary ────────────────────────────────────────────────────────────────────────────────

type Row = { name: string; small: Measurement; large: Measurement };

const TARGET_RATIO = 1.5;

function ratioOf(row: Row): number {
  return quantile(row.large.samples, 0.5) / quantile(row.small.samples, 0.5);
}

function printTable(rows: Row[]): void {
  const lines = rows.map((r) => {
    const small = quantile(r.small.samples, 0.5);
    const large = quantile(r.large.samples, 0.5);
    const ratio = ratioOf(r);
    const truncated = r.large.note || r.small.note ? ' *' : '';
    return [r.name, fmt(small), fmt(large), Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '—', `${statementsOf(r.small)} / ${statementsOf(r.large)}${truncated}`];
  });
  const header = ['scenario', 'small median ms', 'large median ms', 'ratio', 'statements/request (small / large)'];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(line(l));
  if (rows.some((r) => r.large.note || r.small.note)) console.log('* see the scenario output above: not measured, stopped by a failure or cut by the time budget');

  const measured = rows.filter((r) => Number.isFinite(ratioOf(r)));
  if (!measured.length) return console.log('worst ratio: — (nothing measured)');
  const worst = measured.reduce((a, b) => (ratioOf(b) > ratioOf(a) ? b : a));
  const failures = rows.reduce((sum, r) => sum + r.small.failures + r.large.failures, 0);
  const meets = ratioOf(worst) <= TARGET_RATIO;
  console.log(`worst ratio: ${ratioOf(worst).toFixed(2)}× (${worst.name}) — target ≤ ${TARGET_RATIO}×: ${meets ? 'MET' : 'NOT MET'}`);
  console.log(failures ? `FAIL: ${failures} failed checks or requests (see the FAIL lines above)` : 'all responses passed their checks');
}

// ─── main ───────────────────────────────────────────────────────────────────────────────────

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

async function seed(db: Db, opts: Options): Promise<SeededOrg[]> {
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const orgs: SeededOrg[] = [];
  for (const [label, n] of [['small', opts.small], ['large', opts.large]] as const) {
    const start = performance.now();
    const org = await seedOrganization(db, label, n, runId);
    const e = org.expect;
    console.log(
      `seeded ${label} organization ${org.id} in ${((performance.now() - start) / 1000).toFixed(1)}s: ${e.spaces} live spaces (+${Math.floor(n / 100)} trashed), ` +
        `${e.members} members, ${e.collections} collections (${e.rootCollections} at the root), ${e.teams} teams; the guest sees ${e.guestSpaces} spaces`,
    );
    orgs.push(org);
  }
  const start = performance.now();
  // The state autovacuum keeps a live database in: statistics, visibility map, GIN pending lists merged.
  await db.$executeRawUnsafe('VACUUM ANALYZE');
  console.log(`VACUUM ANALYZE in ${((performance.now() - start) / 1000).toFixed(1)}s`);
  return orgs;
}

async function runScenarios(server: ServerThread, db: Db, orgs: SeededOrg[], opts: Options): Promise<Row[]> {
  const client = new Client(server, opts.timeoutMs);
  const rows: Row[] = [];
  console.log(`\n${opts.warmup} warm-up + ${opts.requests} sequential requests per scenario and organization (at most ${opts.budgetMs / 1000}s each)`);
  for (const scenario of buildScenarios(db, client, opts.limit)) {
    console.log(`\n${scenario.name} (as ${scenario.caller})`);
    const small = await measure(client, server, scenario, orgs[0], opts);
    report(orgs[0], small);
    const large = await measure(client, server, scenario, orgs[1], opts);
    report(orgs[1], large);
    const row = { name: scenario.name, small, large };
    const ratio = ratioOf(row);
    console.log(`    ratio large/small of the medians: ${Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '—'}`);
    rows.push(row);
  }
  return rows;
}

/** Seeds, serves, measures, prints; the exit code (1 when seeding or the server failed). */
async function run(db: Db, url: string, opts: Options): Promise<number> {
  const seedStart = performance.now();
  let orgs: SeededOrg[];
  try {
    orgs = await seed(db, opts);
  } catch (error) {
    console.error('seeding failed:', error);
    return 1;
  }
  console.log(`seeding took ${((performance.now() - seedStart) / 1000).toFixed(1)}s`);

  const server = new ServerThread(url);
  try {
    await server.start();
    const rows = await runScenarios(server, db, orgs, opts);
    console.log(`\nN = ${opts.small} (small) and ${opts.large} (large), limit ${opts.limit}\n`);
    printTable(rows);
  } catch (error) {
    console.error('the server failed:', error);
    return 1;
  } finally {
    await server.stop();
  }
  if (server.crashes) console.log(`the server crashed ${server.crashes} time(s) (see the FAIL lines above)`);
  return server.crashes ? 1 : 0;
}

async function main(): Promise<number> {
  const opts = parseOptions();
  let embedded: EmbeddedDatabase | undefined;
  if (!process.env.DATABASE_URL) embedded = await startEmbeddedPostgres({ dataDir: path.resolve('.quire/bench-scale') });
  const url = process.env.DATABASE_URL ?? embedded!.url;
  console.log(`database: ${redact(url)}${embedded ? ' (embedded, under .quire/bench-scale)' : ' (DATABASE_URL)'}`);
  let db: Db | undefined;
  try {
    await applyMigrations(url);
    db = createPrismaClient(url, { poolMax: 10 });
    return await run(db, url, opts);
  } finally {
    await db?.$disconnect();
    await embedded?.stop();
  }
}

if (isMainThread) {
  const code = await main().catch((error) => {
    console.error(error);
    return 1;
  });
  // Explicitly: the load generator and servers may hold handles open after the run;
  // exiting here ends them.
  process.exit(code);
} else {
  await serveInThisThread(workerData as ServerData);
}
