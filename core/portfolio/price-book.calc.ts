/**
 * The valuation price of an asset on a day (docs/portfolio.md "Daily replay"): the latest observation on
 * or before the day, a quote (`MARKET_PRICE`) or a trade price (`LAST_TRADE_PRICE`); on one day
 * a quote wins; nothing gives `MISSING` (null here).
 */
import { dayNumber, dayText } from "../dates/calendar.ts";
import { Decimal } from "../money/decimal.ts";
import { columnOfTexts, dayOnOrBefore, type DayColumn, EMPTY_COLUMN, valueParts, valueText } from "./day-columns.ts";
import { DigitsEstimate, type Estimated, estimated } from "./double-double.ts";
import { partsOfText } from "./exact-decimal.ts";
import type { AssetInfo, LedgerTx, QuoteSeries, SplitEvent } from "./report-input.ts";
import { txColumnsOf, TxTable } from "./tx-columns.ts";

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

/**
 * An asset's trade days as columns (one set per asset, not an object, array and date text per
 * day: ~62,000 trade days on the dense 100k ledger, kept with the scope): day `i` is `days[i]`, its
 * currency `currencies[i]`, and its rows (a trade's `[cash, quantity]`, an adjustment's override)
 * are `rows[starts[i]]` up to `rows[starts[i + 1]]` in the book's transactions. A day's price is
 * averaged on first use and kept in `prices`.
 */
interface TradeDays {
  days: Int32Array;
  currencies: string[];
  starts: Int32Array;
  rows: Int32Array;
  prices: Map<number, Decimal>;
}

interface AssetBook {
  /** The asset's quotes: day numbers and exact closes (day-columns.ts). */
  quotes: DayColumn;
  /** The observation of the last quote index asked for (non-trading days ask for it again). */
  lastQuote: { index: number; obs: Observation } | null;
  /** The close of the last quote index asked for by `quotePartsAt`, as exact parts and their estimate. */
  lastParts: { index: number; close: Estimated } | null;
  quoteBase: Decimal;
  quoteBaseOne: boolean;
  currency: string;
  trades: TradeDays;
  /** The transactions `trades` name rows of. */
  txs: TxTable;
  splits: { date: string; ratio: Decimal }[];
  /** Last indexes found: the daily replay asks for consecutive days, so the next answer is usually here or one further. */
  qHint: number;
  tHint: number;
}

/**
 * Trade prices: each BUY or SELL's `|cash| / |quantity|` in its currency, and the per-unit
 * override of each non-split ADJUSTMENT when set and non-zero. Same-day trades are averaged
 * (arithmetic mean) within the currency of the day's last trade. Prices are computed only for
 * the days a valuation actually falls back to (most days have a newer quote).
 */
function tradeDays(txs: TxTable, rows: readonly number[], asset: AssetInfo): TradeDays {
  const days: number[] = [];
  const currencies: string[] = [];
  const starts: number[] = [];
  const dayRows: number[] = [];
  // `rows` come by date: a day's trades are consecutive.
  for (const k of rows) {
    const type = txs.type(k);
    let currency = asset.currency;
    if (type === "BUY" || type === "SELL") {
      const cash = txs.currency(k);
      if (cash === null || txs.amount(k) === null || isZeroText(txs.quantity(k))) continue;
      currency = cash;
    } else if (type === "ADJUSTMENT" && !txs.splitLinked(k)) {
      const override = txs.costBasisOverride(k);
      if (override === null || isZeroText(override)) continue;
      currency = txs.costBasisCurrency(k) ?? asset.currency;
    } else continue;
    const day = txs.day(k);
    const last = days.length - 1;
    if (last >= 0 && days[last] === day && currencies[last] !== currency) {
      // Another currency than the day's earlier trades: the day's last currency wins.
      dayRows.length = starts[last]!;
      currencies[last] = currency;
    } else if (last < 0 || days[last] !== day) {
      days.push(day);
      currencies.push(currency);
      starts.push(dayRows.length);
    }
    dayRows.push(k);
  }
  starts.push(dayRows.length);
  return { days: Int32Array.from(days), currencies, starts: Int32Array.from(starts), rows: Int32Array.from(dayRows), prices: new Map() };
}

/**
 * The first `n` trade days of `kept` followed by `later` (all dated after them; its rows in the
 * same transactions): typed copies of the kept prefix, and the prices it had averaged.
 */
