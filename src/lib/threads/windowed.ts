/**
 * Many conversions in the pool feeding a store, without holding more than a few of them: at most
 * `window` items are under way at a time (enough to keep every thread busy, where handing the pool
 * a whole batch at once would queue every input, and keep each until the batch ended), and their
 * results go to `store` in the order they finish, `group` at a time (the last group smaller). A
 * group is stored while the next items convert; new conversions wait while a full group waits
 * for the previous group's store, so at most `group + window` results are held. The first failure
 * (a conversion's or a store's) stops it: thrown once the store under way has ended (conversions
 * under way finish in the pool, unheard).
 */
export async function convertInWindow<T, R>(
  items: readonly T[],
  options: { window: number; group: number },
  convert: (item: T) => Promise<R>,
  store: (done: { item: T; result: R }[]) => Promise<void>,
): Promise<void> {
  const finished: { item: T; result: R }[] = [];
  const running = new Set<Promise<void>>();
  let failed: { error: unknown } | undefined;
  let storing: Promise<void> = Promise.resolve();
  let next = 0;
  try {
    for (;;) {
      while (!failed && next < items.length && running.size < options.window) {
        const item = items[next++]!;
        const task: Promise<void> = convert(item)
          .then(
            (result) => void finished.push({ item, result }),
            (error: unknown) => void (failed ??= { error }),
          )
          .finally(() => running.delete(task));
        running.add(task);
      }
      if (failed) throw failed.error;
      if (running.size && finished.length < options.group) {
        await Promise.race(running);
        continue;
      }
      if (!finished.length) break;
      await storing;
      storing = store(finished.splice(0, options.group));
      // Seen at the next group or at the end; meanwhile not an unhandled rejection.
      storing.catch(() => undefined);
    }
    await storing;
  } catch (error) {
    await storing.catch(() => undefined);
    throw error;
  }
}
