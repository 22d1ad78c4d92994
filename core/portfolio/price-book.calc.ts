/**
 * The valuation price of an asset on a day (SPEC data-quality rule 1): the latest observation on
 * or before the day, a quote (`MARKET_PRICE`) or a trade price (`LAST_TRADE_PRICE`); on one day
 * a quote wins; nothing gives `MISSING` (null here).
 */
import { indexOnOrBefore } from "../fx/convert.calc.ts";
import { Decimal } from "../money/decimal.ts";
import type { AssetInfo, LedgerTx, QuoteSeries, SplitEvent } from "./report-input.ts";

export type ValuationSource = "MARKET_PRICE" | "LAST_TRADE_PRICE" | "MISSING";

export interface Observation {
  /** Per-unit price used for the day (split-adjusted for an older trade price). */
  price: Decimal;
  currency: string;
  /** Date of the observation. */
  date: string;
  source: "MARKET_PRICE" | "LAST_TRADE_PRICE";
  /** The observation's own per-unit price before split adjustment. */
  referencePrice: Decimal;
  splitAdjusted: boolean;
}

interface TradeDay {
  date: string;
  price: Decimal;
  currency: string;
}

interface AssetBook {
  quoteDates: string[];
  quoteCloses: string[];
  quotePrices: (Decimal | undefined)[];
  quoteBase: Decimal;
  currency: string;
  trades: TradeDay[];
  tradeDates: string[];
  splits: { date: string; ratio: Decimal }[];
}

/**
 * Trade prices: each BUY or SELL's `|cash| / |quantity|` in its currency, and the per-unit
 * override of each non-split ADJUSTMENT when set and non-zero. Same-day trades are averaged
 * (arithmetic mean) within the currency of the day's last trade.
 */
function tradeDays(txs: readonly LedgerTx[], asset: AssetInfo): TradeDay[] {
  const byDate = new Map<string, { currency: string; prices: Decimal[] }>();
  for (const t of txs) {
    let price: Decimal | null = null;
    let currency = asset.currency;
    const q = new Decimal(t.quantity);
    if ((t.type === "BUY" || t.type === "SELL") && t.amount !== null && t.currency !== null && !q.isZero()) {
      price = new Decimal(t.amount).abs().div(q.abs());
      currency = t.currency;
    } else if (t.type === "ADJUSTMENT" && !t.splitLinked && t.costBasisOverride !== null && !new Decimal(t.costBasisOverride).isZero()) {
      price = new Decimal(t.costBasisOverride);
      currency = t.costBasisCurrency ?? asset.currency;
    }
    if (price === null) continue;
    const day = byDate.get(t.date);
    if (!day || day.currency !== currency) byDate.set(t.date, { currency, prices: [price] });
    else day.prices.push(price);
  }
  return [...byDate.entries()]
    .map(([date, d]) => ({ date, currency: d.currency, price: d.prices.reduce((s, p) => s.plus(p), new Decimal(0)).div(d.prices.length) }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

export class PriceBook {
  private readonly books = new Map<number, AssetBook>();

  constructor(assets: readonly AssetInfo[], quotes: Record<number, QuoteSeries>, splits: readonly SplitEvent[], txs: readonly LedgerTx[]) {
    const txsByAsset = new Map<number, LedgerTx[]>();
    for (const t of txs) if (t.assetId !== null) (txsByAsset.get(t.assetId) ?? txsByAsset.set(t.assetId, []).get(t.assetId)!).push(t);
    for (const a of assets) {
      const q = quotes[a.id] ?? { dates: [], closes: [] };
      const trades = tradeDays(txsByAsset.get(a.id) ?? [], a);
      this.books.set(a.id, {
        quoteDates: q.dates, quoteCloses: q.closes, quotePrices: new Array(q.dates.length), quoteBase: new Decimal(a.quoteBaseQuantity),
        currency: a.currency, trades, tradeDates: trades.map((t) => t.date),
        splits: splits.filter((s) => s.assetId === a.id).map((s) => ({ date: s.date, ratio: new Decimal(s.ratio) })),
      });
    }
  }

  /** The observation valuing `assetId` on `day`, or null when there is none (source MISSING). */
  at(assetId: number, day: string): Observation | null {
    const b = this.books.get(assetId);
    if (!b) return null;
    const qi = indexOnOrBefore(b.quoteDates, day);
    const ti = indexOnOrBefore(b.tradeDates, day);
    if (qi >= 0 && (ti < 0 || b.quoteDates[qi]! >= b.tradeDates[ti]!)) {
      let price = b.quotePrices[qi];
      if (price === undefined) {
        price = new Decimal(b.quoteCloses[qi]!);
        if (!b.quoteBase.eq(1)) price = price.div(b.quoteBase);
        b.quotePrices[qi] = price;
      }
      return { price, referencePrice: price, currency: b.currency, date: b.quoteDates[qi]!, source: "MARKET_PRICE", splitAdjusted: false };
    }
    if (ti < 0) return null;
    const trade = b.trades[ti]!;
    let factor: Decimal | null = null;
    for (const s of b.splits) {
      if (s.date > trade.date && s.date <= day && s.ratio.gt(0)) factor = (factor ?? new Decimal(1)).times(s.ratio);
    }
    return {
      price: factor ? trade.price.div(factor) : trade.price, referencePrice: trade.price, currency: trade.currency,
      date: trade.date, source: "LAST_TRADE_PRICE", splitAdjusted: factor !== null,
    };
  }
}
