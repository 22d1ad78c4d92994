/**
 * The series a risk query works on (docs/risk.md "Series"), built in a worker from the portfolio
 * engine through `portfolio-engine.adapter.ts`: per-asset unit values in the target currency on the
 * scope's market days, and the scope's own value series (an asset's price, the portfolio's
 * flow-free TWR index, or today's holdings held over the period). Gaps are reported, never zeroed.
 */
import { Decimal } from "../money/decimal.ts";
import { assetView, type Pricer, portfolioView, type SqlReader } from "./portfolio-engine.adapter.ts";
import { columnDates, type DayColumn, EMPTY_COLUMN } from "../portfolio/day-columns.ts";
import { type AssetInfo, seriesColumns } from "../portfolio/report-input.ts";

export type RiskScopeRequest =
  | { kind: "asset"; assetIds: [number] }
  | { kind: "asset_set"; assetIds: number[] }
  | { kind: "portfolio"; scales: Record<number, string>; assetIds: number[] | null };

export interface RiskDataRequest {
  scope: RiskScopeRequest;
  mode: "historical" | "current_composition";
  target: string;
  start: string;
  end: string;
  /** Extra assets priced on their own dates (benchmarks of comparison analytics). */
  benchmarkIds: number[];
  /** The user asking: their private FX rates fill what the shared FX data cannot convert (docs/fx.md); null: shared data only. */
  fxUserId: number | null;
}

export interface RiskWarningData {
  code: string;
  message: string;
  details: Record<string, unknown>;
  degrades_result: boolean;
}

export interface AssetSeriesData {
  asset_id: number;
  name: string;
  asset_type: string | null;
  sectors: Record<string, number> | null;
  geography: Record<string, number> | null;
  weight: number | null;
  values: number[];
}

export interface RiskDataQuality {
  data_quality_status: "ok" | "partial";
  missing_price_assets: number[];
  missing_fx_pairs: string[];
  incomplete_nav_dates_count: number;
  observations_start: string | null;
  observations_end: string | null;
}

export interface RiskData {
  currency: string;
  series: { dates: string[]; values: number[] } | null;
  end_value: string | null;
  asset_dates: string[];
  assets: AssetSeriesData[];
  benchmarks: Record<number, { dates: string[]; values: number[] }>;
  data_quality: RiskDataQuality;
  warnings: RiskWarningData[];
}

const ZERO = new Decimal(0);

function weights(map: Record<string, string> | null): Record<string, number> | null {
  if (!map) return null;
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, Number(v)]));
}

interface PriceMatrix {
  dates: string[];
  /** asset id → unit value per date as a float (null: no price or no FX that day). */
  values: Map<number, (number | null)[]>;
}

/** Unit values of each asset on the union of their quote dates within [start, end]. */
function priceMatrix(prices: Pricer, assets: readonly AssetInfo[], quotes: Record<number, DayColumn>, start: string, end: string): PriceMatrix {
  const set = new Set<string>();
  for (const a of assets) for (const d of columnDates(quotes[a.id] ?? EMPTY_COLUMN)) if (d >= start && d <= end) set.add(d);
  const dates = [...set].sort();
  const values = new Map<number, (number | null)[]>();
  for (const a of assets) values.set(a.id, dates.map((d) => prices.unit(a.id, d)));
  return { dates, values };
}

/**
 * Aligns the assets on the days where every one of them has a value: the window starts at the
 * latest first value, and days inside it with a gap (a missing FX rate) are dropped for all.
 * Assets without any value are left out and reported.
 */
function align(m: PriceMatrix, assets: readonly AssetInfo[], start: string, warnings: RiskWarningData[], dq: RiskDataQuality) {
  const usable = assets.filter((a) => m.values.get(a.id)!.some((v) => v !== null));
  const missing = assets.filter((a) => !usable.includes(a)).map((a) => a.id);
  if (missing.length > 0) {
    dq.missing_price_assets.push(...missing);
    warnings.push({ code: "missing_prices", message: "Assets without any price in the period were left out", details: { asset_ids: missing }, degrades_result: true });
  }
  let from = 0;
  for (const a of usable) from = Math.max(from, m.values.get(a.id)!.findIndex((v) => v !== null));
  const keep: number[] = [];
  let gaps = 0;
  for (let i = from; i < m.dates.length; i++) {
    if (usable.every((a) => m.values.get(a.id)![i] !== null)) keep.push(i);
    else gaps++;
  }
  if (m.dates[from] !== undefined && m.dates[from]! > start && usable.length > 0) {
    const late = usable.filter((a) => m.values.get(a.id)!.findIndex((v) => v !== null) === from).map((a) => a.id);
    warnings.push({
      code: "starts_late", message: `The common history starts on ${m.dates[from]}, after the requested start`,
      details: { first_common_date: m.dates[from], asset_ids: late }, degrades_result: false,
    });
  }
  if (gaps > 0) {
    warnings.push({ code: "missing_fx", message: `${gaps} day(s) without a price or FX rate for some asset were left out`, details: { days: gaps }, degrades_result: true });
  }
  return {
    dates: keep.map((i) => m.dates[i]!),
    assets: usable,
    values: new Map(usable.map((a) => [a.id, keep.map((i) => m.values.get(a.id)![i]!)])),
  };
}

