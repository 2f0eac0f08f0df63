/**
 * Every DataLoader of a request is made through `track`, so that `forgetAll` can clear them all
 * after a write (the refetched answer must not reuse rows read before it). Loaders of pages are
 * made per page arguments, on first use.
 */
import DataLoader from 'dataloader';
import type { PageArgs } from '../pagination/keyset.js';

export class LoaderRegistry {
  private readonly loaders: DataLoader<unknown, unknown>[] = [];

  track<K, V>(batch: DataLoader.BatchLoadFn<K, V>): DataLoader<K, V> {
    const loader = new DataLoader<K, V>(batch);
    this.loaders.push(loader as unknown as DataLoader<unknown, unknown>);
    return loader;
  }

  /** A loader per `variant` (e.g. page arguments): `pages(variant).load(parentId)`. */
  variants<V, K = string>(batch: (variant: string, keys: readonly K[]) => Promise<V[]>): (variant: string) => DataLoader<K, V> {
    const made = new Map<string, DataLoader<K, V>>();
    return (variant) => {
      let loader = made.get(variant);
      if (!loader) made.set(variant, (loader = this.track<K, V>((keys) => batch(variant, keys))));
      return loader;
    };
  }

  forgetAll(): void {
    for (const loader of this.loaders) loader.clearAll();
  }
}

/** The variant key of page arguments plus whatever else tells the lists apart. */
export const pageVariant = (args: PageArgs, ...more: unknown[]) => JSON.stringify([args.first, args.after, args.last, args.before, ...more]);
export const fromPageVariant = (variant: string) => {
  const [first, after, last, before, ...more] = JSON.parse(variant) as [number | null, string | null, number | null, string | null, ...unknown[]];
  return { args: { first, after, last, before } as PageArgs, more };
};
