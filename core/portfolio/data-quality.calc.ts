/**
 * The portfolio data-quality report (docs/portfolio.md "Data quality"): issue
 * objects with their exact severities, groups, message keys, CTAs and params.
 */
import type { MissingConversion } from "./fx-table.calc.ts";

export type Severity = "error" | "warning" | "info";
export type CtaAction = "navigate_asset" | "navigate_fx" | "add_fx_pair" | "sync_fx_pair" | "sync_asset_prices";

export interface DataQualityIssue {
  domain: "portfolio";
  code: string;
  severity: Severity;
  count: number;
  affected_asset_ids: number[];
  affected_asset_names: string[];
  affected_fx_pairs: string[];
  cta_action: CtaAction | null;
  cta_target: string | null;
  message_i18n_key: string;
  message_params: MessageParams;
  date_range: { start: string; end: string } | null;
  group: string | null;
}

/** Parameters of an issue's message (for translations). */
export type MessageParams = Record<string, string | number | number[] | null>;

export type DataQualityStatus = "ok" | "carried_forward" | "partial";

export interface StalePrice {
  asset_id: number;
  name: string;
  last_price_date: string;
  stale_days: number;
}

/** An open position without a price on the end date, on the wire. */
export interface MissingPriceAssetDto {
  asset_id: number;
  symbol: string | null;
  name: string;
  broker_id: number;
  broker_name: string | null;
  first_position_date: string | null;
  quantity: string;
  open_cost_basis: string | null;
  currency: string;
}

export interface DataQualityReport {
  issues: DataQualityIssue[];
  data_quality_status: DataQualityStatus;
  missing_price_assets: MissingPriceAssetDto[];
  missing_fx_pairs: { pair: string; dates: string[] }[];
  stale_prices: StalePrice[];
  incomplete_nav_dates: string[];
}

type IssueFields = Pick<DataQualityIssue, "code" | "severity" | "message_i18n_key"> & Partial<DataQualityIssue>;

export function issue(f: IssueFields): DataQualityIssue {
  const ids = f.affected_asset_ids ?? [];
  return {
    domain: "portfolio", count: f.count ?? ids.length, affected_asset_ids: ids, affected_asset_names: f.affected_asset_names ?? [],
    affected_fx_pairs: f.affected_fx_pairs ?? [], cta_action: f.cta_action ?? null, cta_target: f.cta_target ?? null,
    message_params: f.message_params ?? {}, date_range: f.date_range ?? null, group: f.group ?? null, ...f,
  } as DataQualityIssue;
}

export interface AssetRef {
  id: number;
  name: string;
}

/** MISSING_PRICE: open positions without any price on the end date (one issue, assets once each). */
export function missingPriceIssue(assets: AssetRef[]): DataQualityIssue[] {
  if (assets.length === 0) return [];
  return [issue({
    code: "MISSING_PRICE", severity: "error", message_i18n_key: "dataQuality.missingPrice",
    affected_asset_ids: assets.map((a) => a.id), affected_asset_names: assets.map((a) => a.name),
    cta_action: "navigate_asset", cta_target: String(assets[0]!.id), message_params: { count: assets.length },
  })];
}

/** TRANSACTION_IMPLIED (docs/portfolio.md "Data quality"): one issue per open position valued at a trade price. */
export function transactionImpliedIssues(positions: AssetRef[], asOfDate: string): DataQualityIssue[] {
  return positions.map((a) => issue({
    code: "TRANSACTION_IMPLIED", severity: "warning", message_i18n_key: "dataQuality.transactionImplied", group: "transaction_implied",
    affected_asset_ids: [a.id], affected_asset_names: [a.name], count: positions.length,
    cta_action: "navigate_asset", cta_target: String(a.id), message_params: { count: positions.length, as_of_date: asOfDate },
  }));
}

/** STALE_PRICE: one issue listing each stale asset once. */
export function stalePriceIssue(stale: StalePrice[]): DataQualityIssue[] {
  if (stale.length === 0) return [];
  return [issue({
    code: "STALE_PRICE", severity: "warning", message_i18n_key: "dataQuality.stalePrice",
    affected_asset_ids: stale.map((s) => s.asset_id), affected_asset_names: stale.map((s) => s.name),
    cta_action: "sync_asset_prices", cta_target: String(stale[0]!.asset_id), message_params: { count: stale.length },
  })];
}

/** MISSING_COST_BASIS: one issue per asset, grouped. */
export function missingCostBasisIssues(assets: AssetRef[]): DataQualityIssue[] {
  return assets.map((a) => issue({
    code: "MISSING_COST_BASIS", severity: "warning", message_i18n_key: "dataQuality.missingCostBasis", group: "missing_cost_basis",
    affected_asset_ids: [a.id], affected_asset_names: [a.name], count: assets.length,
    cta_action: "navigate_asset", cta_target: String(a.id), message_params: { count: assets.length },
  }));
}

