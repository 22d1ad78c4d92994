import { inject, injectable } from "tsyringe";
import { In } from "typeorm";
import { Asset } from "../assets/asset.entity.ts";
import { Database } from "../db/database.ts";
import { Decimal, toDecimalString } from "../money/decimal.ts";
import { wacPerUnit, wacPool, type WacRow } from "../transactions/wac.calc.ts";
import { BrokerService, type BrokerView } from "./broker.service.ts";

export interface Holding {
  assetId: number;
  assetName: string;
  /** Per-unit weighted average cost, null when costs are in several currencies. */
  averageCostPerUnit: string | null;
  costCurrency: string;
  quantity: string;
  /** Null when inflows were priced in several currencies (no FX conversion here). */
  totalCost: string | null;
}

export interface BrokerSummary {
  cashBalances: { amount: string; code: string }[];
  holdings: Holding[];
  view: BrokerView;
}

interface SummaryRow extends WacRow {
  asset_id: number | null;
}

/**
 * A broker's cash balance per currency and its open positions with weighted average cost, as
 * stored (not share-scaled). Market values join in once prices exist.
 */
@injectable()
export class BrokerSummaryService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(BrokerService) private readonly brokers: BrokerService,
  ) {}

  async summary(userId: number, brokerId: number): Promise<BrokerSummary> {
    const view = await this.brokers.get(userId, brokerId);
    const rows = await this.db.reads.query(
      `SELECT type, asset_id, quantity, amount, currency, cost_basis_override, cost_basis_currency
       FROM transactions WHERE broker_id = ? ORDER BY date, id`, [brokerId],
    ) as SummaryRow[];
    return { view, cashBalances: cashBalances(rows), holdings: await this.holdings(rows) };
  }

  private async holdings(rows: SummaryRow[]): Promise<Holding[]> {
    const byAsset = new Map<number, SummaryRow[]>();
    for (const r of rows) if (r.asset_id !== null) byAsset.set(r.asset_id, [...(byAsset.get(r.asset_id) ?? []), r]);
    const assets = byAsset.size ? await this.db.reads.findBy(Asset, { id: In([...byAsset.keys()]) }) : [];
    const out: Holding[] = [];
    for (const asset of assets) {
      const quantity = byAsset.get(asset.id)!.reduce((q, r) => q.plus(r.quantity), new Decimal(0));
      if (quantity.isZero()) continue;
      const pool = wacPool(byAsset.get(asset.id)!, asset.currency);
      const perUnit = pool.mixedCurrencies ? null : wacPerUnit(pool);
      out.push({
        assetId: asset.id, assetName: asset.name, quantity: toDecimalString(quantity), costCurrency: asset.currency,
        totalCost: pool.mixedCurrencies ? null : toDecimalString(pool.totalCost),
        averageCostPerUnit: perUnit === null ? null : toDecimalString(perUnit),
      });
    }
    return out.sort((a, b) => a.assetName.localeCompare(b.assetName) || a.assetId - b.assetId);
  }
}

function cashBalances(rows: SummaryRow[]): { amount: string; code: string }[] {
  const cash = new Map<string, Decimal>();
  for (const r of rows) {
    if (r.amount !== null && r.currency !== null) cash.set(r.currency, (cash.get(r.currency) ?? new Decimal(0)).plus(r.amount));
  }
  return [...cash.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([code, amount]) => ({ code, amount: toDecimalString(amount) }));
}
