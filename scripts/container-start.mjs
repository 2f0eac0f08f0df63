#!/usr/bin/env node
/**
 * Proves the start half of the container recipe where no container engine runs (CI; the build half
 * is scripts/container-build.sh, which runs this with `--start` on the tree it built):
 *
 *   node scripts/container-start.mjs <built tree>   (the pruned output of the Dockerfile's build stage)
 *
 * Everything it runs comes from the Dockerfile's last stage (ENV, WORKDIR, USER, VOLUME, EXPOSE,
 * HEALTHCHECK, STOPSIGNAL, ENTRYPOINT, CMD) and from compose.yaml (the quire and worker services'
 * environment, command and depends_on conditions, the bucket step, the header comment's
 * `docker compose exec …`), parsed, not restated. The compose's other services are mapped onto this
 * machine: postgres → a fresh database on 127.0.0.1:5432 (user postgres, trust auth; dropped at the
 * end), redis → 127.0.0.1:6379, minio → s3rver on a free port accepting the compose's MinIO access
 * key (s3rver checks the key id of SigV4 requests, not their signature: the secrets are compared).
 * Then: the server starts with ENTRYPOINT+CMD, its HEALTHCHECK command must pass (service_healthy),
 * the worker starts, the header's `admin create-org` runs, a file uploaded through the server is read
 * back from a second instance (its own data directory: the bytes cross only through S3), a space
 * copy (a job; the servers run none) must be done by the worker, /readyz must say ready (Redis
 * answering, not degraded), and every process must exit 0 on STOPSIGNAL within Docker's 10 s grace.
 * Run as root, processes run as an unprivileged user (nobody) over a tree chowned to it, as the
 * image's `USER` would.
 */
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import YAML from 'yaml';
import { S3Client, CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tree = path.resolve(process.argv[2] ?? '');
if (!process.argv[2] || !statSync(path.join(tree, 'dist/main.js'), { throwIfNoEntry: false })) {
  console.error('usage: node scripts/container-start.mjs <built tree> (the build stage\'s output: see scripts/container-build.sh --start)');
  process.exit(2);
}
const say = (line) => console.log(`== ${line}`);
process.on('uncaughtException', (error) => {
  console.error(`container start failed: ${error.message}`);
  process.exit(1);
});
const fail = (message) => {
  throw new Error(message);
};
const check = (ok, message) => ok || fail(message);

// ---- the Dockerfile's last stage --------------------------------------------------------------

/** Instructions of a Dockerfile: comments dropped, `\` continuations joined. */
function instructions(text) {
  const out = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    if (!pending && /^\s*(#|$)/.test(raw)) continue;
    const line = raw.replace(/\s+$/, '');
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const whole = (pending + line).trim();
    pending = '';
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(whole);
    out.push({ keyword: keyword.toUpperCase(), args });
  }
  return out;
}

/** Exec form (a JSON array) as is; shell form through `/bin/sh -c`, as Docker does. */
const command = (args) => (args.startsWith('[') ? JSON.parse(args) : ['/bin/sh', '-c', args]);

/** `ENV a=b c="d e"` (or the legacy `ENV a b`). */
function envPairs(args) {
  if (!/^[^\s=]+=/.test(args)) {
    const [, key, value] = /^(\S+)\s+(.*)$/.exec(args);
    return [[key, value]];
  }
  return [...args.matchAll(/([^\s=]+)=("(?:[^"\\]|\\.)*"|\S*)/g)].map(([, key, value]) => [key, value.startsWith('"') ? JSON.parse(value) : value]);
}

function runtimeStage(text) {
  const all = instructions(text);
  const start = all.findLastIndex((i) => i.keyword === 'FROM');
  const stage = { from: all[start].args, env: {}, workdir: '/', user: 'root', volumes: [], expose: [], copies: [], stopSignal: 'SIGTERM' };
  for (const { keyword, args } of all.slice(start + 1)) {
    if (keyword === 'ENV') for (const [k, v] of envPairs(args)) stage.env[k] = v;
    else if (keyword === 'WORKDIR') stage.workdir = path.posix.resolve(stage.workdir, args);
    else if (keyword === 'USER') stage.user = args;
    else if (keyword === 'VOLUME') stage.volumes.push(...(args.startsWith('[') ? JSON.parse(args) : args.split(/\s+/)));
    else if (keyword === 'EXPOSE') stage.expose.push(...args.split(/\s+/).map((p) => Number.parseInt(p, 10)));
    else if (keyword === 'COPY') stage.copies.push(args);
    else if (keyword === 'STOPSIGNAL') stage.stopSignal = /^\d+$/.test(args) ? Number(args) : args.startsWith('SIG') ? args : `SIG${args}`;
    else if (keyword === 'ENTRYPOINT') stage.entrypoint = command(args);
    else if (keyword === 'CMD') stage.cmd = command(args);
    else if (keyword === 'HEALTHCHECK') {
      const [, options, rest] = /^((?:--\S+\s+)*)(.*)$/.exec(args);
      const opts = Object.fromEntries([...options.matchAll(/--([\w-]+)=(\S+)/g)].map(([, k, v]) => [k, v]));
      if (/^NONE$/i.test(rest)) stage.healthcheck = null;
      else stage.healthcheck = { test: command(rest.replace(/^CMD\s+/i, '')), ...opts };
    }
  }
  return stage;
}

/** Docker durations (`15s`, `1m30s`, `500ms`) in milliseconds. */
function durationMs(value, fallback) {
  if (!value) return fallback;
  let ms = 0;
  for (const [, n, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) ms += Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit];
  return ms;
}

const stage = runtimeStage(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
check(stage.entrypoint || stage.cmd, 'the Dockerfile\'s last stage has neither ENTRYPOINT nor CMD');
check(stage.copies.some((c) => c.split(/\s+/).filter((w) => !w.startsWith('--')).at(-1) === stage.workdir), `no COPY into WORKDIR ${stage.workdir}: the built tree would not be where the image runs`);
check(!/^(root|0)(:|$)/.test(stage.user), `the image runs as root (USER ${stage.user})`);
const nodeMajor = /^node:(\d+)/.exec(stage.from)?.[1];
if (nodeMajor && process.versions.node.split('.')[0] !== nodeMajor) console.warn(`(warning) the image runs Node ${nodeMajor}; this run uses Node ${process.versions.node}`);
say(`runtime stage: FROM ${stage.from}, WORKDIR ${stage.workdir}, USER ${stage.user}, EXPOSE ${stage.expose.join(' ')}, VOLUME ${stage.volumes.join(' ')}, ENTRYPOINT ${JSON.stringify(stage.entrypoint ?? [])} CMD ${JSON.stringify(stage.cmd ?? [])}`);
check(stage.expose.includes(Number(stage.env.PORT)), `ENV PORT=${stage.env.PORT} is not EXPOSEd (${stage.expose.join(' ')})`);

// ---- compose.yaml -------------------------------------------------------------------------------

const composeText = readFileSync(path.join(root, 'compose.yaml'), 'utf8');
const compose = YAML.parse(composeText, { merge: true });
const services = compose.services;
/** A service's environment, as a map (compose allows a map or a list of `KEY=value`). */
const environment = (service) =>
  Array.isArray(service.environment) ? Object.fromEntries(service.environment.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])) : { ...(service.environment ?? {}) };
/** The services that run this image: the one built here and those naming its image. */
const imageName = Object.values(services).find((s) => s.build)?.image;
const quireServices = Object.entries(services).filter(([, s]) => s.build || (imageName && s.image === imageName)).map(([name]) => name);
check(quireServices.length >= 2, `compose.yaml: expected a server and a worker service running the image, found ${quireServices.join(', ')}`);
for (const name of quireServices) {
  const ports = services[name].ports ?? [];
  for (const p of ports) check(stage.expose.includes(Number(String(p).split(':').at(-1))), `compose.yaml: ${name} publishes ${p}, not a port the image EXPOSEs`);
}

/** Services ordered so each comes after what it depends_on (compose's start order). */
function startOrder() {
  const order = [];
  const visit = (name, trail = []) => {
    check(!trail.includes(name), `compose.yaml: depends_on cycle ${[...trail, name].join(' → ')}`);
    if (order.includes(name)) return;
    const deps = services[name].depends_on ?? [];
    for (const dep of Array.isArray(deps) ? deps : Object.keys(deps)) visit(dep, [...trail, name]);
    order.push(name);
  };
  for (const name of Object.keys(services)) visit(name);
  return order;
}
const conditionOf = (name, dep) => {
  const deps = services[name].depends_on ?? [];
  return Array.isArray(deps) ? 'service_started' : (deps[dep]?.condition ?? 'service_started');
};

// ---- this machine in place of the other services -------------------------------------------------

const PG = { host: '127.0.0.1', port: 5432 };
const REDIS = { host: '127.0.0.1', port: 6379 };
const run = mkdtempSync(path.join(tmpdir(), 'quire-container-start-'));
const database = `quire_container_${process.pid}`;
const children = new Set();
const hosts = {}; // `service:port` → `127.0.0.1:port` here

const asRoot = process.getuid?.() === 0;
const runAs = asRoot ? { uid: 65534, gid: 65534 } : {}; // nobody, in place of the image's USER
function own(dir) {
  if (asRoot) execFileSync('chown', ['-R', `${runAs.uid}:${runAs.gid}`, dir]);
}

async function freePort() {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const tcpAnswers = ({ host, port }) =>
  new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const psql = (sql) => execFileSync('psql', [`postgresql://postgres@${PG.host}:${PG.port}/postgres`, '-qXc', sql], { stdio: ['ignore', 'ignore', 'inherit'] });

/** s3rver on a free port, accepting the compose's MinIO root credentials (as MinIO would). */
async function startS3(credentials) {
  const directory = path.join(run, 's3');
  mkdirSync(directory);
  const launch = `
const S3rver = require('s3rver');
const [directory, user, password] = process.argv.slice(1);
require('s3rver/lib/models/account').DUMMY_ACCOUNT.createKeyPair(user, password);
new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory }).run().then(({ port }) => console.log(JSON.stringify({ port })));
process.on('SIGTERM', () => process.exit(0));`;
  // OpenSSL's legacy provider: s3rver's ListObjectsV2 continuation tokens use DES (test/helpers/s3rver-process.ts).
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', launch, directory, credentials.user, credentials.password], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  track('minio (s3rver)', child);
  const first = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening`)));
  });
  return { endpoint: `http://127.0.0.1:${JSON.parse(first).port}`, directory };
}

/** Rewrites `scheme://[user[:password]@]service:port/…` in a value onto this machine's stand-ins. */
function mapHosts(value) {
  return String(value).replace(/\/\/([^/@\s]*@)?([a-z0-9_-]+):(\d+)/gi, (whole, auth = '', host, port) => {
    const to = hosts[`${host}:${port}`];
    if (!to) return whole;
    return `//${to.auth ?? auth}${to.hostPort}`;
  });
}

function track(name, child) {
  const entry = { name, child, exit: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))) };
  children.add(entry);
  entry.exit.then(() => children.delete(entry));
  return entry;
}

