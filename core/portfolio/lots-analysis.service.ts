import { today } from "../dates/calendar.ts";
import { inject, injectable } from "tsyringe";
import { In, LessThanOrEqual } from "typeorm";
import { Asset } from "../assets/asset.entity.ts";
import { BrokerAccess } from "../brokers/broker-access.entity.ts";
import { brokerNotFound } from "../brokers/broker-access.service.ts";
import { aggregationScale } from "../brokers/share-scale.ts";
import { CacheRegistry } from "../cache/cache-registry.ts";
import { Database } from "../db/database.ts";
import { NotFoundError, ValidationError } from "../errors/domain-error.ts";
import { AssetEvent } from "../events/asset-event.entity.ts";
import { managerReader } from "../db/sql-reader.ts";
import { pairChains, type RateRow, rateSeriesLoader } from "../fx/fx-convert.ts";
import { FxRoute } from "../fx/fx-route.entity.ts";
import { normalisePair } from "../fx/pair.ts";
import { MANUAL_PROVIDER, PRIVATE_PROVIDER } from "../fx/route-search.calc.ts";
import { PriceHistory } from "../prices/price-history.entity.ts";
import { UserSettingsService } from "../settings/user-settings.service.ts";
import { Transaction } from "../transactions/transaction.entity.ts";
import type { LotAnalysisType, LotFxLeg, LotFxSource, LotsInput, LotsResult } from "./lots-types.ts";

export interface LotsAnalysisRequest {
  analyses: LotAnalysisType[];
  assetId: number;
  brokerIds?: number[];
  end?: string | null;
  force?: boolean;
  selectedLotIds?: number[] | null;
  start?: string | null;
  targetCurrency?: string | null;
}

/** Runs the pure engine (in the host's worker pool); core never imports the pool. */
export type LotsRunner = (input: LotsInput) => Promise<LotsResult>;


/**
 * `POST /portfolio/lots/analysis` on the request side (docs/portfolio-lots.md): scope and
 * period resolution, loading the small inputs, the `portfolio_layer2` cache.
 */
