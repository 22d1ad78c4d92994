/**
 * Exact scaled-integer sums for the daily valuation's hot loop (docs/decisions.md, issue 18).
 * For every asset valued on a day by a quote with a quote base of 1, `quantity × close` is summed
 * per currency as BigInt at a fixed scale (the most decimals any share-weighted quantity and any
 * close of that currency can have), so the sum is exact; it becomes a Decimal once per currency
 * per day and is converted like before. Other observations (trade prices, quote bases other than
 * 1, quantities beyond the scale) keep the Decimal path.
 */
import { Decimal } from "../money/decimal.ts";
import { scaledToText } from "../money/scaled-text.ts";
import type { PriceBook } from "./price-book.calc.ts";
import type { ReportInput } from "./report-input.ts";

const decimalsOf = (s: string): number => {
  const dot = s.indexOf(".");
  if (dot < 0) return 0;
  let end = s.length;
  while (end > dot + 1 && s.charCodeAt(end - 1) === 48) end--;
  return end - dot - 1;
};

/** `s` (a plain decimal string with at most `scale` decimals) × 10^scale as a BigInt. */
function toScaled(s: string, scale: number): bigint {
  const dot = s.indexOf(".");
  if (dot < 0) return BigInt(s + "0".repeat(scale));
  const frac = s.slice(dot + 1);
  return BigInt(s.slice(0, dot) + frac.slice(0, scale) + "0".repeat(Math.max(0, scale - frac.length)));
}

/** A BigInt at `scale` as a Decimal (exact). */
function fromScaled(n: bigint, scale: number): Decimal {
  return new Decimal(scaledToText(n, scale));
}

interface AssetColumn {
  currency: string;
  closes: readonly string[];
  /** Closes parsed on first use, at the currency's price scale. */
  scaled: (bigint | undefined)[];
  /** Share-weighted quantity at the quantity scale; null when it has more decimals. */
  quantity: bigint | null;
}

interface CurrencySum {
  total: bigint;
  assets: number[];
}

export class ScaledValuation {
  private readonly sumsByCurrency = new Map<string, CurrencySum>();
  private date = "";

  private constructor(
    private readonly prices: PriceBook,
    private readonly columns: Map<number, AssetColumn>,
    private readonly quantityScale: number,
    private readonly priceScale: Map<string, number>,
  ) {}

  /** Null when no asset qualifies. */
  static create(input: ReportInput, prices: PriceBook): ScaledValuation | null {
    const scaleDecimals = new Map(input.brokers.map((b) => [b.id, decimalsOf(b.scale)]));
    let quantityScale = 0;
    for (const t of input.transactions) {
      if (t.assetId === null) continue;
      const d = decimalsOf(t.quantity) + (scaleDecimals.get(t.brokerId) ?? 0);
      if (d > quantityScale) quantityScale = d;
    }
    const columns = new Map<number, AssetColumn>();
    const priceScale = new Map<string, number>();
    for (const a of input.assets) {
      const q = input.quotes[a.id];
      if (!q || q.closes.length === 0 || !new Decimal(a.quoteBaseQuantity).eq(1)) continue;
      let ps = priceScale.get(a.currency) ?? 0;
      for (const c of q.closes) { const d = decimalsOf(c); if (d > ps) ps = d; }
      priceScale.set(a.currency, ps);
      columns.set(a.id, { currency: a.currency, closes: q.closes, scaled: new Array(q.closes.length), quantity: 0n });
    }
    return columns.size === 0 ? null : new ScaledValuation(prices, columns, quantityScale, priceScale);
  }

  /** Called whenever an asset's share-weighted quantity changes. */
  setQuantity(assetId: number, qty: Decimal): void {
    const col = this.columns.get(assetId);
    if (!col) return;
    col.quantity = qty.decimalPlaces() <= this.quantityScale ? toScaled(qty.toFixed(), this.quantityScale) : null;
  }

  /** Starts the valuation of a day. */
  begin(date: string): this {
    this.date = date;
    for (const s of this.sumsByCurrency.values()) { s.total = 0n; s.assets.length = 0; }
    return this;
  }

  /** Adds the asset when a quote values it on the day; false leaves it to the Decimal path. */
  addIfQuoted(assetId: number): boolean {
    const col = this.columns.get(assetId);
    if (!col || col.quantity === null) return false;
    const qi = this.prices.quoteIndexAt(assetId, this.date);
    if (qi < 0) return false;
    let close = col.scaled[qi];
    if (close === undefined) close = col.scaled[qi] = toScaled(col.closes[qi]!, this.priceScale.get(col.currency)!);
    let sum = this.sumsByCurrency.get(col.currency);
    if (!sum) this.sumsByCurrency.set(col.currency, sum = { total: 0n, assets: [] });
    sum.total += col.quantity * close;
    sum.assets.push(assetId);
    return true;
  }

  /** The day's exact local sums by currency (currencies with at least one asset). */
  *sums(): Generator<[string, { value: Decimal; assets: number[] }]> {
    for (const [currency, s] of this.sumsByCurrency) {
      if (s.assets.length === 0) continue;
      yield [currency, { value: fromScaled(s.total, this.quantityScale + this.priceScale.get(currency)!), assets: s.assets }];
    }
  }
}
