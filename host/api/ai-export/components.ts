import { In } from "typeorm";
import { Asset } from "../../../core/assets/asset.entity.ts";
import { Database } from "../../../core/db/database.ts";
import { FxConvertService } from "../../../core/fx/fx-convert.service.ts";
import { PriceService } from "../../../core/prices/price.service.ts";
import { Transaction } from "../../../core/transactions/transaction.entity.ts";
import type {
  AiExportComponentId, AiExportDetailLevel, AiExportHolding, AiExportQuery, AiExportReader, AiExportTransaction,
} from "../../../sdk/index.ts";
import { Decimal } from "../../../sdk/index.ts";
import type { PortfolioEngineAdapter, ReportJson } from "../portfolio/engine-adapter.ts";
import type { DependencyContainer } from "tsyringe";

type Money = { code: string; amount: string } | null;

const money = (code: string, amount: string | null | undefined): Money => (amount === null || amount === undefined ? null : { code, amount });

/** Points kept per detail level: `compact` month ends (at most 24), `standard` week ends (at most 260), `full` every day. */
export const SERIES_LIMITS: Record<AiExportDetailLevel, number> = { compact: 24, standard: 260, full: Number.POSITIVE_INFINITY };
/** Holdings listed one by one at `compact`; the rest are summed into one `others` row. */
export const COMPACT_HOLDINGS = 10;

function isoWeekKey(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const day = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - day + 3);
  const firstThursday = new Date(Date.UTC(d.getUTCFullYear(), 0, 4));
  const week = 1 + Math.round(((d.getTime() - firstThursday.getTime()) / 86_400_000 - 3 + ((firstThursday.getUTCDay() + 6) % 7)) / 7);
  return `${d.getUTCFullYear()}-W${week}`;
}

/** Thins a daily series (ascending by `date`) for a detail level; the first and last points always stay. */
export function sampleSeries<T extends { date: string }>(points: readonly T[], level: AiExportDetailLevel): T[] {
  if (level === "full" || points.length <= 2) return [...points];
  const key = level === "compact" ? (d: string) => d.slice(0, 7) : isoWeekKey;
  const kept: T[] = [];
  points.forEach((p, i) => {
    const next = points[i + 1];
    if (i === 0 || !next || key(next.date) !== key(p.date)) kept.push(p);
  });
  const limit = SERIES_LIMITS[level];
  if (kept.length <= limit) return kept;
  const step = (kept.length - 1) / (limit - 1);
  return Array.from({ length: limit }, (_, i) => kept[Math.round(i * step)]!);
}

/** Percent change of each value against the first one, 4 decimals (null when the first is 0). */
function changePercent(first: string, value: string): string | null {
  const base = new Decimal(first);
  return base.isZero() ? null : new Decimal(value).minus(base).div(base).times(100).toDecimalPlaces(4).toFixed();
}

/**
 * The host side of the AI export's reader port: components computed by the existing engines through
 * the one adapter (report, lots analysis) and the stored prices and FX rates, for one snapshot. The
 * brokers in the query were access-checked by the snapshot service; the report and lots services
 * check them again. The report is computed once per snapshot (one call, cached by its service).
 */
export class ComponentReader implements AiExportReader {
  private reportRun: Promise<ReportJson> | undefined;
  private readonly db: Database;

  constructor(
    private readonly container: DependencyContainer,
    private readonly engine: PortfolioEngineAdapter,
    private readonly userId: number,
  ) {
    this.db = container.resolve(Database);
  }

  private report(query: AiExportQuery): Promise<ReportJson> {
    this.reportRun ??= this.engine.report(this.userId, {
      brokerIds: [...query.brokerIds], start: query.period.from, end: query.period.to, target: query.targetCurrency,
      flags: { summary: true, history: true },
    });
    return this.reportRun;
  }

