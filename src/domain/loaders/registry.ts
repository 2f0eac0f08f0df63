/**
 * Every DataLoader of a request is made through `track`, so that `forgetAll` can clear them all
 * after a write (the refetched answer must not reuse rows read before it). Each is made on its
 * first `load` (a request uses a few of the dozens it could), loaders of pages per page arguments.
 */
import DataLoader from 'dataloader';
import type { PageArgs } from '../kernel/pagination/keyset.js';

/** What callers use of a DataLoader. */
export type Loader<K, V> = Pick<DataLoader<K, V>, 'load'> & {
  /** Gives the loader a value read by another statement (e.g. a child page read with its parents). */
  prime(key: K, value: V): void;
};

/**
 * A DataLoader made on its first use. One object per loader with its methods on the prototype:
 * a request makes dozens of these and uses a few.
 */
class LazyLoader<K, V> implements Loader<K, V> {
  private loader: DataLoader<K, V> | undefined;

  constructor(
    private readonly registry: LoaderRegistry,
    private readonly batch: DataLoader.BatchLoadFn<K, V>,
  ) {}

  private made(): DataLoader<K, V> {
    if (!this.loader) this.registry.made((this.loader = new DataLoader<K, V>(this.batch)) as unknown as DataLoader<unknown, unknown>);
    return this.loader;
  }

  load(key: K): Promise<V> {
    return this.made().load(key);
  }

  prime(key: K, value: V): void {
    this.made().prime(key, value);
  }
}

export class LoaderRegistry {
  private readonly loaders: DataLoader<unknown, unknown>[] = [];
  /**
   * Pages read ahead by a parent's statement (a page of collections read with their
   * organization), by a key the list's own resolver computes.
   */
  readonly readAhead = new Map<string, unknown>();

  track<K, V>(batch: DataLoader.BatchLoadFn<K, V>): Loader<K, V> {
    return new LazyLoader(this, batch);
  }

  /** Tracks a DataLoader just made, for `forgetAll`. */
  made(loader: DataLoader<unknown, unknown>): void {
    this.loaders.push(loader);
  }

  /** A loader per `variant` (e.g. page arguments): `pages(variant).load(parentId)`. */
  variants<V, K = string>(batch: (variant: string, keys: readonly K[]) => Promise<V[]>): (variant: string) => Loader<K, V> {
    let made: Map<string, Loader<K, V>> | undefined;
    return (variant) => {
      made ??= new Map();
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
