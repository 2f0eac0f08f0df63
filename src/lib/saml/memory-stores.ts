/**
 * In-memory stores for tests and single-process use. Entries expire: an expired request ID can no
 * longer be consumed, an expired assertion ID is forgotten (the assertion itself is then refused
 * as expired). Expired entries are swept on writes so the maps stay bounded by the live entries.
 */
import type { ReplayStore, RequestIdStore } from './stores.js';

type Clock = () => number;

function sweep(map: Map<string, number>, now: number): void {
  for (const [key, expiresAt] of map) if (expiresAt <= now) map.delete(key);
}

export class MemoryRequestIdStore implements RequestIdStore {
  private readonly ids = new Map<string, number>();
  constructor(private readonly now: Clock = Date.now) {}

  async save(id: string, expiresAt: Date): Promise<void> {
    sweep(this.ids, this.now());
    this.ids.set(id, expiresAt.getTime());
  }

  async consume(id: string): Promise<boolean> {
    const expiresAt = this.ids.get(id);
    this.ids.delete(id);
    return expiresAt !== undefined && expiresAt > this.now();
  }

  get size(): number {
    return this.ids.size;
  }
}

export class MemoryReplayStore implements ReplayStore {
  private readonly ids = new Map<string, number>();
  constructor(private readonly now: Clock = Date.now) {}

  async seen(id: string, expiresAt: Date): Promise<boolean> {
    const now = this.now();
    const known = this.ids.get(id);
    if (known !== undefined && known > now) return true;
    sweep(this.ids, now);
    this.ids.set(id, expiresAt.getTime());
    return false;
  }

  get size(): number {
    return this.ids.size;
  }
}
