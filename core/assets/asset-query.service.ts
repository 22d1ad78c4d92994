import { inject, injectable } from "tsyringe";
import { In } from "typeorm";
import { BrokerAccessService } from "../brokers/broker-access.service.ts";
import { Database } from "../db/database.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { Asset, type AssetType } from "./asset.entity.ts";
import { parseIdentifierOther } from "./asset.service.ts";
import { ProviderAssignment } from "./provider-assignment.entity.ts";

/** An asset with its provider assignment (null for a manual asset). */
export interface AssetView {
  asset: Asset;
  assignment: ProviderAssignment | null;
}

/** A list row: the view plus how many transactions use the asset, overall and in the caller's brokers. */
export interface AssetListItem extends AssetView {
  txCount: number;
  txCountOwn: number;
}

/** The filters of `GET /assets/query`; text matches ignore case. Absent filters match everything. */
export interface AssetFilters {
  active?: boolean;
  assetType?: AssetType;
  currency?: string;
  cusip?: string;
  figi?: string;
  /** Substring of any identifier (the six columns, the other identifiers, the provider identifier). */
  identifierContains?: string;
  /** Exactly one of the asset's other identifiers. */
  identifierOther?: string;
  isin?: string;
  /** Substring of the name or of any identifier. */
  search?: string;
  sedol?: string;
  ticker?: string;
  uuid?: string;
}

/** Counts of what a currency-change wipe would delete (`GET /assets/{id}/market-data/summary`). */
export interface MarketDataSummary {
  assetId: number;
  eventCount: number;
  firstPriceDate: string | null;
  lastPriceDate: string | null;
  linkedTransactionCount: number;
  manualEventCount: number;
  priceCount: number;
  providerEventCount: number;
}

export const assetNotFound = (assetId: number) => new NotFoundError("ASSET_NOT_FOUND", `Asset ${assetId} not found`, { asset_id: assetId });

const EXACT_FILTERS = [
  ["isin", "identifierIsin"], ["ticker", "identifierTicker"], ["cusip", "identifierCusip"],
  ["sedol", "identifierSedol"], ["figi", "identifierFigi"], ["uuid", "identifierUuid"],
] as const;

const lower = (s: string) => s.toLowerCase();

/** Every identifier of an asset: the six columns, the other identifiers and the provider's identifier. */
export function identifiersOf(view: AssetView): string[] {
  const a = view.asset;
  return [
    a.identifierIsin, a.identifierTicker, a.identifierCusip, a.identifierSedol, a.identifierFigi, a.identifierUuid,
    ...(parseIdentifierOther(a.identifierOther) ?? []), view.assignment?.identifier ?? null,
  ].filter((v): v is string => v !== null && v !== "");
}

export function matchesFilters(view: AssetView, f: AssetFilters): boolean {
  const a = view.asset;
  if (f.currency !== undefined && a.currency !== f.currency.toUpperCase()) return false;
  if (f.assetType !== undefined && a.assetType !== f.assetType) return false;
  if (f.active !== undefined && a.active !== f.active) return false;
  for (const [filter, column] of EXACT_FILTERS) {
    const wanted = f[filter];
    if (wanted !== undefined && lower(a[column] ?? "") !== lower(wanted)) return false;
  }
  const ids = identifiersOf(view).map(lower);
  if (f.identifierOther !== undefined && !(parseIdentifierOther(a.identifierOther) ?? []).some((o) => lower(o) === lower(f.identifierOther!))) {
    return false;
  }
  if (f.identifierContains !== undefined && !ids.some((id) => id.includes(lower(f.identifierContains!)))) return false;
  if (f.search !== undefined) {
    const needle = lower(f.search);
    if (!lower(a.name).includes(needle) && !ids.some((id) => id.includes(needle))) return false;
  }
  return true;
}

