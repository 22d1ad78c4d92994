import { addDays } from "../dates/calendar.ts";
import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import {
  type AssetEvent, DecimalStringSchema, type IsoDate, type IsoDateRange, IsoDateSchema, type PricePoint,
} from "../../sdk/index.ts";
import { CacheRegistry } from "../cache/cache-registry.ts";
import { earliestDate } from "../cache/portfolio-caches.ts";
import { declareChange } from "../db/data-changes.ts";
import { Database } from "../db/database.ts";
import { ASSET_EVENT_TYPES } from "../events/asset-event.entity.ts";
import { Decimal } from "../money/decimal.ts";
import { ConcurrencyLimiter, withTimeout } from "./concurrency.ts";
import {
  loadPricedAssets, MARKET_DATA_PROVIDERS, type MarketDataProviders, type PricedAsset, type UsableProvider, usableProvider,
} from "./market-data-providers.ts";
import { type PriceRowWrite, readPriceRows, writePriceRows } from "./price-rows.ts";
import { writeProviderEvents } from "./provider-events.ts";

/** `min`: the provider's full history, asked from this day on. */
export const HISTORY_MIN_DATE = "1900-01-01" as IsoDate;
/** Sync fetches are larger than quotes: their own limit per call, and the same 5 in flight. */
export const SYNC_TIMEOUT_MS = 60_000;
const SYNC_CONCURRENCY = 5;

export interface SyncRequest {
  assetId: number;
  end: IsoDate;
  start: IsoDate | "min" | "resume";
}

export type SyncStatus = "failed" | "ok" | "partial" | "skipped";

/** One asset's result of `POST /assets/prices/sync`. */
export interface SyncResult {
  assetId: number;
  errors: string[];
  eventsChanged: number;
  eventsFetched: number;
  insertedCount: number;
  message: string | null;
  pointsChanged: number;
  pointsFetched: number;
  providerUsed: string | null;
  status: SyncStatus;
  updatedCount: number;
}

/** What the provider gave; null where that fetch failed. `failedAll` when every fetch attempted failed. */
interface Fetched {
  errors: string[];
  events: AssetEvent[] | null;
  failedAll: boolean;
  points: PricePoint[] | null;
}

const blank = (assetId: number, status: SyncStatus, message: string, providerUsed: string | null = null): SyncResult => ({
  assetId, status, message, providerUsed, errors: status === "failed" ? [message] : [],
  pointsFetched: 0, pointsChanged: 0, insertedCount: 0, updatedCount: 0, eventsFetched: 0, eventsChanged: 0,
});

const nextDay = (date: string) => addDays(date, 1) as IsoDate;
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `POST /assets/prices/sync`: provider history and provider events into the database. */
@injectable()
export class PriceSyncService {
  private readonly limiter = new ConcurrencyLimiter(SYNC_CONCURRENCY);

  constructor(
    @inject(Database) private readonly db: Database,
    @inject(CacheRegistry) private readonly caches: CacheRegistry,
    @inject(MARKET_DATA_PROVIDERS) private readonly providers: MarketDataProviders,
  ) {}

  /** One result per item in request order; a provider failure is a `failed` item, never a thrown error. */
  async sync(items: readonly SyncRequest[]): Promise<SyncResult[]> {
    const assets = await loadPricedAssets(this.db.reads, items.map((i) => i.assetId));
    return Promise.all(items.map((item) => this.syncOne(item, assets.get(item.assetId))));
  }

  private async syncOne(item: SyncRequest, asset: PricedAsset | undefined): Promise<SyncResult> {
    if (!asset) return blank(item.assetId, "failed", "Asset not found");
    if (!asset.assignment) return blank(item.assetId, "skipped", "Asset has no provider assignment");
    const provider = usableProvider(this.providers, asset.assignment);
    if ("error" in provider) return blank(item.assetId, "failed", provider.error, asset.assignment.code);
    const range = await this.resolveRange(item);
    if (range.from > range.to) return blank(item.assetId, "ok", "Already up to date", provider.code);
    const fetched = await this.fetch(provider, asset, range);
    const result = blank(item.assetId, "ok", "", provider.code);
    result.errors = fetched.errors;
    if (fetched.failedAll) {
      return { ...result, status: "failed", message: "Provider failed: nothing was stored" };
    }
    await this.store(asset, provider, range, fetched, result);
    result.status = fetched.errors.length ? "partial" : "ok";
    result.message = `${result.pointsChanged} prices and ${result.eventsChanged} events changed`;
    return result;
  }

  /** `resume` is the day after the last stored price, full history when none. */
  private async resolveRange(item: SyncRequest): Promise<IsoDateRange> {
    if (item.start === "min") return { from: HISTORY_MIN_DATE, to: item.end };
    if (item.start !== "resume") return { from: item.start, to: item.end };
    const [last] = await this.db.reads.query(`SELECT MAX("date") AS "date" FROM "price_history" WHERE "asset_id" = ?`, [item.assetId]);
    return { from: last?.date ? nextDay(last.date) : HISTORY_MIN_DATE, to: item.end };
  }

