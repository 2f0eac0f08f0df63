/**
 * node:fs for isomorphic-git, knowing what a one-operation repository knows: it starts empty and
 * only this operation writes to it. Every object read first looks for a loose object and lists the
 * pack folder; here a loose object this operation did not write is known missing without a failed
 * system call, folder listings are kept until a write changes them, and the repository folder's
 * own stat (every call of isomorphic-git's API checks it) is read once. Reading 10,000 blobs
 * spends its time reading them rather than on those checks.
 */
import fs from 'node:fs';
import path from 'node:path';

type Promises = typeof fs.promises;

const LOOSE_OBJECT = /[\\/]objects[\\/][0-9a-f]{2}[\\/][0-9a-f]{38}$/;

/** One error for every known-missing file: isomorphic-git only looks at its code. */
const MISSING = Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });

export function operationFs(gitdir: string): { promises: Promises } {
  const real = fs.promises;
  const written = new Set<string>();
  const listings = new Map<string, Promise<string[]>>();
  const unwrittenObject = (file: unknown) => typeof file === 'string' && LOOSE_OBJECT.test(file) && !written.has(file);
  const changed = (file: unknown) => {
    if (typeof file !== 'string') return listings.clear();
    listings.delete(path.dirname(file));
    listings.delete(file);
    if (LOOSE_OBJECT.test(file)) written.add(file);
  };

  let gitdirStat: ReturnType<Promises['stat']> | undefined;

  const promises = {
    ...real,
    // Called without a path, it is isomorphic-git asking whether this is a promise API: it is.
    readFile: ((file: string, options?: unknown) =>
      file === undefined || unwrittenObject(file) ? Promise.reject(MISSING) : real.readFile(file, options as never)) as Promises['readFile'],
    stat: ((file: string, options?: unknown) => {
      if (file === gitdir && options === undefined) return (gitdirStat ??= real.stat(gitdir));
      return unwrittenObject(file) ? Promise.reject(MISSING) : real.stat(file, options as never);
    }) as Promises['stat'],
    lstat: ((file: string, options?: unknown) => (unwrittenObject(file) ? Promise.reject(MISSING) : real.lstat(file, options as never))) as Promises['lstat'],
    readdir: ((dir: string, options?: unknown) => {
      if (options !== undefined || typeof dir !== 'string') return real.readdir(dir, options as never);
      let listing = listings.get(dir);
      if (!listing) {
        listing = real.readdir(dir);
        listings.set(dir, listing);
        listing.catch(() => listings.delete(dir));
      }
      return listing.then((names) => [...names]);
    }) as Promises['readdir'],
    writeFile: (async (file: string, data: never, options?: never) => {
      await real.writeFile(file, data, options);
      changed(file);
    }) as Promises['writeFile'],
    mkdir: (async (dir: string, options?: never) => {
      const made = await real.mkdir(dir, options);
      changed(dir);
      return made;
    }) as Promises['mkdir'],
    rename: (async (from: string, to: string) => {
      await real.rename(from, to);
      changed(from);
      changed(to);
    }) as Promises['rename'],
    unlink: (async (file: string) => {
      await real.unlink(file);
      listings.clear();
      written.delete(file);
    }) as Promises['unlink'],
    rm: (async (file: string, options?: never) => {
      await real.rm(file, options);
      listings.clear();
      written.delete(file);
    }) as Promises['rm'],
    rmdir: (async (dir: string, options?: never) => {
      await real.rmdir(dir, options);
      listings.clear();
    }) as Promises['rmdir'],
  };
  return { promises };
}