@injectable()
export class LotsAnalysisService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(UserSettingsService) private readonly settings: UserSettingsService,
    @inject(CacheRegistry) private readonly caches: CacheRegistry,
  ) {}

  async analyse(userId: number, req: LotsAnalysisRequest, run: LotsRunner): Promise<LotsResult> {
    const scope = await this.resolve(userId, req);
    const { asset, brokers, target, requestedStart, end } = scope;
    const cacheKey = JSON.stringify({ userId, brokers, asset: asset.id, target, requestedStart, end, sel: req.selectedLotIds ?? null, a: req.analyses });
    await this.caches.sync();
    const generation = this.caches.generation("portfolio_layer2");
    const cache = this.caches.get<LotsResult>("portfolio_layer2");
    if (!req.force) {
      const hit = cache.get(cacheKey);
      if (hit) return hit;
    }
    const result = await run(await this.load(userId, req, scope));
    // A write that cleared the cache meanwhile may not be reflected: serve it, do not keep it.
    if (this.caches.generation("portfolio_layer2") === generation) cache.set(cacheKey, result);
    return result;
  }

  /** The engine's input for the request, without the cache. */
  async input(userId: number, req: LotsAnalysisRequest): Promise<LotsInput> {
    return this.load(userId, req, await this.resolve(userId, req));
  }

  /**
   * The engine's inputs of several assets over one scope, without the cache (the realised-gains
   * report runs its own pass over them). The FX sources are read once per currency and shared by
   * every asset's input (the same objects), so the years of daily rates are neither read nor
   * copied into the worker once per asset.
   */
  async inputs(userId: number, assetIds: readonly number[], req: Omit<LotsAnalysisRequest, "assetId">): Promise<LotsInput[]> {
    const fx = new Map<string, Promise<LotFxSource>>();
    const out: LotsInput[] = [];
    for (const assetId of assetIds) {
      const one = { ...req, assetId };
      out.push(await this.load(userId, one, await this.resolve(userId, one), fx));
    }
    return out;
  }

  /** Asset, scope with scales, target currency and period; 404 for an unknown asset or a broker without access. */
  private async resolve(userId: number, req: LotsAnalysisRequest) {
    const reads = this.db.reads;
    const asset = await reads.findOneBy(Asset, { id: req.assetId });
    if (!asset) throw new NotFoundError("ASSET_NOT_FOUND", `Asset ${req.assetId} not found`, { asset_id: req.assetId });
    const rows = await reads.findBy(BrokerAccess, { userId });
    const byBroker = new Map(rows.map((r) => [r.brokerId, r]));
    const ids = req.brokerIds ? [...new Set(req.brokerIds)] : rows.map((r) => r.brokerId);
    for (const id of ids) if (!byBroker.has(id)) throw brokerNotFound(id);
    ids.sort((a, b) => a - b);
    const brokers = ids.map((id) => ({ id, scale: aggregationScale(byBroker.get(id)!).toString() }));
    const target = req.targetCurrency ?? await this.settings.effectiveBaseCurrency(userId);

    const requestedStart = req.start && req.start !== "min" ? req.start : null;
    const requestedEnd = req.end && req.end !== "max" ? req.end : null;
    const end = requestedEnd ?? today();
    if (requestedStart && requestedStart > end) {
      throw new ValidationError([{ loc: ["body", "date_range", "end"], msg: "end must not be before start", type: "date_range" }]);
    }
    return { asset, ids, brokers, target, requestedStart, requestedEnd, end };
  }

  private async load(userId: number, req: LotsAnalysisRequest, scope: Awaited<ReturnType<LotsAnalysisService["resolve"]>>,
    fxShared?: Map<string, Promise<LotFxSource>>): Promise<LotsInput> {
    const reads = this.db.reads;
    const { asset, ids, brokers, target, requestedStart, requestedEnd, end } = scope;
    const txs = ids.length === 0 ? [] : await reads.find(Transaction, {
      where: { assetId: asset.id, brokerId: In(ids), date: LessThanOrEqual(end) }, order: { date: "ASC", id: "ASC" },
    });
    const start = requestedStart ?? txs[0]?.date ?? end;
    const splits = await reads.find(AssetEvent, { select: { id: true }, where: { assetId: asset.id, type: "SPLIT" } });
    const prices = await reads.find(PriceHistory, { select: { date: true, close: true }, where: { assetId: asset.id, date: LessThanOrEqual(end) }, order: { date: "ASC" } });
    const currencies = new Set<string>([asset.currency]);
    for (const t of txs) {
      if (t.currency) currencies.add(t.currency);
      if (t.costBasisOverride !== null) currencies.add(t.costBasisCurrency ?? asset.currency);
    }
    currencies.delete(target);
    const fx: LotFxSource[] = [];
    for (const from of [...currencies].sort()) {
      if (!fxShared) {
        fx.push(await this.fxSource(from, target, end, userId));
        continue;
      }
      let source = fxShared.get(from);
      if (!source) fxShared.set(from, source = this.fxSource(from, target, end, userId));
      fx.push(await source);
    }

    return {
      analyses: req.analyses,
      asset: { currency: asset.currency, id: asset.id, name: asset.name, quoteBaseQuantity: asset.quoteBaseQuantity },
      brokers, fx, generatedAt: new Date().toISOString(),
      period: { end, requestedEnd, requestedStart, start: start > end ? end : start },
      prices: prices.map((p) => ({ close: p.close, date: p.date })),
      selectedLotIds: req.selectedLotIds ?? null,
      splitEventIds: splits.map((s) => s.id),
      targetCurrency: target,
      transactions: txs.map((t) => ({
        amount: t.amount, assetEventId: t.assetEventId, brokerId: t.brokerId, costBasisCurrency: t.costBasisCurrency,
        costBasisOverride: t.costBasisOverride, currency: t.currency, date: t.date, id: t.id, quantity: t.quantity,
        relatedTransactionId: t.relatedTransactionId, type: t.type,
      })),
    };
  }

  /**
   * The pair's routes by priority (each leg's stored series up to `end`), or its manual rates when
   * it has none, then `userId`'s private rates of the pair (docs/fx.md "Private manual rates").
   */
  private async fxSource(from: string, to: string, end: string, userId: number): Promise<LotFxSource> {
    const pair = normalisePair(from, to);
    if (!pair) return { configured: false, from, hasProviderRoute: false, routes: [] };
    const stored = await this.db.reads.count(FxRoute, { where: { base: pair.base, quote: pair.quote } });
    const reader = managerReader(this.db.reads);
    const chains = (await pairChains(reader, from, to, userId)) ?? [];
    const hasProviderRoute = chains.some((c) => c.some((s) => s.provider !== MANUAL_PROVIDER && s.provider !== PRIVATE_PROVIDER));
    const load = rateSeriesLoader(reader, (rows: RateRow[]) => rows, userId);
    const routes: LotFxLeg[][] = [];
    let anyRate = false;
    for (const chain of chains) {
      const legs: LotFxLeg[] = [];
      for (const step of chain) {
        const rows = await load(step, end);
        anyRate ||= rows.length > 0;
        legs.push({ dates: rows.map((r) => r.date), from: step.from, rates: rows.map((r) => r.rate), to: step.to });
      }
      routes.push(legs);
    }
    return { configured: stored > 0 || anyRate, from, hasProviderRoute, routes };
  }
}