  private async fetch(provider: UsableProvider, asset: PricedAsset, range: IsoDateRange): Promise<Fetched> {
    const errors: string[] = [];
    const guard = async <T>(what: string, work: () => Promise<T> | T): Promise<T | null> => {
      try {
        return await work();
      } catch (error) {
        errors.push(`${what}: ${reason(error)}`);
        return null;
      }
    };
    if (provider.kind === "scheduled") {
      const input = { params: provider.params, range };
      const points = await guard("History", () => provider.provider.generatePrices(input).map((p) => ({ date: p.date, close: p.value })));
      const events = await guard("Events", () => [...provider.provider.generateEvents(input)]);
      return { errors, points, events, failedAll: points === null && events === null };
    }
    const identifier = asset.assignment!.identifier;
    const call = { identifier, providerParams: provider.params, range };
    const q = provider.provider;
    const [points, events] = await Promise.all([
      guard("History", () => this.cached(provider.code, "history", call, (signal) => q.getHistory({ ...call, signal }))),
      q.getEvents ? guard("Events", () => this.cached(provider.code, "events", call, (signal) => q.getEvents!({ ...call, signal }))) : [],
    ]);
    return { errors, points, events, failedAll: points === null && (events === null || !q.getEvents) };
  }

  /** A provider fetch through the `asset_history_fetch` cache (15 min), at most 5 in flight. */
  private async cached<T>(code: string, what: string, call: object, work: (signal: AbortSignal) => Promise<readonly T[]>): Promise<T[]> {
    const cache = this.caches.get<T[]>("asset_history_fetch");
    const key = JSON.stringify([code, what, call]);
    const hit = cache.get(key);
    if (hit) return hit;
    const answer = await this.limiter.run(() => withTimeout(SYNC_TIMEOUT_MS, work));
    if (!Array.isArray(answer)) throw new Error("the provider answered something that is not a list");
    cache.set(key, [...answer]);
    return [...answer];
  }

  /** One write per asset: changed and new prices, provider events, and the assignment's last fetch time. */
  private async store(asset: PricedAsset, provider: UsableProvider, range: IsoDateRange, fetched: Fetched, result: SyncResult) {
    const assignmentId = asset.assignment!.id;
    const rows = priceRows(fetched.points ?? [], asset, provider.code, range, result.errors);
    const events = providerEvents(fetched.events ?? [], asset.currency, range, result.errors);
    result.pointsFetched = fetched.points?.length ?? 0;
    result.eventsFetched = fetched.events?.length ?? 0;
    await this.db.write(async (tx) => {
      const changed = await changedRows(tx, asset.id, rows);
      const from = earliestDate(changed.rows.map((r) => r.date));
      await writePriceRows(tx, changed.rows);
      const ev = await writeProviderEvents(tx, asset.id, assignmentId, events);
      await tx.query(`UPDATE "asset_provider_assignments" SET "last_fetch_at" = datetime('now') WHERE "id" = ?`, [assignmentId]);
      Object.assign(result, {
        insertedCount: changed.inserted, updatedCount: changed.rows.length - changed.inserted,
        pointsChanged: changed.rows.length, eventsChanged: ev.inserted + ev.updated,
      });
      if (changed.rows.length > 0) declareChange(tx, { kind: "prices", ids: [asset.id], from });
      // Events are not dated for the report (a split changes trade prices before it): recompute all.
      if (ev.inserted + ev.updated > 0) declareChange(tx, { kind: "events", ids: [asset.id] });
    });
  }
}

const validDecimal = (v: unknown): v is string => DecimalStringSchema.safeParse(v).success;

/** Points inside the range with a valid date and a positive close; others are reported and skipped. */
function priceRows(points: readonly PricePoint[], asset: PricedAsset, code: string, range: IsoDateRange, errors: string[]): PriceRowWrite[] {
  const byDate = new Map<string, PriceRowWrite>();
  let skipped = 0;
  const optional = (v: unknown) => (validDecimal(v) ? v : null);
  for (const p of points) {
    const ok = IsoDateSchema.safeParse(p?.date).success && validDecimal(p.close) && new Decimal(p.close).greaterThan(0);
    if (!ok) { skipped++; continue; }
    if (p.date < range.from || p.date > range.to) continue;
    byDate.set(p.date, {
      assetId: asset.id, date: p.date, currency: asset.currency, source: code, assignmentId: asset.assignment!.id,
      open: optional(p.open), high: optional(p.high), low: optional(p.low), close: p.close, volume: optional(p.volume),
    });
  }
  if (skipped) errors.push(`History: ${skipped} invalid points skipped`);
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** Events inside the range with a known type, a valid date and value; the currency defaults to the asset's. */
function providerEvents(events: readonly AssetEvent[], currency: string, range: IsoDateRange, errors: string[]) {
  const out: { currency: string; date: string; type: string; value: string }[] = [];
  let skipped = 0;
  for (const e of events) {
    const ok = IsoDateSchema.safeParse(e?.date).success && (ASSET_EVENT_TYPES as readonly string[]).includes(e.type) && validDecimal(e.value);
    if (!ok) { skipped++; continue; }
    if (e.date < range.from || e.date > range.to) continue;
    out.push({ date: e.date, type: e.type, value: e.value, currency: e.currency ?? currency });
  }
  if (skipped) errors.push(`Events: ${skipped} invalid events skipped`);
  return out;
}

/** The rows that are new or differ from what is stored (so unchanged days are not rewritten). */
async function changedRows(tx: EntityManager, assetId: number, rows: PriceRowWrite[]) {
  if (rows.length === 0) return { rows, inserted: 0 };
  const stored = new Map((await readPriceRows(tx, assetId, rows[0]!.date, rows.at(-1)!.date)).map((r) => [r.date, r]));
  let inserted = 0;
  const changed = rows.filter((r) => {
    const s = stored.get(r.date);
    if (!s) return ++inserted > 0;
    return s.open !== r.open || s.high !== r.high || s.low !== r.low || s.close !== r.close || s.volume !== r.volume
      || s.source_plugin_key !== r.source || s.currency !== r.currency || s.provider_assignment_id !== r.assignmentId;
  });
  return { rows: changed, inserted };
}
