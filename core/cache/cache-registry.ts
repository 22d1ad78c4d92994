import { LRUCache } from "lru-cache";
import { singleton } from "tsyringe";
import { NotFoundError } from "../errors/domain-error.ts";
import { applyChanges, type ChangeSource } from "./change-feed.ts";

/** The named server caches: maximum entries and time to live. */
export const CACHE_SPECS = {
  search_results: { maxsize: 5000, ttlSeconds: 24 * 3600 },
  search_queries: { maxsize: 500, ttlSeconds: 15 * 60 },
  asset_history_fetch: { maxsize: 500, ttlSeconds: 15 * 60 },
  asset_current_fetch: { maxsize: 300, ttlSeconds: 2 * 60 },
  asset_metadata_fetch: { maxsize: 200, ttlSeconds: 30 * 60 },
  fx_provider_responses: { maxsize: 200, ttlSeconds: 5 * 60 },
  portfolio_blob: { maxsize: 30, ttlSeconds: 24 * 3600 },
  portfolio_layer2: { maxsize: 20, ttlSeconds: 30 * 60 },
  portfolio_wac: { maxsize: 200, ttlSeconds: 3600 },
  portfolio_gains: { maxsize: 8, ttlSeconds: 3600 },
  upload_metadata: { maxsize: 500, ttlSeconds: 3600 },
  scheduled_investment: { maxsize: 256, ttlSeconds: 48 * 3600 },
  risk_optimization: { maxsize: 32, ttlSeconds: 30 * 60 },
  risk_simulation: { maxsize: 32, ttlSeconds: 30 * 60 },
} as const satisfies Record<string, CacheSpec>;

export type CacheName = keyof typeof CACHE_SPECS;

export interface CacheSpec {
  readonly maxsize: number;
  readonly ttlSeconds: number;
}

export interface CacheStatus {
  currentSize: number;
  maxsize: number;
  name: string;
  ttlSeconds: number;
}

/**
 * Process-local registry of named TTL+LRU caches. Caches register lazily on first use,
 * so a status read lists only the caches already created.
 */
@singleton()
export class CacheRegistry {
  private readonly caches = new Map<string, { cache: LRUCache<string, {}>; spec: CacheSpec }>();
  private readonly generations = new Map<string, number>();
  private source: ChangeSource | null = null;
  private tail: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;

  /**
   * Makes the caches follow the declared changes stored in the database (docs/decisions.md
   * "Declared changes"): every write, through any process, stores what it changed in its own
   * transaction; `source` reads what this process has not seen yet. Set once at start-up (its
   * first read takes the position).
   */
  async followChanges(source: ChangeSource): Promise<void> {
    this.source = source;
    await source();
  }

  /**
   * Before serving or computing a value of a cache built from stored data: reads the changes
   * declared since the last sync (this process's writes and other processes') and clears what
   * they affect (core/cache/change-feed.ts), noting their dates for the report engine. Call it
   * before reading the data a value is computed from, so a value computed from older data fails
   * the generation check and is not kept. Concurrent calls share one read that starts after
   * each call (so each sees every write committed before it).
   */
  sync(): Promise<void> {
    const source = this.source;
    if (!source) return Promise.resolve();
    if (this.queued) return this.queued;
    const run = this.tail.then(async () => {
      this.queued = null;
      applyChanges(this, await source());
    });
    this.queued = run;
    this.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * How many times the named cache was cleared. A value computed from data read before a clear
   * must not be stored after it: compare the generation taken at the start with the current one.
   */
  generation(name: string): number {
    return this.generations.get(name) ?? 0;
  }

  private bumpGeneration(name: string): void {
    this.generations.set(name, this.generation(name) + 1);
  }

  /** The named cache, created on first use with its `CACHE_SPECS` size and TTL (or `spec` for plugin caches). */
  get<V extends {}>(name: CacheName | string, spec?: CacheSpec): LRUCache<string, V> {
    let entry = this.caches.get(name);
    if (!entry) {
      const s = spec ?? (CACHE_SPECS as Record<string, CacheSpec>)[name];
      if (!s) throw new Error(`Unknown cache '${name}': pass its size and TTL`);
      entry = { cache: new LRUCache<string, {}>({ max: s.maxsize, ttl: s.ttlSeconds * 1000 }), spec: s };
      this.caches.set(name, entry);
    }
    return entry.cache as unknown as LRUCache<string, V>;
  }

  status(): CacheStatus[] {
    return [...this.caches.entries()]
      .map(([name, { cache, spec }]) => {
        cache.purgeStale();
        return { name, currentSize: cache.size, maxsize: spec.maxsize, ttlSeconds: spec.ttlSeconds };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Clears one cache. A spec name not created yet is already empty, so that succeeds;
   * a name that is neither registered nor in `CACHE_SPECS` is unknown (404).
   */
  clear(name: string): void {
    const entry = this.caches.get(name);
    if (!entry && !Object.hasOwn(CACHE_SPECS, name)) {
      throw new NotFoundError("CACHE_NOT_FOUND", `Cache '${name}' not found`, { name });
    }
    entry?.cache.clear();
    this.bumpGeneration(name);
  }

  /**
   * Deletes the entries of one cache that `drop` picks and counts a clear (its generation): a
   * value computed from data read before it is not stored after it, whatever it would have kept.
   */
  clearWhere<V extends {}>(name: CacheName, drop: (value: V) => boolean): void {
    const cache = this.caches.get(name)?.cache as LRUCache<string, V> | undefined;
    if (cache) {
      const doomed: string[] = [];
      cache.forEach((value, key) => { if (drop(value)) doomed.push(key); });
      for (const key of doomed) cache.delete(key);
    }
    this.bumpGeneration(name);
  }

  /** Clears every registered cache; returns how many were cleared. */
  clearAll(): number {
    for (const { cache } of this.caches.values()) cache.clear();
    for (const name of new Set([...Object.keys(CACHE_SPECS), ...this.caches.keys()])) this.bumpGeneration(name);
    return this.caches.size;
  }
}