function appendTradeDays(kept: TradeDays, n: number, later: TradeDays): TradeDays {
  const keptRows = kept.starts[n]!;
  const days = new Int32Array(n + later.days.length);
  days.set(kept.days.subarray(0, n));
  days.set(later.days, n);
  const starts = new Int32Array(n + later.starts.length);
  starts.set(kept.starts.subarray(0, n));
  for (let i = 0; i < later.starts.length; i++) starts[n + i] = keptRows + later.starts[i]!;
  const rows = new Int32Array(keptRows + later.rows.length);
  rows.set(kept.rows.subarray(0, keptRows));
  rows.set(later.rows, keptRows);
  const prices = new Map<number, Decimal>();
  for (const [i, price] of kept.prices) if (i < n) prices.set(i, price);
  return { days, currencies: kept.currencies.slice(0, n).concat(later.currencies), starts, rows, prices };
}

/** `s` (a plain decimal string) is zero: only "-", "0" and "." in it. */
function isZeroText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 48 && c !== 46 && c !== 45) return false;
  }
  return true;
}

/** The price of trade day `i`: its rows' arithmetic mean (within its currency). */
function tradePrice(trades: TradeDays, i: number, txs: TxTable): Decimal {
  let price = trades.prices.get(i);
  if (price === undefined) {
    const prices: Decimal[] = [];
    for (let r = trades.starts[i]!; r < trades.starts[i + 1]!; r++) {
      const k = trades.rows[r]!;
      prices.push(txs.type(k) === "ADJUSTMENT"
        ? new Decimal(txs.costBasisOverride(k)!) : new Decimal(txs.amount(k)!).abs().div(new Decimal(txs.quantity(k)).abs()));
    }
    price = prices.length === 1 ? prices[0]! : prices.reduce((s, p) => s.plus(p), new Decimal(0)).div(prices.length);
    trades.prices.set(i, price);
  }
  return price;
}

/** Index of the latest day on or before `day`, trying the hint and the one after it first. */
function seek(days: ArrayLike<number>, day: number, hint: number): number {
  if (hint >= 0 && hint < days.length && days[hint]! <= day) {
    if (hint + 1 === days.length || days[hint + 1]! > day) return hint;
    if (hint + 2 === days.length || days[hint + 2]! > day) return hint + 1;
  }
  return dayOnOrBefore(days, day);
}

export class PriceBook {
  private readonly books = new Map<number, AssetBook>();
  /** The day last asked for and its day number: every asset is asked for the same day in turn. */
  private lastDay = "";
  private lastDayNumber = 0;

  /**
   * `reuse`: a book over the same assets whose transactions dated before `before` are these
   * at the same rows (an incremental report): its trade days before that date are taken over, not rebuilt.
   */
  constructor(
    assets: readonly AssetInfo[], quotes: Record<number, DayColumn | QuoteSeries>, splits: readonly SplitEvent[], given: TxTable | readonly LedgerTx[],
    reuse?: { book: PriceBook; before: string },
  ) {
    const txs = given instanceof TxTable ? given : new TxTable(txColumnsOf(given));
    const txsByAsset = new Map<number, number[]>();
    // With `reuse`, only the transactions dated from `before` on (sorted by date: a binary search).
    const lo = reuse ? txs.firstFrom(dayNumber(reuse.before)) : 0;
    for (let k = lo; k < txs.length; k++) {
      const assetId = txs.assetId(k);
      if (assetId !== null) (txsByAsset.get(assetId) ?? txsByAsset.set(assetId, []).get(assetId)!).push(k);
    }
    for (const a of assets) {
      const given = quotes[a.id];
      const q = !given ? EMPTY_COLUMN : "days" in given ? given : columnOfTexts(given.dates, given.closes);
      const prev = reuse?.book.books.get(a.id);
      let trades: TradeDays;
      if (reuse && prev && prev.currency === a.currency) {
        const before = dayNumber(reuse.before);
        let n = 0;
        while (n < prev.trades.days.length && prev.trades.days[n]! < before) n++;
        trades = appendTradeDays(prev.trades, n, tradeDays(txs, txsByAsset.get(a.id) ?? [], a));
      } else if (reuse) {
        const rows: number[] = [];
        for (let k = 0; k < txs.length; k++) if (txs.assetId(k) === a.id) rows.push(k);
        trades = tradeDays(txs, rows, a);
      } else trades = tradeDays(txs, txsByAsset.get(a.id) ?? [], a);
      this.books.set(a.id, {
        quotes: q, lastQuote: null, lastParts: null, quoteBase: new Decimal(a.quoteBaseQuantity),
        quoteBaseOne: new Decimal(a.quoteBaseQuantity).eq(1),
        currency: a.currency, trades, txs, qHint: -1, tHint: -1,
        splits: splits.filter((s) => s.assetId === a.id).map((s) => ({ date: s.date, ratio: new Decimal(s.ratio) })),
      });
    }
  }