// ---- the image's processes --------------------------------------------------------------------

/** Where the image's paths are here: WORKDIR → the built tree, each VOLUME → a directory of its own per container. */
function containerEnv(serviceName, instance, port) {
  const volumes = Object.fromEntries(stage.volumes.map((v) => [v, path.join(run, `${serviceName}-${instance}${v.replaceAll('/', '-')}`)]));
  for (const dir of Object.values(volumes)) mkdirSync(dir, { recursive: true }), own(dir);
  const mapPath = (value) => {
    for (const [from, to] of Object.entries({ ...volumes, [stage.workdir]: tree })) if (value === from || value.startsWith(`${from}/`)) return to + value.slice(from.length);
    return value;
  };
  const env = { PATH: `${nodeDir}:/usr/local/bin:/usr/bin:/bin`, HOME: volumes[stage.volumes[0]] ?? run };
  for (const [k, v] of Object.entries(stage.env)) env[k] = mapPath(v);
  for (const [k, v] of Object.entries(environment(services[serviceName]))) env[k] = mapHosts(v);
  // The container port EXPOSEd, published on a free port of this machine (two instances side by side).
  if (port) env.PORT = String(port);
  return { env, volumes };
}

function spawnIn(name, argv, env, { stdout = 'inherit' } = {}) {
  const child = spawn(argv[0], argv.slice(1), { cwd: tree, env, ...runAs, stdio: ['ignore', stdout, 'inherit'] });
  return track(name, child);
}

