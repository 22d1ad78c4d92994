import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import {
  CurrencyCodeSchema, DecimalStringSchema, type IsoDate, IsoDateSchema, isPluginError, type Quote, toIsoDate,
} from "../../sdk/index.ts";
import { CacheRegistry } from "../cache/cache-registry.ts";
import { declareChange } from "../db/data-changes.ts";
import { Database } from "../db/database.ts";
import { Decimal } from "../money/decimal.ts";
import { ConcurrencyLimiter, withTimeout } from "./concurrency.ts";
import {
  loadPricedAssets, MARKET_DATA_PROVIDERS, type MarketDataProviders, type PricedAsset, type UsableProvider, usableProvider,
} from "./market-data-providers.ts";
import { latestCloses, type PriceRowWrite, writePriceRows } from "./price-rows.ts";
import { type DayPrices, mergeTodayRow, sameDayPrices } from "./today-row.calc.ts";

/** Current-price calls: 5 at a time, 10 s each (the time limit is per provider, see the port). */
export const CURRENT_PRICE_CONCURRENCY = 5;
export const DEFAULT_CURRENT_PRICE_TIMEOUT_MS = 10_000;

/** One item of `FACurrentPriceResponse.results`. */
export interface CurrentPriceItem {
  asOfDate: string | null;
  assetId: number;
  currency: string | null;
  error: string | null;
  source: string | null;
  value: string | null;
}

/** A provider's answer for one asset; `fresh` when fetched by this call rather than read from the cache. */
interface Answer {
  code: string;
  fresh: boolean;
  quote: Quote;
}

/** A provider call the SDK's HTTP client refused (an internal destination): the item's `error`. */
interface Refusal {
  refused: string;
}

const isRefusal = (value: unknown): value is Refusal => typeof value === "object" && value !== null && "refused" in value;

const QuoteSchema = { currency: CurrencyCodeSchema, date: IsoDateSchema, price: DecimalStringSchema };

/** A quote a plugin returned, checked: plain decimal price above zero, a real date, a currency code. */
function checkedQuote(value: unknown): Quote | null {
  const q = value as Partial<Record<keyof Quote, unknown>> | null;
  if (!q || typeof q !== "object") return null;
  const currency = QuoteSchema.currency.safeParse(q.currency);
  const date = QuoteSchema.date.safeParse(q.date);
  const price = QuoteSchema.price.safeParse(q.price);
  if (!currency.success || !date.success || !price.success || !new Decimal(price.data).greaterThan(0)) return null;
  return { currency: currency.data, date: date.data, price: price.data };
}

/** `POST /assets/prices/current`: each asset's provider value, else its latest stored close. */
@injectable()
export class CurrentPriceService {
  /** Process-wide: at most 5 provider calls in flight whatever the number of concurrent requests. */
  private readonly limiter = new ConcurrencyLimiter(CURRENT_PRICE_CONCURRENCY);
  /** Calls under way, by cache key, so two askers of one instrument share one upstream call. */
  private readonly pending = new Map<string, Promise<Quote | Refusal | null>>();

  constructor(
    @inject(Database) private readonly db: Database,
    @inject(CacheRegistry) private readonly caches: CacheRegistry,
    @inject(MARKET_DATA_PROVIDERS) private readonly providers: MarketDataProviders,
  ) {}

  /**
   * One result per requested id in request order, a repeated id answered each time, so a client
   * can zip answers with its request. All assets are priced in parallel; without a provider
   * answer, the latest stored close; else `No price data available`, or `Asset not found` for an
   * unknown id. Fresh quotes dated today are written into today's row.
   */
  async current(ids: readonly number[], today: IsoDate = toIsoDate(new Date())): Promise<CurrentPriceItem[]> {
    const assets = await loadPricedAssets(this.db.reads, ids);
    const answers = new Map<number, Answer>();
    const refusals = new Map<number, string>();
    await Promise.all([...assets.values()].map(async (asset) => {
      const answer = await this.ask(asset, today);
      if (isRefusal(answer)) refusals.set(asset.id, answer.refused);
      else if (answer) answers.set(asset.id, answer);
    }));
    await this.writeToday(assets, answers, today);
    const unanswered = [...assets.keys()].filter((id) => !answers.has(id));
    const closes = unanswered.length ? await latestCloses(this.db.reads, unanswered) : new Map();
    return ids.map((assetId): CurrentPriceItem => {
      if (!assets.has(assetId)) return { assetId, value: null, currency: null, asOfDate: null, source: null, error: "Asset not found" };
      const answer = answers.get(assetId);
      if (answer) {
        const { quote } = answer;
        return { assetId, value: quote.price, currency: quote.currency, asOfDate: quote.date, source: `provider:${answer.code}`, error: null };
      }
      const last = closes.get(assetId);
      const refused = refusals.get(assetId);
      if (last) return { assetId, value: last.close, currency: last.currency, asOfDate: last.date, source: "db:last_known", error: refused ?? null };
      return { assetId, value: null, currency: null, asOfDate: null, source: null, error: refused ?? "No price data available" };
    });
  }