/** Reading assets: bulk by id, one, filtered lists with transaction counts, market-data counts. */
@injectable()
export class AssetQueryService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(BrokerAccessService) private readonly access: BrokerAccessService,
  ) {}

  /** The assets in request order; unknown ids are skipped. */
  async byIds(assetIds: number[]): Promise<AssetView[]> {
    if (assetIds.length === 0) return [];
    const views = await this.views(await this.db.reads.findBy(Asset, { id: In([...new Set(assetIds)]) }));
    const byId = new Map(views.map((v) => [v.asset.id, v]));
    return assetIds.flatMap((id) => byId.get(id) ?? []);
  }

  async get(assetId: number): Promise<AssetView> {
    const [view] = await this.byIds([assetId]);
    if (!view) throw assetNotFound(assetId);
    return view;
  }

  /** Assets matching the filters, by name (ignoring case) then id. */
  async list(userId: number, filters: AssetFilters): Promise<AssetListItem[]> {
    const where = {
      ...(filters.currency !== undefined ? { currency: filters.currency.toUpperCase() } : {}),
      ...(filters.active !== undefined ? { active: filters.active } : {}),
      ...(filters.assetType !== undefined ? { assetType: filters.assetType } : {}),
    };
    const views = (await this.views(await this.db.reads.find(Asset, { where })))
      .filter((v) => matchesFilters(v, filters))
      .sort((x, y) => lower(x.asset.name).localeCompare(lower(y.asset.name)) || x.asset.id - y.asset.id);
    const [all, own] = await Promise.all([this.transactionCounts(null), this.transactionCounts(userId)]);
    return views.map((v) => ({ ...v, txCount: all.get(v.asset.id) ?? 0, txCountOwn: own.get(v.asset.id) ?? 0 }));
  }

  /**
   * What a wipe would delete. `linkedTransactionCount` counts only transactions in brokers
   * `userId` can access: the others' are not revealed (docs/assets.md).
   */
  async marketDataSummary(assetId: number, userId: number): Promise<MarketDataSummary> {
    await this.get(assetId);
    const [prices] = await this.db.reads.query(
      `SELECT COUNT(*) AS n, MIN(date) AS first, MAX(date) AS last FROM price_history WHERE asset_id = ?`, [assetId],
    ) as { first: string | null; last: string | null; n: number }[];
    const [events] = await this.db.reads.query(
      `SELECT COUNT(*) AS n, COALESCE(SUM(CASE WHEN provider_assignment_id IS NULL THEN 1 ELSE 0 END), 0) AS manual FROM asset_events WHERE asset_id = ?`, [assetId],
    ) as { manual: number; n: number }[];
    const [linked] = await this.db.reads.query(
      `SELECT COUNT(*) AS n FROM transactions WHERE asset_event_id IN (SELECT id FROM asset_events WHERE asset_id = ?)
       AND broker_id IN (SELECT broker_id FROM broker_access WHERE user_id = ?)`, [assetId, userId],
    ) as { n: number }[];
    return {
      assetId,
      priceCount: Number(prices!.n), firstPriceDate: prices!.first, lastPriceDate: prices!.last,
      eventCount: Number(events!.n), manualEventCount: Number(events!.manual),
      providerEventCount: Number(events!.n) - Number(events!.manual),
      linkedTransactionCount: Number(linked!.n),
    };
  }

  private async views(assets: Asset[]): Promise<AssetView[]> {
    if (assets.length === 0) return [];
    const assignments = await this.db.reads.findBy(ProviderAssignment, { assetId: In(assets.map((a) => a.id)) });
    const byAsset = new Map(assignments.map((p) => [p.assetId, p]));
    return assets.map((asset) => ({ asset, assignment: byAsset.get(asset.id) ?? null }));
  }

  /** Transactions per asset; with a user, only in the brokers that user can see. */
  private async transactionCounts(userId: number | null): Promise<Map<number, number>> {
    let sql = `SELECT asset_id, COUNT(*) AS n FROM transactions WHERE asset_id IS NOT NULL`;
    const params: number[] = [];
    if (userId !== null) {
      params.push(...(await this.access.roles(userId)).keys());
      if (params.length === 0) return new Map();
      sql += ` AND broker_id IN (${params.map(() => "?").join(", ")})`;
    }
    const rows = await this.db.reads.query(`${sql} GROUP BY asset_id`, params) as { asset_id: number; n: number }[];
    return new Map(rows.map((r) => [r.asset_id, Number(r.n)]));
  }
}
