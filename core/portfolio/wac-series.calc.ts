/**
 * The weighted-average-cost series of one asset in one broker (docs/portfolio.md "WAC series"; pure:
 * no typeorm, no tsyringe; runs in the worker pool). Inputs and outputs are strings and plain
 * objects only.
 */
import { type ConvertLeg, convertAlong } from "../fx/convert.calc.ts";
import { CostPool } from "../money/cost-pool.ts";
import { Decimal, toDecimalString } from "../money/decimal.ts";

export type WacEffect = "add" | "add_at_wac" | "add_zero_cost" | "reduce";

/** One ledger row of the asset in the broker, as stored. */
export interface WacSeriesRow {
  /** Signed cash of the row (a BUY pays a negative amount). */
  amount: string | null;
  costBasisCurrency: string | null;
  costBasisMode: string | null;
  /** Per unit. */
  costBasisOverride: string | null;
  currency: string | null;
  date: string;
  id: number;
  quantity: string;
  /** Linked to a SPLIT event: moves quantity and keeps the total cost. */
  split: boolean;
  type: string;
}

/** One leg of a route; `series` names an entry of {@link WacSeriesInput.series}. */
export interface WacRouteLeg {
  from: string;
  series: string;
  to: string;
}

export interface WacSeriesInput {
  assetCurrency: string;
  /** Last returned date (inclusive); null: no bound. */
  end: string | null;
  rows: WacSeriesRow[];
  /** Per foreign cost currency: its routes to the series currency by priority, each a list of legs. */
  routes: Record<string, WacRouteLeg[][]>;
  /** Rate series of alphabetical pairs (`1 base = rate quote`), oldest first. */
  series: Record<string, { dates: string[]; rates: string[] }>;
  /** First returned date (inclusive); null: no bound. */
  start: string | null;
}

export interface WacSeriesPoint {
  date: string;
  effect: WacEffect;
  poolQty: string;
  /** Cost per unit in the series currency; null while the pool is empty. */
  wac: string | null;
}

export interface WacSeriesOutput {
  currency: string;
  missingFxPairs: { dates: string[]; pair: string }[];
  series: WacSeriesPoint[];
}

const isAuto = (r: WacSeriesRow) => r.costBasisMode === "auto" || r.costBasisMode === "auto-detail";

/** A row's own cost (whole quantity) in the currency it was paid in; null when it carries none. */
function ownCost(r: WacSeriesRow, q: Decimal): { amount: Decimal; currency: string } | null {
  if (r.split) return null;
  if (r.type === "BUY") return r.amount !== null && r.currency !== null ? { amount: new Decimal(r.amount).neg(), currency: r.currency } : null;
  if (r.costBasisOverride !== null && r.costBasisCurrency !== null) {
    return { amount: new Decimal(r.costBasisOverride).times(q), currency: r.costBasisCurrency };
  }
  return null;
}

/** Rows by date, additions before reductions on one day, then by id; rows moving no quantity are left out. */
export function orderWacRows(rows: readonly WacSeriesRow[]): WacSeriesRow[] {
  const sign = (r: WacSeriesRow) => (new Decimal(r.quantity).gt(0) ? 0 : 1);
  return rows.filter((r) => !new Decimal(r.quantity).isZero())
    .sort((a, b) => a.date.localeCompare(b.date) || sign(a) - sign(b) || a.id - b.id);
}

/** The series currency: that of the most recent acquisition with a cost, else the asset's. */
export function wacCurrency(rows: readonly WacSeriesRow[], assetCurrency: string): string {
  let currency = assetCurrency;
  for (const r of orderWacRows(rows)) {
    const q = new Decimal(r.quantity);
    const cost = q.gt(0) ? ownCost(r, q) : null;
    if (cost) currency = cost.currency;
  }
  return currency;
}

/**
 * The pool is built from the first row; `start`/`end` only filter the returned points. BUY adds
 * its cash paid (`add`); an inbound row with a per-unit override adds override × quantity
 * (`add`), one in auto mode enters at the WAC it was given at commit, else at the pool's current
 * WAC (`add_at_wac`); an inbound row without a cost, a split, or a cost that cannot be converted
 * adds quantity at no cost (`add_zero_cost`). A reduction removes cost at the average, leaving it
 * unchanged (`reduce`); a split-linked reduction keeps the total cost. Foreign costs are
 * converted on the row's date through the routes by priority; a missing rate lists the date.
 */
export function wacSeries(input: WacSeriesInput): WacSeriesOutput {
  const currency = wacCurrency(input.rows, input.assetCurrency);
  const legs = routeLegs(input);
  const missing = new Map<string, Set<string>>();
  const convert = (cost: { amount: Decimal; currency: string }, date: string): Decimal | null => {
    if (cost.currency === currency) return cost.amount;
    for (const route of legs.get(cost.currency) ?? []) {
      const c = convertAlong(cost.amount, route, date);
      if (c) return c.amount;
    }
    const pair = `${cost.currency}/${currency}`;
    if (!missing.has(pair)) missing.set(pair, new Set());
    missing.get(pair)!.add(date);
    return null;
  };
  // The one pool (core/money/cost-pool.ts); the series describes the long pool, so a
  // reduction beyond it empties it ("clamp") instead of opening a short.
  const pool = new CostPool("clamp");
  const series: WacSeriesPoint[] = [];
  for (const r of orderWacRows(input.rows)) {
    const q = new Decimal(r.quantity);
    let effect: WacEffect;
    if (q.lt(0)) {
      effect = "reduce";
      if (r.split) pool.split(q);
      else pool.remove(q.neg());
    } else {
      const own = ownCost(r, q);
      const converted = own ? convert(own, r.date) : null;
      if (!r.split && isAuto(r)) {
        effect = "add_at_wac";
        const current = pool.average();
        pool.add(q, converted ?? (current ? current.times(q) : new Decimal(0)));
      } else {
        effect = converted === null ? "add_zero_cost" : "add";
        pool.add(q, converted ?? new Decimal(0));
      }
    }
    if ((input.start !== null && r.date < input.start) || (input.end !== null && r.date > input.end)) continue;
    const average = pool.average();
    series.push({ date: r.date, effect, poolQty: toDecimalString(pool.quantity), wac: average ? toDecimalString(average) : null });
  }
  const missingFxPairs = [...missing.entries()].sort(([a], [b]) => a.localeCompare(b))
    .map(([pair, dates]) => ({ pair, dates: [...dates].sort() }));
  return { currency, missingFxPairs, series };
}

/** The routes of each foreign currency with their series as Decimals (parsed once per call). */
function routeLegs(input: WacSeriesInput): Map<string, ConvertLeg[][]> {
  const parsed = new Map<string, ConvertLeg["series"]>();
  const seriesOf = (key: string) => {
    let s = parsed.get(key);
    if (!s) {
      const raw = input.series[key] ?? { dates: [], rates: [] };
      s = { dates: raw.dates, rates: raw.rates.map((x) => new Decimal(x)) };
      parsed.set(key, s);
    }
    return s;
  };
  return new Map(Object.entries(input.routes).map(([code, routes]) => [
    code, routes.map((route) => route.map((l) => ({ from: l.from, series: seriesOf(l.series), to: l.to }))),
  ]));
}