  /**
   * The provider's answer (cached for 2 minutes), a refused destination, or null: no usable
   * provider, a failure or a timeout.
   */
  private async ask(asset: PricedAsset, today: IsoDate): Promise<Answer | Refusal | null> {
    if (!asset.assignment) return null;
    const provider = usableProvider(this.providers, asset.assignment);
    if ("error" in provider) return null;
    const cache = this.caches.get<Quote>("asset_current_fetch");
    const key = JSON.stringify([provider.code, asset.assignment.identifier, asset.assignment.params, provider.kind === "scheduled" ? asset.currency : null]);
    const cached = cache.get(key);
    if (cached) return { code: provider.code, fresh: false, quote: cached };
    let call = this.pending.get(key);
    if (!call) {
      call = this.fetch(provider, asset, today).finally(() => this.pending.delete(key));
      this.pending.set(key, call);
    }
    const quote = await call;
    if (!quote || isRefusal(quote)) return quote;
    cache.set(key, quote);
    return { code: provider.code, fresh: true, quote };
  }

  private async fetch(provider: UsableProvider, asset: PricedAsset, today: IsoDate): Promise<Quote | Refusal | null> {
    const identifier = asset.assignment!.identifier;
    try {
      if (provider.kind === "scheduled") {
        const [point] = provider.provider.generatePrices({ params: provider.params, range: { from: today, to: today } });
        return point ? checkedQuote({ currency: asset.currency, date: point.date, price: point.value }) : null;
      }
      const providerParams = provider.params === undefined ? undefined : { [identifier]: provider.params };
      const outcomes = await this.limiter.run(() => withTimeout(this.providers.timeoutMs(provider.code),
        (signal) => provider.provider.getQuotes({ identifiers: [identifier], providerParams, signal })));
      const outcome = outcomes[0];
      if (outcome && !outcome.ok && outcome.error.reason === "blocked") return { refused: `Provider request refused: ${outcome.error.message}` };
      return outcome?.ok ? checkedQuote(outcome.value) : null;
    } catch (error) {
      if (isPluginError(error) && error.reason === "blocked") return { refused: `Provider request refused: ${error.message}` };
      return null; // a thrown failure or a timeout falls back to the latest stored close, like a failed outcome
    }
  }

  /** Fresh quotes dated today, in the asset's currency, create or extend today's row (a quote in another currency is not a price of this asset). */
  private async writeToday(assets: Map<number, PricedAsset>, answers: Map<number, Answer>, today: string): Promise<void> {
    const due = [...answers.entries()].filter(([id, a]) => a.fresh && a.quote.date === today && a.quote.currency === assets.get(id)!.currency);
    if (due.length === 0) return;
    await this.db.write(async (tx) => {
      const stored = await todayRows(tx, due.map(([id]) => id), today);
      const writes: PriceRowWrite[] = [];
      for (const [assetId, answer] of due) {
        const before = stored.get(assetId) ?? null;
        const after = mergeTodayRow(before, answer.quote.price);
        if (before && sameDayPrices(before, after)) continue;
        writes.push({
          ...after, assetId, date: today, currency: answer.quote.currency, source: answer.code,
          assignmentId: assets.get(assetId)!.assignment!.id,
        });
      }
      await writePriceRows(tx, writes);
      if (writes.length > 0) declareChange(tx, { kind: "prices", ids: writes.map((w) => w.assetId), from: today });
    });
  }
}

async function todayRows(tx: EntityManager, assetIds: number[], today: string): Promise<Map<number, DayPrices>> {
  const out = new Map<number, DayPrices>();
  for (let i = 0; i < assetIds.length; i += 500) {
    const chunk = assetIds.slice(i, i + 500);
    const rows: (DayPrices & { asset_id: number })[] = await tx.query(
      `SELECT "asset_id", "open", "high", "low", "close" FROM "price_history"
       WHERE "date" = ? AND "asset_id" IN (${chunk.map(() => "?").join(",")})`, [today, ...chunk]);
    for (const r of rows) out.set(r.asset_id, { open: r.open, high: r.high, low: r.low, close: r.close });
  }
  return out;
}
