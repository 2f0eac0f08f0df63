/**
 * Every DataLoader of a request is made through `track`, so that `forgetAll` can clear them all
 * after a write (the refetched answer must not reuse rows read before it). Each is made on its
 * first `load` (a request uses a few of the dozens it could), loaders of pages per page arguments.
 */
import DataLoader from 'dataloader';
import type { PageArgs } from '../pagination/keyset.js';

/** What callers use of a DataLoader. */
export type Loader<K, V> = Pick<DataLoader<K, V>, 'load'> & {
  /** Gives the loader a value read by another statement (e.g. a child page read with its parents). */
  prime(key: K, value: V): void;
};

export class LoaderRegistry {
  private readonly loaders: DataLoader<unknown, unknown>[] = [];
  /**
   * Pages read ahead by a parent's statement (a page of collections read with their
   * organization), by a key the list's own resolver computes.
   */
  readonly readAhead = new Map<string, unknown>();

  track<K, V>(batch: DataLoader.BatchLoadFn<K, V>): Loader<K, V> {
    let loader: DataLoader<K, V> | undefined;
    const made = () => {
      if (!loader) this.loaders.push((loader = new DataLoader<K, V>(batch)) as unknown as DataLoader<unknown, unknown>);
      return loader;
    };
    return {
      load: (key) => made().load(key),
      prime: (key, value) => void made().prime(key, value),
    };
  }

  /** A loader per `variant` (e.g. page arguments): `pages(variant).load(parentId)`. */
  variants<V, K = string>(batch: (variant: string, keys: readonly K[]) => Promise<V[]>): (variant: string) => Loader<K, V> {
    const made = new Map<string, Loader<K, V>>();
    return (variant) => {
      let loader = made.get(variant);
      if (!loader) made.set(variant, (loader = this.track<K, V>((keys) => batch(variant, keys))));
      return loader;
    };
  }

  forgetAll(): void {
    for (const loader of this.loaders) loader.clearAll();
    this.readAhead.clear();
  }
}

/** The variant key of page arguments plus whatever else tells the lists apart. */
export const pageVariant = (args: PageArgs, ...more: unknown[]) => JSON.stringify([args.first, args.after, args.last, args.before, ...more]);
export const fromPageVariant = (variant: string) => {
  const [first, after, last, before, ...more] = JSON.parse(variant) as [number | null, string | null, number | null, string | null, ...unknown[]];
  return { args: { first, after, last, before } as PageArgs, more };
};