function assetSeries(a: AssetInfo, values: number[], weight: number | null): AssetSeriesData {
  return { asset_id: a.id, name: a.name, asset_type: a.type, sectors: weights(a.sectors), geography: weights(a.geography), weight, values };
}

export async function loadRiskData(db: SqlReader, req: RiskDataRequest): Promise<RiskData> {
  const warnings: RiskWarningData[] = [];
  const dq: RiskDataQuality = {
    data_quality_status: "ok", missing_price_assets: [], missing_fx_pairs: [], incomplete_nav_dates_count: 0, observations_start: null, observations_end: null,
  };
  const out: RiskData = {
    currency: req.target, series: null, end_value: null, asset_dates: [], assets: [], benchmarks: {}, data_quality: dq, warnings,
  };
  const scope = req.scope;

  if (scope.kind === "asset" || scope.kind === "asset_set") {
    const view = await assetView(db, [...scope.assetIds, ...req.benchmarkIds], req.target, req.end, req.fxUserId);
    const scoped = view.input.assets.filter((a) => scope.assetIds.includes(a.id));
    const m = priceMatrix(view.prices, scoped, seriesColumns(view.input).quotes, req.start, req.end);
    const al = align(m, scoped, req.start, warnings, dq);
    out.asset_dates = al.dates;
    out.assets = al.assets.map((a) => assetSeries(a, al.values.get(a.id)!, null));
    if (scope.kind === "asset") out.series = { dates: [], values: [] };
    if (scope.kind === "asset" && out.assets[0]) {
      out.series = { dates: al.dates, values: out.assets[0].values };
      const last = al.dates.at(-1);
      out.end_value = last ? view.prices.exact(out.assets[0].asset_id, last)?.toDecimalPlaces(10).toFixed() ?? null : null;
    }
    benchmarks(view.prices, view.input.assets.filter((a) => req.benchmarkIds.includes(a.id)), seriesColumns(view.input).quotes, req, out);
  } else {
    const perAsset = req.mode === "historical" && scope.assetIds !== null;
    // Today's composition needs only the end state: the replay then values a single day.
    const start = req.mode === "historical" ? req.start : req.end;
    const view = await portfolioView(db, { scales: scope.scales, fxUserId: req.fxUserId, target: req.target, start, end: req.end, perAsset });
    const slice = scope.assetIds ? new Set(scope.assetIds) : null;
    const held = view.positions.filter((p) => !slice || slice.has(p.assetId));
    const heldAssets = view.input.assets.filter((a) => held.some((p) => p.assetId === a.id));
    const m = priceMatrix(view.prices, heldAssets, seriesColumns(view.input).quotes, req.start, req.end);
    const al = align(m, heldAssets, req.start, warnings, dq);
    const qty = new Map(held.map((p) => [p.assetId, p.quantity.toNumber()]));
    const lastValues = al.assets.map((a) => qty.get(a.id)! * (al.values.get(a.id)!.at(-1) ?? 0));
    const total = lastValues.reduce((s, v) => s + v, 0);
    out.asset_dates = al.dates;
    out.assets = al.assets.map((a, i) => assetSeries(a, al.values.get(a.id)!, req.mode === "current_composition" && total > 0 ? lastValues[i]! / total : null));
    if (req.mode === "current_composition") {
      // Today's holdings bought and held: V_t = Σ qᵢ · Pᵢ(t) on the aligned days (floats: statistics input).
      const values = new Array<number>(al.dates.length).fill(0);
      for (const a of al.assets) {
        const q = qty.get(a.id)!;
        const series = al.values.get(a.id)!;
        for (let t = 0; t < values.length; t++) values[t]! += q * series[t]!;
      }
      out.series = { dates: al.dates, values };
      // Money stays decimal: today's value from the exact quantities and prices.
      const last = al.dates.at(-1);
      out.end_value = last === undefined ? null
        : held.filter((p) => al.assets.some((a) => a.id === p.assetId))
          .reduce((s, p) => s.plus(p.quantity.times(view.prices.exact(p.assetId, last) ?? ZERO)), ZERO).toDecimalPlaces(10).toFixed();
    } else {
      historicalSeries(view, m, slice, req, out);
    }
    // Extra assets (benchmarks) are priced through the same engine input when held, else on their own.
    if (req.benchmarkIds.length > 0) {
      const extra = await assetView(db, req.benchmarkIds, req.target, req.end, req.fxUserId);
      benchmarks(extra.prices, extra.input.assets, seriesColumns(extra.input).quotes, req, out);
    }
    for (const p of view.prices.missingFxPairs()) if (!dq.missing_fx_pairs.includes(p)) dq.missing_fx_pairs.push(p);
  }
  const dates = out.series?.dates ?? out.asset_dates;
  dq.observations_start = dates[0] ?? null;
  dq.observations_end = dates.at(-1) ?? null;
  if (dq.missing_price_assets.length > 0 || dq.incomplete_nav_dates_count > 0 || warnings.some((w) => w.degrades_result)) dq.data_quality_status = "partial";
  return out;
}

