import { inject, injectable } from "tsyringe";
import { Asset } from "../assets/asset.entity.ts";
import { BrokerAccessService } from "../brokers/broker-access.service.ts";
import { CacheRegistry } from "../cache/cache-registry.ts";
import { Database } from "../db/database.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { pairChains, type RateRow, rateSeriesLoader } from "../fx/fx-convert.ts";
import { managerReader } from "../db/sql-reader.ts";
import { Decimal } from "../money/decimal.ts";
import { type WacRouteLeg, type WacSeriesInput, type WacSeriesOutput, type WacSeriesRow, wacCurrency } from "./wac-series.calc.ts";

export interface WacQuery {
  assetId: number;
  brokerId: number;
  /** Last returned date; null: no bound ("max"). */
  end: string | null;
  /** First returned date; null: no bound ("min"). */
  start: string | null;
}

export interface WacQueryResult extends WacSeriesOutput {
  assetId: number;
  brokerId: number;
}

/** Runs the pure series calculation (the host passes its worker pool). */
export type WacSeriesRunner = (input: WacSeriesInput) => Promise<WacSeriesOutput>;

interface RawRow {
  amount: string | null;
  cost_basis_currency: string | null;
  cost_basis_mode: string | null;
  cost_basis_override: string | null;
  currency: string | null;
  date: string;
  id: number;
  quantity: string;
  split: number;
  type: string;
}

const toRows = (rows: RawRow[]): WacSeriesRow[] => rows.map((r) => ({
  amount: r.amount, costBasisCurrency: r.cost_basis_currency, costBasisMode: r.cost_basis_mode, costBasisOverride: r.cost_basis_override,
  currency: r.currency, date: r.date, id: r.id, quantity: r.quantity, split: r.split === 1, type: r.type,
}));

/**
 * `POST /portfolio/wac`: the WAC series per (broker, asset), cached in `portfolio_wac` per
 * (caller, broker, asset, range). `pool_qty` is the broker's own quantity, not share-weighted: the
 * series describes the broker's pool, whoever looks at it (docs/portfolio.md "WAC series"); only
 * foreign costs the shared FX data cannot convert may differ, by the caller's private rates.
 */
@injectable()
export class WacSeriesService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(BrokerAccessService) private readonly access: BrokerAccessService,
    @inject(CacheRegistry) private readonly caches: CacheRegistry,
  ) {}

  /** Every query is checked first: 404 BROKER_NOT_FOUND without an access row, 404 ASSET_NOT_FOUND for an unknown asset. */
  async series(userId: number, queries: readonly WacQuery[], run: WacSeriesRunner): Promise<WacQueryResult[]> {
    const currencies = new Map<number, string>();
    for (const q of queries) {
      await this.access.require(userId, q.brokerId, "VIEWER");
      if (currencies.has(q.assetId)) continue;
      const asset = await this.db.reads.findOne(Asset, { select: { id: true, currency: true }, where: { id: q.assetId } });
      if (!asset) throw new NotFoundError("ASSET_NOT_FOUND", `Asset ${q.assetId} not found`, { asset_id: q.assetId });
      currencies.set(q.assetId, asset.currency);
    }
    await this.caches.sync();
    const generation = this.caches.generation("portfolio_wac");
    const cache = this.caches.get<WacSeriesOutput>("portfolio_wac");
    return Promise.all(queries.map(async (q) => {
      // Per caller: foreign costs convert with the caller's private FX rates too (docs/fx.md).
      const key = JSON.stringify([userId, q.brokerId, q.assetId, q.start, q.end]);
      let out = cache.get(key);
      if (!out) {
        out = await run(await this.input(userId, q, currencies.get(q.assetId)!));
        // A write that cleared the cache meanwhile may not be reflected: serve it, do not keep it.
        if (this.caches.generation("portfolio_wac") === generation) cache.set(key, out);
      }
      return { assetId: q.assetId, brokerId: q.brokerId, ...out };
    }));
  }

  /** The calculation's input: the broker's rows of the asset and the FX routes its foreign costs need. */
  private async input(userId: number, q: WacQuery, assetCurrency: string): Promise<WacSeriesInput> {
    const raw = await this.db.reads.query(
      `SELECT t.id, t.date, t.type, t.quantity, t.amount, t.currency, t.cost_basis_override, t.cost_basis_currency,
              t.cost_basis_mode, CASE WHEN e.type = 'SPLIT' THEN 1 ELSE 0 END AS split
       FROM transactions t LEFT JOIN asset_events e ON e.id = t.asset_event_id
       WHERE t.broker_id = ? AND t.asset_id = ? ORDER BY t.date, t.id`,
      [q.brokerId, q.assetId],
    ) as RawRow[];
    const rows = toRows(raw);
    const currency = wacCurrency(rows, assetCurrency);
    // Foreign cost currency → its last date (rows are by date): rates are read up to that day.
    const lastDate = new Map<string, string>();
    for (const r of rows) {
      const cost = r.type === "BUY" ? r.currency : r.costBasisCurrency;
      if (cost && cost !== currency && new Decimal(r.quantity).gt(0)) lastDate.set(cost, r.date);
    }
    const reader = managerReader(this.db.reads);
    const load = rateSeriesLoader(reader, (rs: RateRow[]) => ({ dates: rs.map((r) => r.date), rates: rs.map((r) => r.rate) }), userId);
    const input: WacSeriesInput = { assetCurrency, end: q.end, rows, routes: {}, series: {}, start: q.start };
    for (const [from, end] of lastDate) {
      const chains = (await pairChains(reader, from, currency, userId)) ?? [];
      input.routes[from] = await Promise.all(chains.map((chain) => Promise.all(chain.map(async (step): Promise<WacRouteLeg> => {
        const key = `${[step.from, step.to].sort().join("/")}|${step.provider}|${end}`;
        input.series[key] ??= await load(step, end);
        return { from: step.from, series: key, to: step.to };
      }))));
    }
    return input;
  }
}