  async holdings(params: { asOf: string; brokerIds: readonly number[] }): Promise<readonly AiExportHolding[]> {
    const report = await this.engine.report(this.userId, {
      brokerIds: [...params.brokerIds], start: null, end: params.asOf, target: null, flags: { summary: true },
    });
    const rows = (report.summary?.holdings ?? []) as Record<string, any>[];
    const assets = await this.db.reads.findBy(Asset, { id: In([...new Set(rows.map((r) => r.asset_id as number))]) });
    const currency = new Map(assets.map((a) => [a.id, a.currency]));
    return rows.map((r) => ({
      assetId: r.asset_id, assetName: r.asset_name, brokerId: r.broker_id, currency: currency.get(r.asset_id) ?? "", quantity: r.quantity,
    })) as unknown as AiExportHolding[];
  }

  async transactions(params: { brokerIds: readonly number[]; range: { from: string; to: string } }): Promise<readonly AiExportTransaction[]> {
    if (params.brokerIds.length === 0) return [];
    const rows = await this.db.reads.createQueryBuilder(Transaction, "t")
      .where("t.brokerId IN (:...ids)", { ids: [...params.brokerIds] })
      .andWhere("t.date BETWEEN :from AND :to", params.range)
      .orderBy("t.date", "ASC").addOrderBy("t.id", "ASC").getMany();
    // Descriptions and tags are left out: they are free text a user may fill with anything.
    return rows.map((t) => ({
      assetId: t.assetId, brokerId: t.brokerId,
      cash: t.amount !== null && t.currency ? { code: t.currency, amount: t.amount } : null,
      date: t.date, id: t.id, quantity: t.quantity, type: t.type,
    })) as unknown as AiExportTransaction[];
  }

  async component({ id, query }: { id: AiExportComponentId; query: AiExportQuery }): Promise<unknown> {
    switch (id) {
      case "portfolio.summary":
      case "broker.summary":
        return this.summary(query);
      case "portfolio.holdings":
        return this.holdingRows(query);
      case "portfolio.history":
        return this.history(query);
      case "portfolio.allocation":
        return this.allocation(query);
      case "data_quality":
        return this.dataQuality(query);
      case "fx.exposure":
        return this.fxExposure(query);
      case "asset.market_history":
        return this.marketHistory(query);
      case "fx.market_history":
        return this.fxHistory(query);
      case "asset.lots":
        return query.assetId === undefined ? null : this.lots(query, query.assetId);
      case "portfolio.lots":
        return this.portfolioLots(query);
      default:
        return null;
    }
  }

  private async summary(query: AiExportQuery) {
    const s = (await this.report(query)).summary ?? {};
    const pick = (keys: string[]) => Object.fromEntries(keys.filter((k) => k in s).map((k) => [k, s[k]]));
    const base = pick([
      "net_worth", "market_value", "cash_total", "total_invested", "total_gain_loss", "total_gain_loss_percent",
      "twrr_percent", "mwrr_annualized_percent", "mwrr_cumulative_percent", "simple_roi_percent",
      "period_nav_start", "period_net_flows", "period_pnl",
    ]);
    const standard = query.detailLevel === "compact" ? {} : pick([
      "unrealized_gain_loss", "realized_gain_loss", "period_realized_gain_loss", "period_income", "period_fees", "period_taxes",
      "period_unrealized_gain_loss_delta", "total_deposited", "total_withdrawn", "cash_balances",
    ]);
    const full = query.detailLevel !== "full" ? {} : pick([
      "open_cost_basis", "book_value", "in_transit_market_value", "total_income", "total_fees", "total_taxes",
      "period_other_result", "mwrr_period_days",
    ]);
    return { as_of: query.period.to, holdings_count: (s.holdings ?? []).length, ...base, ...standard, ...full };
  }

