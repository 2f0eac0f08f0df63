/**
 * GraphQL multipart requests (graphql-multipart-request-spec) read to disk, never whole in
 * memory: yoga's own parser keeps every file of a request in memory as it arrives (up to 41 MB a
 * request). The parts are read here as they arrive (busboy): fields as strings, each file written
 * to a temporary file in the data directory (not the system's temporary directory, often held in
 * memory), then handed to yoga (the plugin below) as a FormData of files backed by those files
 * (`fs.openAsBlob`: read again only when a resolver streams them into the file store). The
 * temporary files are deleted once the answer is sent or the request fails.
 */
import { Busboy } from '@fastify/busboy';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

/** The fields (`operations`, `map`) are held in memory: no longer than a JSON request's body. */
const MAX_FIELD_BYTES = 1024 * 1024;

/** Thrown past the limit of a request's body (413). */
export class MultipartTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`Request body exceeds ${limit} bytes`);
  }
}

/** Thrown for a body that is not well-formed multipart (400). */
export class MultipartInvalid extends Error {}

export type SpooledForm = { form: FormData; dispose(): Promise<void> };

/** Where requests' files wait while their request runs. */
export const spoolDirectory = (dataDir: string) => path.join(dataDir, 'tmp', 'uploads');

/** Deletes requests' temporary files older than `olderThanMs` (left by a process stopped mid-request); answers how many. */
export async function sweepSpool(dir: string, olderThanMs: number): Promise<number> {
  let swept = 0;
  for (const name of await readdir(dir).catch(() => [])) {
    const at = path.join(dir, name);
    const info = await stat(at).catch(() => undefined);
    if (!info || Date.now() - info.mtimeMs < olderThanMs) continue;
    await rm(at, { recursive: true, force: true });
    swept++;
  }
  return swept;
}

/** Reads a multipart body (at most `limit` bytes) into a FormData whose files are on disk under `dir`. */
export async function spoolMultipart(req: IncomingMessage, opts: { dir: string; limit: number }): Promise<SpooledForm> {
  if (Number(req.headers['content-length'] ?? 0) > opts.limit) throw new MultipartTooLarge(opts.limit);
  await mkdir(opts.dir, { recursive: true });
  const dir = await mkdtemp(path.join(opts.dir, 'request-'));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    return { form: await parse(req, dir, opts.limit), dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

async function parse(req: IncomingMessage, dir: string, limit: number): Promise<FormData> {
  let busboy;
  try {
    busboy = Busboy({ headers: req.headers as { 'content-type': string }, defCharset: 'utf-8', limits: { fieldSize: MAX_FIELD_BYTES } });
  } catch (error) {
    throw new MultipartInvalid((error as Error).message);
  }
  const fields: [string, string][] = [];
  const files: Promise<[string, File]>[] = [];
  const streams: NodeJS.ReadableStream[] = [];
  let seen = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > limit ? new MultipartTooLarge(limit) : null, chunk);
    },
  });
  let truncated: string | undefined;
  busboy.on('field', (name, value, _nameTruncated, valueTruncated) => {
    if (valueTruncated) truncated ??= name;
    fields.push([name, value]);
  });
  busboy.on('file', (name, stream, filename, _encoding, mimeType) => {
    const file = path.join(dir, String(files.length));
    streams.push(stream);
    files.push(
      pipeline(stream, createWriteStream(file)).then(async () => [name, new File([await openAsBlob(file)], filename || name, { type: mimeType })] as [string, File]),
    );
  });
  try {
    await pipeline(req, counted, busboy);
    if (truncated !== undefined) throw new Error(`the field "${truncated}" is longer than ${MAX_FIELD_BYTES} bytes`);
    // Every file written, even when one failed (none is then still writing when the directory goes).
    const written = await Promise.allSettled(files);
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    for (const result of written) {
      if (result.status === 'rejected') throw result.reason;
      form.append(result.value[0], result.value[1]);
    }
    return form;
  } catch (error) {
    // A body cut short leaves a file part unfinished: ended here, so that its write stops.
    for (const stream of streams) (stream as unknown as { destroy(): void }).destroy();
    await Promise.allSettled(files);
    if (error instanceof MultipartTooLarge) throw error;
    throw new MultipartInvalid(`POST body sent invalid multipart data: ${(error as Error).message}`);
  }
}

const SPOOLED = Symbol('spooled multipart form');

/** Hands a request's spooled form to yoga (useSpooledMultipart): its body is read already. */
export function attachSpooled(req: IncomingMessage, form: FormData): void {
  (req as IncomingMessage & { [SPOOLED]?: FormData })[SPOOLED] = form;
}

const invalid = (message: string) => createGraphQLError(message, { extensions: { http: { status: 400 }, code: 'BAD_REQUEST' } });

/**
 * Yoga's multipart parsing (graphql-yoga's post-multipart.ts: `operations`, then `map` placing
 * each file in the variables) over a spooled form, instead of yoga reading the body itself.
 */
export function useSpooledMultipart(): Plugin {
  return {
    onRequestParse({ serverContext, setRequestParser }) {
      const form = ((serverContext as { req?: IncomingMessage & { [SPOOLED]?: FormData } }).req)?.[SPOOLED];
      if (!form) return;
      setRequestParser(() => {
        const operations = jsonField(form, 'operations') as Record<string, unknown> | undefined;
        if (operations === undefined) throw invalid('Missing multipart form field "operations"');
        if (typeof operations !== 'object' || operations === null) throw invalid('Multipart form field "operations" must be a JSON object or array');
        const map = jsonField(form, 'map') as Record<string, unknown> | undefined;
        if (map === undefined) return operations as never;
        for (const [field, paths] of Object.entries(map ?? {})) {
          if (!Array.isArray(paths)) throw invalid(`Multipart form field "map" must list paths for "${field}"`);
          for (const at of paths) setPath(operations, String(at), form.get(field));
        }
        return operations as never;
      });
    },
  };
}

/** A form field's JSON value (undefined when the field is missing). */
function jsonField(form: FormData, name: string): unknown {
  const text = form.get(name);
  if (text === null) return undefined;
  if (typeof text !== 'string') throw invalid(`Multipart form field "${name}" must be a string`);
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(`Multipart form field "${name}" must be a valid JSON string`);
  }
}

/** `object.a.b.c = value` for the path "a.b.c", creating objects on the way; never through prototypes. */
function setPath(object: Record<string, unknown>, at: string, value: unknown): void {
  const keys = at.split('.');
  let current = object;
  for (const [i, key] of keys.entries()) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return;
    if (i === keys.length - 1) {
      current[key] = value;
      return;
    }
    const next = current[key];
    if (!Object.hasOwn(current, key) || typeof next !== 'object' || next === null) current[key] = {};
    current = current[key] as Record<string, unknown>;
  }
}
