import { LRUCache } from "lru-cache";
import { singleton } from "tsyringe";
import { NotFoundError } from "../errors/domain-error.ts";
import { PORTFOLIO_CACHES } from "./portfolio-caches.ts";

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
  upload_metadata: { maxsize: 500, ttlSeconds: 3600 },
  scheduled_investment: { maxsize: 256, ttlSeconds: 48 * 3600 },
  risk_optimization: { maxsize: 32, ttlSeconds: 30 * 60 },
  risk_simulation: { maxsize: 32, ttlSeconds: 30 * 60 },
} as const satisfies Record<string, CacheSpec>;

export type CacheName = keyof typeof CACHE_SPECS;

/** Reads the stored generation of each cache group (group name → counter as text). */
export type SharedGenerations = () => Promise<Record<string, string>>;

/**
 * The caches of each shared generation group (migration 1795000008500 lists the tables that bump
 * it). The other named caches hold provider answers keyed by everything they depend on: per
 * process by design.
 */
const SHARED_GROUPS: Record<string, readonly string[]> = {
  portfolio: PORTFOLIO_CACHES,
  uploads: ["upload_metadata"],
};

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
  private shared: SharedGenerations | null = null;
  private readonly seen = new Map<string, string>();

  /**
   * Makes the caches coherent across processes sharing one database: `read` returns the stored
   * counter of each group (migration 1795000008500: bumped by triggers in every write's
   * transaction). Set once at start-up.
   */
  shareGenerations(read: SharedGenerations): void {
    this.shared = read;
  }

  /**
   * Before serving or computing a value of a cache built from stored data: reads the stored
   * counters and clears, in this process, every group whose counter changed since the last sync
   * (another process, or this one, wrote). Call it before reading the data a value is computed
   * from, so a value computed from older data fails the generation check and is not kept.
   */
  async sync(): Promise<void> {
    if (!this.shared) return;
    const now = await this.shared();
    for (const [group, value] of Object.entries(now)) {
      if (this.seen.get(group) === value) continue;
      this.seen.set(group, value);
      for (const name of SHARED_GROUPS[group] ?? []) this.clear(name);
    }
  }

  /**
   * A write of this process committed and moved the stored counters from `before` to `after`
   * (both read inside its transaction; writers queue on SQLite, see `Database.witnessGenerations`).
   * When `before` is what this process last saw, the move is the write's own and its caller clears
   * the caches with the dates it knows, so the next `sync` need not clear them again (undated).
   * Otherwise another process wrote meanwhile and `sync` clears as usual.
   */
  acknowledgeOwnWrite(before: Record<string, string>, after: Record<string, string>): void {
    for (const [group, value] of Object.entries(after)) {
      if (this.seen.get(group) === before[group]) this.seen.set(group, value);
    }
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

  /** Clears every registered cache; returns how many were cleared. */
  clearAll(): number {
    for (const { cache } of this.caches.values()) cache.clear();
    for (const name of new Set([...Object.keys(CACHE_SPECS), ...this.caches.keys()])) this.bumpGeneration(name);
    return this.caches.size;
  }
}
