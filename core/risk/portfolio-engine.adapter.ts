/**
 * The one place risk analytics touch the portfolio engine (core/portfolio): its input loader, the
 * daily replay, the price book and the FX table. A refactor of the engine changes this file only.
 * Everything here runs inside a worker on the worker's read-only connection.
 */
import type { Decimal } from "../money/decimal.ts";
import { type DecimalParts, toDecimal } from "../portfolio/exact-decimal.ts";
import { FxTable } from "../portfolio/fx-table.calc.ts";
import { PriceBook } from "../portfolio/price-book.calc.ts";
import { columnDates, EMPTY_COLUMN, valueText } from "../portfolio/day-columns.ts";
import { type ReportInput, seriesColumns, txTable } from "../portfolio/report-input.ts";
import { loadAssets, loadFx, loadQuotesAndSplits, loadReportInput, type SqlReader } from "../portfolio/report-input.loader.ts";
import { replay } from "../portfolio/replay.calc.ts";

export type { SqlReader };

/** One calendar day of the portfolio as the engine replays it. */
export interface EngineDay {
  date: string;
  nav: Decimal;
  /** Net external flow of the day (positive = money in), target currency. */
  flow: Decimal;
  /** A held asset had no price that day. */
  incomplete: boolean;
  /** Value per asset at the end of the day (only when asked for). */
  assetValues: Map<number, Decimal> | null;
}

export interface EnginePosition {
  assetId: number;
  /** Share-weighted quantity summed over the brokers in scope. */
  quantity: Decimal;
}

/** What the risk layer needs from the engine for a portfolio scope. */
export interface PortfolioView {
  days: EngineDay[];
  positions: EnginePosition[];
  /** The replay's input: assets, quotes, splits, trades and FX of the scope (for pricing). */
  input: ReportInput;
  prices: Pricer;
}

/**
 * Values an asset in the target currency on a day by the engine's rules (valuation price: the latest
 * quote or trade price on or before the day; FX by the pair's routes). Days are best asked in
 * increasing order per asset (the price book seeks forward).
 */
export interface Pricer {
  /** Unit value as a float (statistics input), or null without a price or an FX rate. */
  unit(assetId: number, day: string): number | null;
  /** Unit value as an exact decimal (money), or null. */
  exact(assetId: number, day: string): Decimal | null;
  missingFxPairs(): string[];
}

function pricer(input: ReportInput): Pricer {
  const series = seriesColumns(input);
  const txs = txTable(input);
  const book = new PriceBook(input.assets, series.quotes, input.splits, txs);
  const fx = new FxTable(input.target, input.fxPairs, series.rates);
  // Fast path: on a day whose latest observation is a quote (no transaction of the asset since that
  // quote), the float value is the quote over the quote base; any other day asks the price book,
  // which owns the valuation rule (trade prices, split adjustments).
  const fast = new Map<number, { dates: string[]; closes: Float64Array; txDates: string[]; currency: string; hint: number }>();
  const txDates = new Map<number, string[]>();
  for (let i = 0; i < txs.length; i++) {
    const assetId = txs.assetId(i);
    if (assetId !== null) (txDates.get(assetId) ?? txDates.set(assetId, []).get(assetId)!).push(txs.date(i));
  }
  for (const a of input.assets) {
    const q = series.quotes[a.id] ?? EMPTY_COLUMN;
    const base = Number(a.quoteBaseQuantity);
    const closes = new Float64Array(q.days.length);
    for (let i = 0; i < closes.length; i++) closes[i] = Number(valueText(q, i)) / base;
    fast.set(a.id, { dates: columnDates(q), closes, txDates: (txDates.get(a.id) ?? []).sort(), currency: a.currency, hint: -1 });
  }
  const rateOf = new Map<string, Map<string, number | null>>();
  const rate = (currency: string, day: string) => {
    let byDay = rateOf.get(currency);
    if (!byDay) rateOf.set(currency, (byDay = new Map()));
    let r = byDay.get(day);
    if (r === undefined) { r = fx.rate(currency, day)?.toNumber() ?? null; byDay.set(day, r); }
    return r;
  };
  /** A transaction of the asset dated in (after, day]: then a trade price may be newer than the quote. */
  const traded = (dates: string[], after: string, day: string) => {
    let lo = 0;
    let hi = dates.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (dates[mid]! <= after) lo = mid + 1; else hi = mid; }
    return lo < dates.length && dates[lo]! <= day;
  };
  return {
    unit(assetId, day) {
      const f = fast.get(assetId);
      if (f) {
        let i = f.hint;
        if (i < 0 || f.dates[i]! > day) i = -1;
        while (i + 1 < f.dates.length && f.dates[i + 1]! <= day) i++;
        f.hint = i;
        if (i >= 0 && !traded(f.txDates, f.dates[i]!, day)) {
          const r = rate(f.currency, day);
          return r === null ? null : f.closes[i]! * r;
        }
      }
      const obs = book.at(assetId, day);
      if (!obs) return null;
      const r = rate(obs.currency, day);
      return r === null ? null : obs.price.toNumber() * r;
    },
    exact(assetId, day) {
      const obs = book.at(assetId, day);
      const r = obs ? fx.rate(obs.currency, day) : null;
      return obs && r ? obs.price.times(r) : null;
    },
    missingFxPairs: () => fx.missing().map((m) => m.slug),
  };
}