  private async holdingRows(query: AiExportQuery) {
    const code = query.targetCurrency;
    const rows = ((await this.report(query)).summary?.holdings ?? []) as Record<string, any>[];
    const mine = rows.filter((h) => query.assetId === undefined || h.asset_id === query.assetId);
    const out = mine.map((h) => ({
      asset: h.asset_name, ticker: h.asset_ticker ?? null, type: h.asset_type ?? null, broker: h.broker_name ?? null,
      quantity: h.quantity, price: money(code, h.current_price), value: money(code, h.current_value),
      cost_basis: money(code, h.open_cost_basis), gain_loss: money(code, h.gain_loss), gain_loss_percent: h.gain_loss_percent ?? null,
      weight_percent: h.allocation_percent ?? null,
      ...(query.detailLevel === "full" ? {
        wac_per_unit: money(code, h.wac_per_unit), annualized_return: h.annualized_return ?? null, valuation_source: h.valuation_source,
        valuation_reference_date: h.valuation_reference_date ?? null, oldest_open_lot_date: h.oldest_open_lot_date ?? null,
      } : {}),
    }));
    if (query.detailLevel !== "compact" || out.length <= COMPACT_HOLDINGS) return out;
    const byValue = [...out].sort((a, b) => new Decimal(b.value?.amount ?? 0).comparedTo(a.value?.amount ?? 0));
    const rest = byValue.slice(COMPACT_HOLDINGS);
    const sum = (f: (r: (typeof out)[number]) => string | null | undefined) => rest.reduce((s, r) => s.plus(f(r) ?? 0), new Decimal(0)).toFixed();
    return [...byValue.slice(0, COMPACT_HOLDINGS), {
      asset: `others (${rest.length})`, ticker: null, type: null, broker: null, quantity: null, price: null,
      value: money(code, sum((r) => r.value?.amount)), cost_basis: null, gain_loss: money(code, sum((r) => r.gain_loss?.amount)),
      gain_loss_percent: null, weight_percent: sum((r) => r.weight_percent),
    }];
  }

  private async history(query: AiExportQuery) {
    const points = ((await this.report(query)).history ?? []) as Record<string, any>[];
    return sampleSeries(points as { date: string }[], query.detailLevel).map((p: Record<string, any>) => ({
      date: p.date, nav: p.nav_value, market_value: p.market_value, cash: p.cash_value, total_pnl: p.total_pnl,
      twrr: p.twrr ?? null, mwrr_cumulative: p.mwrr_cumulative ?? null,
      ...(query.detailLevel === "full" ? { capital_baseline: p.capital_baseline, unrealized_gain_loss: p.unrealized_gain_loss ?? null, roi: p.roi ?? null } : {}),
    }));
  }

  private async allocation(query: AiExportQuery) {
    const s = (await this.report(query)).summary ?? {};
    const rows = (list: { name: string; value: string; amount: string }[] | undefined) =>
      (list ?? []).map((r) => ({ name: r.name, percent: r.value, value: money(query.targetCurrency, r.amount) }));
    return { by_type: rows(s.allocation_by_type), by_sector: rows(s.allocation_by_sector), by_geography: rows(s.allocation_by_geography) };
  }

  private async dataQuality(query: AiExportQuery) {
    const dq = (await this.report(query)).data_quality ?? {};
    return {
      status: dq.data_quality_status ?? null,
      issues: ((dq.issues ?? []) as Record<string, any>[]).map((i) => ({
        code: i.code, severity: i.severity, count: i.count ?? null, assets: i.affected_asset_names ?? [], fx_pairs: i.affected_fx_pairs ?? [],
      })),
    };
  }