/** Runs a one-off command in a container's environment; its exit code and standard output. */
async function exec(argv, env) {
  const entry = spawnIn(argv.join(' '), argv, env, { stdout: 'pipe' });
  let out = '';
  entry.child.stdout.on('data', (chunk) => (out += chunk));
  const { code } = await entry.exit;
  return { code, out };
}

/** Docker's HEALTHCHECK: the command in the container until it passes; polled faster than --interval (CI's time), within the same budget. */
async function healthy(name, { env, child }) {
  const hc = stage.healthcheck;
  if (hc === undefined || hc === null) return;
  const budget = durationMs(hc['start-period'], 0) + durationMs(hc.interval, 30_000) * Number(hc.retries ?? 3);
  const deadline = Date.now() + budget;
  for (;;) {
    const { code } = await exec(hc.test, env);
    if (code === 0) return;
    check(child.exitCode === null && child.signalCode === null, `${name} exited (${child.exitCode ?? child.signalCode}) before its HEALTHCHECK passed`);
    if (Date.now() > deadline) fail(`${name}: HEALTHCHECK ${JSON.stringify(hc.test)} still failing after ${budget} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function startService(name, instance = 1) {
  const service = services[name];
  const port = service.ports?.length || name === quireServices[0] ? await freePort() : undefined;
  const { env, volumes } = containerEnv(name, instance, port);
  const argv = [...(service.entrypoint ?? stage.entrypoint ?? []), ...(service.command ?? stage.cmd ?? [])];
  say(`start ${name}${instance > 1 ? ` #${instance}` : ''}: ${argv.join(' ')}${port ? ` (PORT ${port})` : ''}`);
  const entry = spawnIn(`${name}#${instance}`, argv, env);
  entry.env = env;
  entry.url = port ? `http://127.0.0.1:${port}` : undefined;
  entry.volumes = volumes;
  return entry;
}

// ---- the run -------------------------------------------------------------------------------------

let nodeDir = path.dirname(process.execPath);
const started = {};
let s3;
let minioCredentials;
let databaseCreated = false;
try {
  if (asRoot) {
    // The image's user cannot read root's home (where CI's Node lives): a copy of the binary, and the tree chowned as COPY --chown does.
    nodeDir = path.join(run, 'bin');
    mkdirSync(nodeDir);
    copyFileSync(process.execPath, path.join(nodeDir, 'node'));
    chmodSync(nodeDir, 0o755);
    chmodSync(path.join(nodeDir, 'node'), 0o755);
    chmodSync(run, 0o755);
    for (let dir = path.dirname(tree); dir !== '/'; dir = path.dirname(dir)) check(statSync(dir).mode & 0o001, `${dir} cannot be entered by other users: build the tree under another directory (TMPDIR)`);
    own(tree);
  }

  for (const name of startOrder()) {
    const service = services[name];
    for (const [dep] of Object.entries(Array.isArray(service.depends_on) ? Object.fromEntries(service.depends_on.map((d) => [d, {}])) : (service.depends_on ?? {}))) {
      const condition = conditionOf(name, dep);
      if (condition === 'service_healthy' && quireServices.includes(dep)) await healthy(dep, started[dep]);
      if (condition === 'service_completed_successfully') check(started[dep]?.completed, `${dep} did not complete before ${name}`);
      say(`${name}: ${dep} ${condition.replace('service_', '')}`);
    }
    const image = String(service.image ?? '');
    if (quireServices.includes(name)) {
      started[name] = await startService(name);
    } else if (image.startsWith('postgres')) {
      const e = environment(service);
      check(await tcpAnswers(PG), `no PostgreSQL at ${PG.host}:${PG.port}`);
      psql(`CREATE DATABASE "${database}"`);
      databaseCreated = true;
      // The compose's credentials for this database must be the ones quire's DATABASE_URL uses.
      for (const q of quireServices) {
        const url = new URL(environment(services[q]).DATABASE_URL);
        check(url.hostname === name && decodeURIComponent(url.username) === e.POSTGRES_USER && decodeURIComponent(url.password) === e.POSTGRES_PASSWORD && url.pathname === `/${e.POSTGRES_DB}`, `compose.yaml: ${q}'s DATABASE_URL does not match the ${name} service's user, password and database`);
        hosts[`${name}:${url.port || 5432}`] = { hostPort: `${PG.host}:${PG.port}`, auth: 'postgres@' };
      }
      // The database name too: DATABASE_URL's path becomes the fresh database.
      for (const q of quireServices) services[q].environment = Object.fromEntries(Object.entries(environment(services[q])).map(([k, v]) => [k, k === 'DATABASE_URL' ? String(v).replace(/\/[^/?]+(\?|$)/, `/${database}$1`) : v]));
      say(`${name} → a fresh database ${database} on ${PG.host}:${PG.port}`);
      started[name] = { completed: false };
    } else if (image.startsWith('redis')) {
      check(await tcpAnswers(REDIS), `no Redis at ${REDIS.host}:${REDIS.port}`);
      hosts[`${name}:6379`] = { hostPort: `${REDIS.host}:${REDIS.port}` };
      say(`${name} → ${REDIS.host}:${REDIS.port}`);
      started[name] = {};
    } else if (image.startsWith('minio/minio')) {
      const e = environment(service);
      // s3rver checks the access key id of SigV4 requests but not their signature: the secrets are compared here.
      for (const q of quireServices) {
        const qe = environment(services[q]);
        check(qe.AWS_ACCESS_KEY_ID === e.MINIO_ROOT_USER && qe.AWS_SECRET_ACCESS_KEY === e.MINIO_ROOT_PASSWORD, `compose.yaml: ${q}'s AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY are not the ${name} service's MINIO_ROOT_USER/MINIO_ROOT_PASSWORD`);
      }
      minioCredentials = { user: e.MINIO_ROOT_USER, password: e.MINIO_ROOT_PASSWORD };
      s3 = await startS3(minioCredentials);
      hosts[`${name}:9000`] = { hostPort: new URL(s3.endpoint).host };
      say(`${name} → s3rver at ${s3.endpoint}`);
      started[name] = {};
    } else if (image.startsWith('minio/mc')) {
      // The bucket step: `mc alias set <alias> <url> <user> <password>` then `mc mb … <alias>/<bucket>`.
      const script = [...(service.entrypoint ?? []), ...(service.command ?? [])].join(' ');
      const alias = /mc alias set (\S+) (\S+) (\S+) (\S+?)[;&\s]/.exec(script) ?? fail(`${name}: no \`mc alias set\` in ${script}`);
      const bucket = new RegExp(`mc mb (?:--\\S+ )*${alias[1]}/([\\w.-]+)`).exec(script)?.[1] ?? fail(`${name}: no \`mc mb\` in ${script}`);
      check(alias[3] === minioCredentials?.user && alias[4] === minioCredentials?.password, `${name}: \`mc alias set\` does not use the MinIO service's credentials`);
      const client = new S3Client({ endpoint: mapHosts(alias[2]), region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: alias[3], secretAccessKey: alias[4] } });
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      client.destroy();
      for (const q of quireServices) check(environment(services[q]).QUIRE_S3_BUCKET === bucket, `compose.yaml: ${q}'s QUIRE_S3_BUCKET is not the bucket ${name} creates (${bucket})`);
      say(`${name}: bucket ${bucket} created at ${mapHosts(alias[2])} as ${alias[3]}`);
      started[name] = { completed: true };
    } else {
      fail(`compose.yaml: no stand-in here for service ${name} (${image})`);
    }
  }

  const server = quireServices.find((n) => services[n].ports) ?? quireServices[0];
  const workers = quireServices.filter((n) => n !== server);
  // Services nothing waits on healthily (the worker) must still be running a moment later.
  await healthy(server, started[server]);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  for (const name of quireServices) {
    const { child } = started[name];
    check(child.exitCode === null && child.signalCode === null, `${name} exited (${child.exitCode ?? child.signalCode})`);
  }
  if (asRoot) {
    const uid = (pid) => /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    for (const name of quireServices) check(uid(started[name].child.pid) === String(runAs.uid), `${name} does not run as the unprivileged user`);
    say(`${quireServices.join(', ')}: running as uid ${runAs.uid}, not root (the image's USER ${stage.user})`);
  }

  // The header comment's first step: `docker compose exec <service> <command>`.
  const header = /docker compose exec (\S+) (.+)$/m.exec(composeText) ?? fail('compose.yaml: no `docker compose exec …` in its header comment');
  const [, execService, execLine] = header;
  const argv = execLine.trim().split(/\s+/);
  say(`exec ${execService}: ${argv.join(' ')}`);
  const created = await exec(argv, started[execService].env);
  check(created.code === 0, `${argv.join(' ')} exited ${created.code}`);
  const { organization, token } = JSON.parse(created.out.trim().split('\n').at(-1));
  check(organization?.id && token, `admin create-org printed no organization and token: ${created.out}`);

  // A second instance of the server (as `docker compose up --scale`): its own /data, the same S3.
  const second = await startService(server, 2);
  await healthy(`${server} #2`, second);

  const api = async (base, method, route, body) => {
    const response = await fetch(`${base}/v1${route}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body && JSON.stringify(body), signal: AbortSignal.timeout(60_000) });
    const text = await response.text();
    check(response.ok, `${method} ${route}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
  const one = started[server].url;
  const space = await api(one, 'POST', `/orgs/${organization.id}/spaces`, { title: 'Container check' });
  const cr = await api(one, 'POST', `/spaces/${space.id}/change-requests`, { subject: 'A file' });
  const bytes = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 251));
  const added = await api(one, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [{ operation: 'insert_files', files: [{ name: 'check.bin', contentType: 'application/octet-stream', base64: bytes.toString('base64') }] }],
  });
  const fileId = added.insertedFiles?.[0]?.id ?? fail(`no file inserted: ${JSON.stringify(added)}`);
  const listed = await api(second.url, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content/files/${fileId}`);
  const download = await fetch(`${second.url}${new URL(listed.downloadURL).pathname}${new URL(listed.downloadURL).search}`);
  const back = Buffer.from(await download.arrayBuffer());
  check(download.status === 200 && back.equals(bytes), `the second instance served ${download.status}, ${back.length} bytes, not the uploaded file`);
  const onDisk = (entry) => Object.values(entry.volumes).flatMap((dir) => readdirSync(path.join(dir), { recursive: true, withFileTypes: true }).filter((f) => f.isFile() && f.parentPath.includes(`${path.sep}files`)));
  check(onDisk(started[server]).length === 0 && onDisk(second).length === 0, 'file bytes landed on an instance\'s data directory, not in the S3 store');
  const bucketName = environment(services[server]).QUIRE_S3_BUCKET;
  const reader = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: started[server].env.AWS_ACCESS_KEY_ID, secretAccessKey: started[server].env.AWS_SECRET_ACCESS_KEY } });
  const listing = await reader.send(new ListObjectsV2Command({ Bucket: bucketName }));
  reader.destroy();
  check((listing.KeyCount ?? 0) > 0, `the bucket ${bucketName} holds no object`);
  say(`a ${bytes.length}-byte file stored through instance 1 is served by instance 2 (bytes in the bucket ${bucketName}, ${listing.KeyCount} object(s))`);

  // The servers run no jobs (QUIRE_RUN_WORKER=false): a space copy (a job the request waits for) proves the worker takes them.
  const copy = await api(second.url, 'POST', `/spaces/${space.id}/duplicate`);
  check(copy.id && copy.id !== space.id, `no copy of the space: ${JSON.stringify(copy)}`);
  say(`a space copy, a job, was run by the ${workers.join(', ')} service`);

  for (const base of [one, second.url]) {
    const readyz = await fetch(`${base}/readyz`);
    const body = await readyz.json();
    check(readyz.status === 200 && body.status === 'ready', `${base}/readyz: ${readyz.status} ${JSON.stringify(body)} (not ready: Redis or the database does not answer)`);
  }
  say('/readyz: ready on both instances (database migrated, Redis answering)');

  // `docker compose stop`: STOPSIGNAL to every container, SIGKILL after 10 s.
  for (const entry of [second, ...workers.map((w) => started[w]), started[server]]) {
    entry.child.kill(stage.stopSignal);
    const timer = setTimeout(() => entry.child.kill('SIGKILL'), 10_000);
    const { code, signal } = await entry.exit;
    clearTimeout(timer);
    check(code === 0, `${entry.name} ended with ${signal ?? `exit code ${code}`} on ${stage.stopSignal}${signal === 'SIGKILL' ? ' (not within 10 s)' : ''}`);
    say(`${entry.name}: exit 0 on ${stage.stopSignal}`);
  }
  say('the recipe starts: server, worker, bucket, first organization, files across instances, readiness, clean stop');
} catch (error) {
  console.error(`container start failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  for (const entry of children) entry.child.kill('SIGKILL');
  await Promise.all([...children].map((entry) => entry.exit));
  if (databaseCreated) {
    try {
      psql(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    } catch {
      /* reported by psql */
    }
  }
  rmSync(run, { recursive: true, force: true });
}
