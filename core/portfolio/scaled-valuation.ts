/**
 * Exact scaled-integer sums for the daily valuation's hot loop (docs/decisions.md, "Exact scaled-integer sums").
 * For every asset valued on a day by a quote with a quote base of 1, `quantity × close` is summed
 * per currency as an integer at a fixed scale (the most decimals any share-weighted quantity and
 * any close of that currency can have), so the sum is exact; it becomes a Decimal once per currency
 * per day and is converted like before. Other observations (trade prices, quote bases other than
 * 1, quantities beyond the scale) keep the Decimal path.
 *
 * The integers are plain numbers while they are safe (|x| ≤ 2^53 − 1: every product and partial
 * sum of safe integers below that bound is exact, and one that would pass it is caught because
 * rounding never brings it back under the bound) and BigInt beyond: no allocation per asset and
 * day on usual data (dense 20k: 1.8 million BigInts per report less), and the parsed closes sit in
 * one Float64Array per asset instead of one BigInt each.
 */
import { Decimal } from "../money/decimal.ts";
import { scaledToText } from "../money/scaled-text.ts";
import { type DayColumn, valueText } from "./day-columns.ts";
import type { PriceBook } from "./price-book.calc.ts";
import { type ReportInput, seriesColumns, txTable } from "./report-input.ts";
import type { DecimalColumn } from "./tx-columns.ts";

const decimalsOf = (s: string): number => {
  const dot = s.indexOf(".");
  if (dot < 0) return 0;
  let end = s.length;
  while (end > dot + 1 && s.charCodeAt(end - 1) === 48) end--;
  return end - dot - 1;
};

/** The digits of `s` (a plain decimal string with at most `scale` decimals) × 10^scale, as text. */
function scaledDigits(s: string, scale: number): string {
  const dot = s.indexOf(".");
  if (dot < 0) return s + "0".repeat(scale);
  const frac = s.slice(dot + 1);
  return s.slice(0, dot) + frac.slice(0, scale) + "0".repeat(Math.max(0, scale - frac.length));
}

/** `s` (a plain decimal string with at most `scale` decimals) × 10^scale as a BigInt. */
function toScaled(s: string, scale: number): bigint {
  return BigInt(scaledDigits(s, scale));
}

/** At most 15 digits (an optional minus first): below 2^53, so `Number` reads them exactly. */
const SAFE_DIGITS = /^-?[0-9]{1,15}$/;

/** A BigInt at `scale` as a Decimal (exact). */
function fromScaled(n: bigint, scale: number): Decimal {
  return new Decimal(scaledToText(n, scale));
}

/** Marks a close whose scaled integer is beyond the safe range (kept as BigInt in `wide`). */
const WIDE = Infinity;

/** Decimals of value `i` without its trailing zeros (a day column's values, the transactions' quantities). */
function decimalsAt(col: DecimalColumn, i: number): number {
  let m = col.digits[i]!;
  if (m !== m) return decimalsOf(col.wide!.get(i)!);
  let scale = col.scales[i]!;
  while (scale > 0 && m % 10 === 0) { m /= 10; scale--; }
  return scale;
}

/**
 * The most decimals of a quote column's values, kept per column: a resumed report keeps the
 * columns of every asset without new closes, and reading all of them again was ~10 % of its time
 * (dense 20k, 130,000 closes).
 */
const columnDecimals = new WeakMap<DayColumn, number>();
function maxDecimals(col: DayColumn): number {
  let most = columnDecimals.get(col);
  if (most === undefined) {
    most = 0;
    for (let i = 0; i < col.days.length; i++) { const d = decimalsAt(col, i); if (d > most) most = d; }
    columnDecimals.set(col, most);
  }
  return most;
}

interface AssetColumn {
  currency: string;
  closes: DayColumn;
  /** Closes at the currency's price scale, parsed on first use: NaN not yet, WIDE beyond 2^53. */
  scaled: Float64Array;
  wide: Map<number, bigint>;
  /** Share-weighted quantity at the quantity scale; null when it has more decimals. */
  quantity: bigint | null;
  /** The same as a number when it is a safe integer, else NaN. */
  quantityNumber: number;
}

interface CurrencySum {
  /** The exact sum is `small + wide`: `small` a safe integer, `wide` what did not fit. */
  small: number;
  wide: bigint;
  assets: number[];
}