/** MISSING_FX_MARKET and MISSING_FX_RATES: one issue per pair. */
export function fxIssues(missing: MissingConversion[]): DataQualityIssue[] {
  const market = missing.filter((m) => m.kind === "none");
  const provider = missing.filter((m) => m.kind === "provider");
  const manual = missing.filter((m) => m.kind === "manual");
  return [
    ...market.map((m) => issue({
      code: "MISSING_FX_MARKET", severity: "warning", message_i18n_key: "dataQuality.missingFxMarket", affected_fx_pairs: [m.slug],
      count: market.length, cta_action: "add_fx_pair", cta_target: m.slug, message_params: { count: market.length }, date_range: span(m.dates),
    })),
    ...provider.map((m) => {
      const range = span(m.dates)!;
      return issue({
        code: "MISSING_FX_RATES", severity: "warning", message_i18n_key: "dataQuality.missingFxRatesAfterSync", group: "missing_fx_rates",
        affected_fx_pairs: [m.slug], count: provider.length, cta_action: "sync_fx_pair", cta_target: m.slug, date_range: range,
        message_params: { count: provider.length, date_from: range.start, date_to: range.end, dates_count: m.dates.size },
      });
    }),
    ...manual.map((m) => issue({
      code: "MISSING_FX_RATES", severity: "warning", message_i18n_key: "dataQuality.missingFxRatesManual", group: "missing_fx_rates_manual",
      affected_fx_pairs: [m.slug], count: manual.length, cta_action: "navigate_fx", cta_target: m.slug, date_range: span(m.dates),
      message_params: { count: manual.length },
    })),
  ];
}

/**
 * FX_PRIVATE_RATES_USED: one issue naming the pairs where the requesting user's private rates made
 * a conversion the shared FX data could not, so the figures are theirs alone (docs/fx.md).
 */
export function fxPrivateRatesIssue(slugs: string[]): DataQualityIssue[] {
  if (slugs.length === 0) return [];
  return [issue({
    code: "FX_PRIVATE_RATES_USED", severity: "info", message_i18n_key: "dataQuality.fxPrivateRatesUsed", affected_fx_pairs: slugs,
    count: slugs.length, cta_action: "navigate_fx", cta_target: slugs[0]!, message_params: { count: slugs.length },
  })];
}

/** `[{pair: "FROM/TO", dates}]` of every conversion that could not be made. */
export function missingFxPairs(missing: MissingConversion[]): { pair: string; dates: string[] }[] {
  return missing.map((m) => ({ pair: `${m.from}/${m.to}`, dates: [...m.dates].sort() }));
}

export function navIncompleteIssue(dates: string[]): DataQualityIssue[] {
  if (dates.length === 0) return [];
  return [issue({
    code: "NAV_INCOMPLETE", severity: "info", message_i18n_key: "dataQuality.navIncomplete", count: dates.length,
    message_params: { count: dates.length }, date_range: { start: dates[0]!, end: dates.at(-1)! },
  })];
}

export function mwrrNotCalculableIssue(reason: string): DataQualityIssue {
  return issue({ code: "MWRR_NOT_CALCULABLE", severity: "info", message_i18n_key: "dataQuality.mwrrNotCalculable", count: 0, message_params: { reason } });
}

export function mwrrSeriesUnreliableIssue(p: { summaryCum: number; seriesCum: number | null; divergencePp: number | null; firstBadDate: string }): DataQualityIssue {
  return issue({
    code: "MWRR_SERIES_UNRELIABLE", severity: "warning", message_i18n_key: "dataQuality.mwrrSeriesUnreliable", count: 1,
    message_params: { summary_cum: p.summaryCum, series_cum: p.seriesCum, divergence_pp: p.divergencePp, first_bad_date: p.firstBadDate },
  });
}

const PARTIAL_CODES = new Set(["MISSING_PRICE", "MISSING_FX_MARKET", "MISSING_FX_RATES", "NAV_INCOMPLETE", "MISSING_COST_BASIS"]);

/** `partial` when something is missing, `carried_forward` when only stale prices are wrong, else `ok`. */
export function dataQualityStatus(issues: readonly DataQualityIssue[]): DataQualityStatus {
  if (issues.some((i) => PARTIAL_CODES.has(i.code))) return "partial";
  if (issues.some((i) => i.code === "STALE_PRICE")) return "carried_forward";
  return "ok";
}

function span(dates: Set<string>): { start: string; end: string } | null {
  if (dates.size === 0) return null;
  const sorted = [...dates].sort();
  return { start: sorted[0]!, end: sorted.at(-1)! };
}