  /**
   * Index of the quote valuing `assetId` on `day` when the valuation is a quote (not a newer
   * trade price), else -1. Same lookup as {@link at}, without building an observation.
   */
  quoteIndexAt(assetId: number, day: string): number {
    const b = this.books.get(assetId);
    if (!b) return -1;
    const n = this.dayNumberOf(day);
    const qi = seek(b.quotes.days, n, b.qHint);
    const ti = seek(b.trades.days, n, b.tHint);
    if (qi >= 0) b.qHint = qi;
    if (ti >= 0) b.tHint = ti;
    return qi >= 0 && (ti < 0 || b.quotes.days[qi]! >= b.trades.days[ti]!) ? qi : -1;
  }

  private dayNumberOf(day: string): number {
    if (day !== this.lastDay) {
      this.lastDay = day;
      this.lastDayNumber = dayNumber(day);
    }
    return this.lastDayNumber;
  }

  /**
   * The price valuing `assetId` on `day` as exact parts (exact-decimal.ts) and their estimate
   * (double-double.ts) when it is a quote with a quote base of 1 (the close itself, in the asset's
   * currency), parsed from the close's text without a Decimal; null otherwise ({@link at} then
   * gives the observation).
   */
  quotePartsAt(assetId: number, day: string): Estimated | null {
    const b = this.books.get(assetId);
    if (!b || !b.quoteBaseOne) return null;
    const qi = this.quoteIndexAt(assetId, day);
    if (qi < 0) return null;
    if (b.lastParts?.index === qi) return b.lastParts.close;
    const col = b.quotes;
    const digits = col.digits[qi]!;
    const parts = () => valueParts(col, qi) ?? partsOfText(valueText(col, qi));
    // Most closes are a safe integer of digits: estimated from the numbers, parts made only if asked.
    const close = digits === digits ? new DigitsEstimate(digits, col.scales[qi]!, parts) : estimated(parts());
    b.lastParts = { index: qi, close };
    return close;
  }

  /** The observation valuing `assetId` on `day`, or null when there is none (source MISSING). */
  at(assetId: number, day: string): Observation | null {
    const b = this.books.get(assetId);
    if (!b) return null;
    const n = this.dayNumberOf(day);
    const qi = seek(b.quotes.days, n, b.qHint);
    const ti = seek(b.trades.days, n, b.tHint);
    if (qi >= 0) b.qHint = qi;
    if (ti >= 0) b.tHint = ti;
    if (qi >= 0 && (ti < 0 || b.quotes.days[qi]! >= b.trades.days[ti]!)) {
      if (b.lastQuote?.index === qi) return b.lastQuote.obs;
      let price = new Decimal(valueText(b.quotes, qi));
      if (!b.quoteBase.eq(1)) price = price.div(b.quoteBase);
      const obs: Observation = { price, referencePrice: price, currency: b.currency, date: dayText(b.quotes.days[qi]!), source: "MARKET_PRICE", splitAdjusted: false };
      // Only the latest is kept: days are asked in order, so older quotes are not asked again.
      b.lastQuote = { index: qi, obs };
      return obs;
    }
    if (ti < 0) return null;
    const price = tradePrice(b.trades, ti, b.txs);
    const date = dayText(b.trades.days[ti]!);
    let factor: Decimal | null = null;
    for (const s of b.splits) {
      if (s.date > date && s.date <= day && s.ratio.gt(0)) factor = (factor ?? new Decimal(1)).times(s.ratio);
    }
    return {
      price: factor ? price.div(factor) : price, referencePrice: price, currency: b.trades.currencies[ti]!,
      date, source: "LAST_TRADE_PRICE", splitAdjusted: factor !== null,
    };
  }
}