/**
 * The portfolio's value series as it was, flows removed: on each market day k (a day some held
 * asset has a quote), r_k = (NAV_k − F − NAV_{k−1}) / NAV_{k−1} with F the net external flows of the
 * calendar days since the previous market day (flows at the end of the day, as the TWRR). The series
 * is the index V_0 = NAV_0, V_k = V_{k−1}(1 + r_k), so its returns chain to the report's TWRR.
 * An asset slice uses the day-before holdings valued at both days' prices instead.
 */
function historicalSeries(view: Awaited<ReturnType<typeof portfolioView>>, m: PriceMatrix, slice: Set<number> | null, req: RiskDataRequest, out: RiskData): void {
  const market = new Set(m.dates);
  const days = view.days.filter((d) => d.date >= req.start && d.date <= req.end);
  const dates: string[] = [];
  const values: number[] = [];
  let flow = ZERO;
  let prev: (typeof days)[number] | null = null;
  let index = 0;
  let incomplete = 0;
  let lastValue = ZERO;
  const position = new Map(m.dates.map((d, i) => [d, i]));
  const priceAt = (id: number, date: string) => {
    const i = position.get(date);
    return i === undefined ? null : m.values.get(id)?.[i] ?? null;
  };
  for (const d of days) {
    flow = flow.plus(d.flow);
    if (market.size > 0 && !market.has(d.date)) continue;
    if (d.incomplete) incomplete++;
    const value = slice ? sliceValue(d, slice) : d.nav;
    if (prev === null) {
      if (value.gt(0)) { prev = d; index = value.toNumber(); dates.push(d.date); values.push(index); lastValue = value; }
      flow = ZERO;
      continue;
    }
    let r: number;
    if (slice) {
      // Σ aᵢ(prev) · Pᵢ(d)/Pᵢ(prev) / Σ aᵢ(prev) − 1 over the slice's assets held the day before.
      let before = 0;
      let after = 0;
      for (const [id, a] of prev.assetValues ?? []) {
        if (!slice.has(id) || a.isZero()) continue;
        const p0 = priceAt(id, prev.date);
        const p1 = priceAt(id, d.date);
        if (p0 === null || p1 === null || p0 === 0) continue;
        const v = a.toNumber();
        before += v;
        after += (v * p1) / p0;
      }
      r = before > 0 ? after / before - 1 : 0;
    } else {
      const base = sliceValueOrNav(prev, null);
      r = base.gt(0) ? d.nav.minus(flow).minus(base).div(base).toNumber() : 0;
    }
    index *= 1 + r;
    dates.push(d.date);
    values.push(index);
    lastValue = value;
    prev = d;
    flow = ZERO;
  }
  out.series = { dates, values };
  out.end_value = dates.length > 0 ? lastValue.toDecimalPlaces(10).toFixed() : null;
  out.data_quality.incomplete_nav_dates_count = incomplete;
  if (incomplete > 0) {
    out.warnings.push({
      code: "nav_incomplete", message: `${incomplete} day(s) had a held asset without a price; its value was left out of those days`,
      details: { days: incomplete }, degrades_result: true,
    });
  }
}

function sliceValue(d: { assetValues: Map<number, Decimal> | null }, slice: Set<number>): Decimal {
  let s = ZERO;
  for (const [id, v] of d.assetValues ?? []) if (slice.has(id)) s = s.plus(v);
  return s;
}
function sliceValueOrNav(d: { nav: Decimal; assetValues: Map<number, Decimal> | null }, slice: Set<number> | null): Decimal {
  return slice ? sliceValue(d, slice) : d.nav;
}

function benchmarks(prices: Pricer, assets: readonly AssetInfo[], quotes: Record<number, DayColumn>, req: RiskDataRequest, out: RiskData): void {
  for (const a of assets) {
    const dates: string[] = [];
    const values: number[] = [];
    for (const d of columnDates(quotes[a.id] ?? EMPTY_COLUMN)) {
      if (d < req.start || d > req.end) continue;
      const v = prices.unit(a.id, d);
      if (v !== null) { dates.push(d); values.push(v); }
    }
    out.benchmarks[a.id] = { dates, values };
  }
}