const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);
/** `n` as a number when it is a safe integer, else NaN. */
const safe = (n: bigint): number => (n >= -MAX_SAFE_BIG && n <= MAX_SAFE_BIG ? Number(n) : NaN);

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
    const txs = txTable(input);
    // From the columns' digits: no text per row.
    const quantities = txs.columns.quantities;
    for (let i = 0; i < txs.length; i++) {
      if (txs.assetId(i) === null) continue;
      const d = decimalsAt(quantities, i) + (scaleDecimals.get(txs.brokerId(i)) ?? 0);
      if (d > quantityScale) quantityScale = d;
    }
    const columns = new Map<number, AssetColumn>();
    const priceScale = new Map<string, number>();
    const quotes = seriesColumns(input).quotes;
    for (const a of input.assets) {
      const q = quotes[a.id];
      if (!q || q.days.length === 0 || !new Decimal(a.quoteBaseQuantity).eq(1)) continue;
      priceScale.set(a.currency, Math.max(priceScale.get(a.currency) ?? 0, maxDecimals(q)));
      columns.set(a.id, { currency: a.currency, closes: q, scaled: new Float64Array(q.days.length).fill(NaN), wide: new Map(), quantity: 0n, quantityNumber: 0 });
    }
    return columns.size === 0 ? null : new ScaledValuation(prices, columns, quantityScale, priceScale);
  }

  /** Called whenever an asset's share-weighted quantity changes. */
  setQuantity(assetId: number, qty: Decimal): void {
    const col = this.columns.get(assetId);
    if (!col) return;
    col.quantity = qty.decimalPlaces() <= this.quantityScale ? toScaled(qty.toFixed(), this.quantityScale) : null;
    col.quantityNumber = col.quantity === null ? NaN : safe(col.quantity);
  }

  /** Starts the valuation of a day. */
  begin(date: string): this {
    this.date = date;
    for (const s of this.sumsByCurrency.values()) { s.small = 0; s.wide = 0n; s.assets.length = 0; }
    return this;
  }

  /** Adds the asset when a quote values it on the day; false leaves it to the Decimal path. */
  addIfQuoted(assetId: number): boolean {
    const col = this.columns.get(assetId);
    if (!col || col.quantity === null) return false;
    const qi = this.prices.quoteIndexAt(assetId, this.date);
    if (qi < 0) return false;
    let close = col.scaled[qi]!;
    if (close !== close) close = this.parse(col, qi);
    let sum = this.sumsByCurrency.get(col.currency);
    if (!sum) this.sumsByCurrency.set(col.currency, sum = { small: 0, wide: 0n, assets: [] });
    sum.assets.push(assetId);
    const q = col.quantityNumber;
    if (close !== WIDE && q === q) {
      const product = q * close;
      if (Math.abs(product) <= Number.MAX_SAFE_INTEGER) {
        const total = sum.small + product;
        if (Math.abs(total) <= Number.MAX_SAFE_INTEGER) {
          sum.small = total;
          return true;
        }
      }
    }
    sum.wide += col.quantity * (close === WIDE ? col.wide.get(qi)! : BigInt(close));
    return true;
  }

  /** Parses close `qi` of a column at its currency's price scale (once). */
  private parse(col: AssetColumn, qi: number): number {
    const m = col.closes.digits[qi]!;
    const ps = this.priceScale.get(col.currency)!;
    if (m === m) {
      // digits × 10^(scale − own decimals): exact while the product is a safe integer ("-0" is 0).
      const scaled = m * 10 ** (ps - col.closes.scales[qi]!);
      if (Math.abs(scaled) <= Number.MAX_SAFE_INTEGER && col.closes.scales[qi]! <= ps) return col.scaled[qi] = scaled || 0;
    }
    const digits = scaledDigits(valueText(col.closes, qi), ps);
    // Most closes: read as a number, no BigInt made (one per close and report before); "-0" is 0.
    if (SAFE_DIGITS.test(digits)) return col.scaled[qi] = Number(digits) || 0;
    const n = BigInt(digits);
    const small = safe(n);
    if (small === small) return col.scaled[qi] = small;
    col.wide.set(qi, n);
    return col.scaled[qi] = WIDE;
  }

  /** The day's exact local sums by currency (currencies with at least one asset). */
  *sums(): Generator<[string, { value: Decimal; assets: number[] }]> {
    for (const [currency, s] of this.sumsByCurrency) {
      if (s.assets.length === 0) continue;
      yield [currency, { value: fromScaled(BigInt(s.small) + s.wide, this.quantityScale + this.priceScale.get(currency)!), assets: s.assets }];
    }
  }
}
