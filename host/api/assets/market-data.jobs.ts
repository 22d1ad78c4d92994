import { addDays, today } from "../../../core/dates/calendar.ts";
import type { Database } from "../../../core/db/database.ts";
import type { FxProviderLookup, FxSyncService } from "../../../core/fx/fx-sync.service.ts";
import type { CurrentPriceService } from "../../../core/prices/current-price.service.ts";
import type { PriceSyncService } from "../../../core/prices/price-sync.service.ts";
import type { IsoDate } from "../../../sdk/index.ts";
import type { Logger } from "../../logger.ts";
import type { JobOutcome } from "../../scheduler/scheduler.ts";

/** History is synced in slices so a long run reports its progress in the log. */
const SYNC_SLICE = 20;

async function assignedAssetIds(db: Database): Promise<number[]> {
  const rows = await db.reads.query(`SELECT asset_id FROM asset_provider_assignments ORDER BY asset_id`) as { asset_id: number }[];
  return rows.map((r) => r.asset_id);
}

/** Current prices of every asset with a provider; fallbacks to stored prices count as failures. */
export function currentPriceJob(db: Database, prices: CurrentPriceService) {
  return async (): Promise<JobOutcome> => {
    const ids = await assignedAssetIds(db);
    if (ids.length === 0) return { itemsOk: 0, itemsErr: 0 };
    const items = await prices.current(ids);
    const ok = items.filter((i) => i.source?.startsWith("provider:")).length;
    return { itemsOk: ok, itemsErr: items.length - ok };
  };
}

/** Every configured FX pair; pairs with only their MANUAL route come back `skipped`. */
async function configuredPairs(db: Database): Promise<string[]> {
  const rows = await db.reads.query(`SELECT DISTINCT base, quote FROM fx_routes ORDER BY base, quote`) as { base: string; quote: string }[];
  return rows.map((r) => `${r.base}-${r.quote}`);
}

export interface FxSyncDeps {
  providers: FxProviderLookup;
  syncs: FxSyncService;
}

/**
 * History (and provider events) of every asset with a provider, then the rates of every configured
 * FX pair, over the last `horizonDays` days.
 */
export function historySyncJob(db: Database, syncs: PriceSyncService, fx: FxSyncDeps, logger: Logger) {
  return async (horizonDays: number): Promise<JobOutcome> => {
    const ids = await assignedAssetIds(db);
    const end = today() as IsoDate;
    const start = addDays(end, -horizonDays) as IsoDate;
    let itemsOk = 0;
    let itemsErr = 0;
    for (let i = 0; i < ids.length; i += SYNC_SLICE) {
      const results = await syncs.sync(ids.slice(i, i + SYNC_SLICE).map((assetId) => ({ assetId, start, end })));
      itemsOk += results.filter((r) => r.status === "ok" || r.status === "partial").length;
      itemsErr += results.filter((r) => r.status === "failed").length;
      logger.info("history sync progress", { done: Math.min(i + SYNC_SLICE, ids.length), total: ids.length, ok: itemsOk, failed: itemsErr });
    }
    const pairs = await configuredPairs(db);
    if (pairs.length) {
      const { results } = await fx.syncs.sync({ pairs, start, end }, fx.providers);
      itemsOk += results.filter((r) => r.status === "ok" || r.status === "partial").length;
      itemsErr += results.filter((r) => r.status === "failed").length;
      logger.info("history sync of FX pairs done", { pairs: pairs.length });
    }
    return { itemsOk, itemsErr };
  };
}