  private async fxExposure(query: AiExportQuery) {
    const s = (await this.report(query)).summary ?? {};
    const code = query.targetCurrency;
    const byCurrency = new Map<string, { assets: Decimal; cash: Decimal }>();
    const slot = (c: string) => byCurrency.get(c) ?? byCurrency.set(c, { assets: new Decimal(0), cash: new Decimal(0) }).get(c)!;
    for (const h of (s.holdings ?? []) as Record<string, any>[]) {
      if (h.current_value === null || h.current_value === undefined) continue;
      const entry = slot(h.valuation_effective_currency ?? code);
      entry.assets = entry.assets.plus(h.current_value);
    }
    const cash = (s.cash_balances ?? []) as { code: string; amount: string }[];
    for (const c of cash) slot(c.code);
    const total = new Decimal(s.net_worth?.amount ?? 0);
    const rows = [...byCurrency.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, v]) => {
      const cashHere = cash.find((c) => c.code === currency);
      return {
        currency,
        asset_value: money(code, v.assets.toFixed()),
        cash: cashHere ? { code: currency, amount: cashHere.amount } : null,
        asset_share_percent: total.isZero() ? null : v.assets.div(total).times(100).toDecimalPlaces(4).toFixed(),
      };
    });
    const pair = query.pair;
    return {
      target_currency: code,
      currencies: rows,
      ...(pair ? { pair: `${pair.base}/${pair.quote}`, direct_exposure: rows.some((r) => (r.currency === pair.base || r.currency === pair.quote) && r.currency !== code && (!new Decimal(r.asset_value?.amount ?? 0).isZero() || r.cash !== null)) } : {}),
    };
  }

  private async assetIds(query: AiExportQuery): Promise<number[]> {
    if (query.assetId !== undefined) return [query.assetId];
    const rows = ((await this.report(query)).summary?.holdings ?? []) as { asset_id: number }[];
    return [...new Set(rows.map((r) => r.asset_id))].sort((a, b) => a - b);
  }

  private async marketHistory(query: AiExportQuery) {
    const ids = await this.assetIds(query);
    if (ids.length === 0) return [];
    const assets = new Map((await this.db.reads.findBy(Asset, { id: In(ids) })).map((a) => [a.id, a]));
    const results = await this.container.resolve(PriceService).query(ids.map((assetId) => ({
      assetId, events: false, prices: true, range: { start: query.period.from, end: query.period.to },
    })));
    return results.filter((r) => assets.has(r.assetId)).map((r) => {
      const asset = assets.get(r.assetId)!;
      const first = r.prices[0]?.close ?? "0";
      return {
        asset: asset.name, ticker: asset.identifierTicker ?? null, currency: asset.currency,
        prices: sampleSeries(r.prices, query.detailLevel).map((p) => ({
          date: p.date, close: { code: p.currency ?? asset.currency, amount: p.close }, change_percent: changePercent(first, p.close),
        })),
      };
    });
  }

  private async fxHistory(query: AiExportQuery) {
    if (!query.pair) return null;
    const { base, quote } = query.pair;
    let results: { conversionDate: string; rate: string }[] = [];
    try {
      results = (await this.container.resolve(FxConvertService).convert([{ amount: "1", from: base, to: quote, start: query.period.from, end: query.period.to }], this.userId)).results;
    } catch {
      results = []; // no rate at all for the pair in the period
    }
    const points = results.map((r) => ({ date: r.conversionDate, rate: r.rate }));
    const first = points[0]?.rate ?? "0";
    return {
      pair: `${base}/${quote}`,
      rates: sampleSeries(points, query.detailLevel).map((p) => ({ ...p, change_percent: changePercent(first, p.rate) })),
    };
  }

  private async lots(query: AiExportQuery, assetId: number) {
    const code = query.targetCurrency;
    const result = await this.engine.lots(this.userId, {
      analyses: ["LOT_SUMMARY"], assetId, brokerIds: [...query.brokerIds], start: query.period.from, end: query.period.to, targetCurrency: code,
    }) as unknown as Record<string, any>;
    const lots = ((result.lots ?? []) as Record<string, any>[]).filter((l) => query.detailLevel === "full" || l.closing_date === null || l.closing_date === undefined);
    return {
      status: result.calculation_status,
      lots: lots.map((l) => ({
        direction: l.direction, opening_date: l.opening_date, closing_date: l.closing_date ?? null,
        original_quantity: l.original_quantity, open_quantity: l.open_quantity,
        opening_unit_price: money(code, l.opening_unit_price), original_cost: money(code, l.original_cost),
        open_value: money(code, l.open_value), realized_pnl: money(code, l.realized_pnl), pnl: money(code, l.pnl),
        relative_return: l.relative_return ?? null, total_return: l.total_return ?? null,
      })),
    };
  }

  private async portfolioLots(query: AiExportQuery) {
    const rows = ((await this.report(query)).summary?.holdings ?? []) as { asset_id: number; asset_name: string }[];
    const names = new Map(rows.map((r) => [r.asset_id, r.asset_name]));
    const out: unknown[] = [];
    for (const [assetId, name] of [...names.entries()].sort(([a], [b]) => a - b)) {
      out.push({ asset: name, ...(await this.lots(query, assetId)) });
    }
    return out;
  }
}
