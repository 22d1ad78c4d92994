import { inject, injectable } from "tsyringe";
import { In, LessThanOrEqual } from "typeorm";
import { BrokerAccess } from "../brokers/broker-access.entity.ts";
import { aggregationScale } from "../brokers/share-scale.ts";
import { CacheRegistry } from "../cache/cache-registry.ts";
import { brokerNotFound } from "../brokers/broker-access.service.ts";
import { today } from "../dates/calendar.ts";
import { Database } from "../db/database.ts";
import { Decimal, toDecimalString } from "../money/decimal.ts";
import { UserSettingsService } from "../settings/user-settings.service.ts";
import { Transaction } from "../transactions/transaction.entity.ts";
import { LotsAnalysisService } from "./lots-analysis.service.ts";
import type { LotsInput } from "./lots-types.ts";
import type { AssetDisposals, Disposal } from "./realized-gains.calc.ts";

export interface RealizedGainsRequest {
  brokerIds?: number[];
  targetCurrency?: string | null;
  year?: number | null;
}

/** Runs the pure calculation (in the host's worker pool); core never imports the pool. */
export type RealizedGainsRunner = (inputs: LotsInput[]) => Promise<AssetDisposals[]>;

export interface GainTotals {
  average_cost: string | null;
  average_gain: string | null;
  disposals: number;
  fifo_cost: string | null;
  fifo_gain: string | null;
  proceeds: string | null;
}

export interface RealizedGainsResult {
  broker_ids: number[];
  computed_date_to: string;
  disposals: Disposal[];
  missing_fx_pairs: { dates: string[]; pair: string }[];
  target_currency: string;
  totals: GainTotals;
  year: number | null;
  years: (GainTotals & { year: number })[];
}

/**
 * `POST /portfolio/realized-gains` on the request side (docs/portfolio-lots.md "Realised gains"):
 * the scope, the assets sold in it, and one lots-engine input per asset (the lots analysis' own
 * loader, so scales, FX and splits are the analysis'); totals per tax year. The answer is kept in
 * `portfolio_gains` per caller and request until a declared write clears it (docs/portfolio.md "Caches").
 */
@injectable()
export class RealizedGainsService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(UserSettingsService) private readonly settings: UserSettingsService,
    @inject(LotsAnalysisService) private readonly lots: LotsAnalysisService,
    @inject(CacheRegistry) private readonly caches: CacheRegistry,
  ) {}

  async gains(userId: number, req: RealizedGainsRequest, run: RealizedGainsRunner): Promise<RealizedGainsResult> {
    // Before any read: a write declared since clears the cache, and bumps the generation of a value computed meanwhile.
    await this.caches.sync();
    const generation = this.caches.generation("portfolio_gains");
    const reads = this.db.reads;
    const rows = await reads.findBy(BrokerAccess, { userId });
    const access = new Set(rows.map((r) => r.brokerId));
    const ids = req.brokerIds ? [...new Set(req.brokerIds)] : [...access];
    for (const id of ids) if (!access.has(id)) throw brokerNotFound(id);
    ids.sort((a, b) => a - b);
    const target = req.targetCurrency ?? await this.settings.effectiveBaseCurrency(userId);
    const now = today();
    const year = req.year ?? null;
    // Sales after the year change nothing in it: the replay stops at its last day.
    const end = year !== null && `${year}-12-31` < now ? `${year}-12-31` : now;
    // The caller (private FX rates), the brokers with their scales, the currency and the last day.
    const byBroker = new Map(rows.map((r) => [r.brokerId, r]));
    const key = JSON.stringify({ userId, brokers: ids.map((id) => [id, aggregationScale(byBroker.get(id)!).toString()]), target, end, year });
    const cache = this.caches.get<RealizedGainsResult>("portfolio_gains");
    const hit = cache.get(key);
    if (hit) return hit;
    const result = await this.compute(userId, ids, target, end, year, run);
    // A write that cleared the cache meanwhile may not be reflected: serve it, do not keep it.
    if (this.caches.generation("portfolio_gains") === generation) cache.set(key, result);
    return result;
  }

  private async compute(userId: number, ids: number[], target: string, end: string, year: number | null, run: RealizedGainsRunner): Promise<RealizedGainsResult> {
    const sold = ids.length === 0 ? [] : await this.db.reads.find(Transaction, {
      select: { assetId: true }, where: { brokerId: In(ids), type: "SELL", date: LessThanOrEqual(end) },
    });
    const assetIds = [...new Set(sold.map((t) => t.assetId).filter((a): a is number => a !== null))].sort((a, b) => a - b);
    const inputs = await this.lots.inputs(userId, assetIds, { analyses: ["LOT_SUMMARY"], brokerIds: ids, end, targetCurrency: target });
    const results = inputs.length ? await run(inputs) : [];

    const disposals = results.flatMap((r) => r.disposals)
      .filter((d) => year === null || d.date.startsWith(`${year}-`))
      .sort((a, b) => a.date.localeCompare(b.date) || a.transaction_id - b.transaction_id);
    const byYear = new Map<number, Disposal[]>();
    for (const d of disposals) {
      const y = Number(d.date.slice(0, 4));
      const list = byYear.get(y);
      if (list) list.push(d);
      else byYear.set(y, [d]);
    }
    const missing = new Map<string, Set<string>>();
    for (const r of results) {
      for (const [from, dates] of Object.entries(r.missing_fx)) {
        const set = missing.get(from) ?? new Set<string>();
        for (const d of dates) set.add(d);
        missing.set(from, set);
      }
    }
    return {
      broker_ids: ids, computed_date_to: end, disposals, target_currency: target, totals: totalsOf(disposals), year,
      years: [...byYear.entries()].sort(([a], [b]) => a - b).map(([y, list]) => ({ year: y, ...totalsOf(list) })),
      missing_fx_pairs: [...missing.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([from, dates]) => ({ pair: `${from}/${target}`, dates: [...dates].sort() })),
    };
  }
}

/** Sums of the disposals' amounts; a sum is null when one of its terms is unknown. */
function totalsOf(list: Disposal[]): GainTotals {
  const total = (pick: (d: Disposal) => string | null): string | null => {
    let acc = new Decimal(0);
    for (const d of list) {
      const v = pick(d);
      if (v === null) return null;
      acc = acc.plus(v);
    }
    return toDecimalString(acc);
  };
  return {
    disposals: list.length, proceeds: total((d) => d.proceeds), fifo_cost: total((d) => d.fifo_cost), fifo_gain: total((d) => d.fifo_gain),
    average_cost: total((d) => d.average_cost), average_gain: total((d) => d.average_gain),
  };
}