/** The replay's exact per-asset values as Decimals (the same values). */
function asDecimals(values: Map<number, DecimalParts>): Map<number, Decimal> {
  const out = new Map<number, Decimal>();
  values.forEach((v, id) => out.set(id, toDecimal(v)));
  return out;
}

/**
 * Replays the caller's share-weighted portfolio (brokers → scale) up to `end`, valuing the days from
 * `start` (a start equal to `end` only builds the end state: the positions held today); `assetValues`
 * is filled per day when `perAsset` (needed for an asset slice of the history).
 */
export async function portfolioView(
  db: SqlReader, req: { scales: Record<number, string>; fxUserId: number | null; target: string; start: string | null; end: string; perAsset: boolean },
): Promise<PortfolioView> {
  const input = await loadReportInput(db, {
    scales: req.scales, fxUserId: req.fxUserId, target: req.target, start: req.start, end: req.end,
    flags: { summary: false, history: false, allocationHistory: req.perAsset, breakdown: false, positionsContribution: false, periodReturns: false, incomePayments: false },
    requested: { start: req.start, end: req.end, brokerIds: null }, generatedAt: new Date(0).toISOString(),
  });
  const r = replay(input);
  const byAsset = new Map<number, Decimal>();
  for (const p of r.positions) byAsset.set(p.assetId, byAsset.has(p.assetId) ? byAsset.get(p.assetId)!.plus(p.quantity) : p.quantity);
  return {
    days: r.days.map((d) => ({ date: d.date, nav: d.nav, flow: d.flow, incomplete: d.incomplete, assetValues: d.assetValues ? asDecimals(d.assetValues.exact()) : null })),
    positions: [...byAsset].filter(([, q]) => !q.isZero()).map(([assetId, quantity]) => ({ assetId, quantity })).sort((a, b) => a.assetId - b.assetId),
    input,
    prices: pricer(input),
  };
}

/**
 * The engine's pricing input for a list of assets without any position (asset and asset-set
 * scopes): the same assets, quotes, splits and FX routes the report reads.
 */
export async function assetView(db: SqlReader, assetIds: number[], target: string, end: string, fxUserId: number | null = null): Promise<{ input: ReportInput; prices: Pricer }> {
  const assets = await loadAssets(db, [...new Set(assetIds)]);
  const { quotes, splits } = await loadQuotesAndSplits(db, assets.map((a) => a.id), end);
  const currencies = [...new Set(assets.map((a) => a.currency))].filter((c) => c !== target);
  const { fxPairs, rates } = await loadFx(db, currencies, target, end, "", fxUserId);
  const input: ReportInput = {
    brokers: [], transactions: [], assets, columns: { quotes, rates }, quotes: {}, splits, fxPairs, fxSeries: {}, target, start: null, end,
    flags: { summary: false, history: false, allocationHistory: false, breakdown: false, positionsContribution: false, periodReturns: false, incomePayments: false },
    requested: { start: null, end, brokerIds: null }, generatedAt: new Date(0).toISOString(),
  };
  return { input, prices: pricer(input) };
}
