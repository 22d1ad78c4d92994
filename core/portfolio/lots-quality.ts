import type { Decimal } from "../money/decimal.ts";
import type { LedgerFindings } from "./lots-model.ts";
import type { DataQualityIssue, LotFxSource, LotsDataQuality } from "./lots-types.ts";

export interface QualityInput {
  asset: { id: number; name: string };
  findings: LedgerFindings;
  fx: readonly LotFxSource[];
  fxGaps: Map<string, string[]>;
  /** Open lots valued at cost on the end date (no price). */
  lotsAtCost: number;
  orphan: { fees: Decimal; income: Decimal; taxes: Decimal };
  target: string;
}

function issue(fields: Partial<DataQualityIssue> & Pick<DataQualityIssue, "code" | "severity" | "message_i18n_key">): DataQualityIssue {
  return {
    domain: "portfolio", count: 1, affected_asset_ids: [], affected_asset_names: [], affected_fx_pairs: [], cta_action: null,
    cta_target: null, message_params: {}, date_range: null, group: null, ...fields,
  };
}

const span = (dates: string[]) => (dates.length === 0 ? null : { start: dates[0]!, end: dates.at(-1)! });

/** The analysis' `data_quality` (docs/portfolio.md "Data quality", lots codes in docs/portfolio-lots.md). */
export function lotsDataQuality(q: QualityInput): LotsDataQuality {
  const issues: DataQualityIssue[] = [];
  const asset = { affected_asset_ids: [q.asset.id], affected_asset_names: [q.asset.name] };
  const navigate = { cta_action: "navigate_asset" as const, cta_target: String(q.asset.id) };
  const txIssue = (code: string, severity: DataQualityIssue["severity"], key: string, rows: { date: string; txId: number }[], group: string | null = null) => {
    if (rows.length === 0) return;
    const dates = rows.map((r) => r.date).sort();
    issues.push(issue({
      code, severity, message_i18n_key: key, count: group ? 1 : rows.length, group, ...asset, ...navigate, date_range: span(dates),
      message_params: { count: group ? 1 : rows.length, transaction_ids: rows.map((r) => r.txId) },
    }));
  };
  txIssue("MISSING_COST_BASIS", "warning", "dataQuality.missingCostBasis", q.findings.unknownCost, "missing_cost_basis");
  txIssue("TRANSFER_PAIR_MISSING", "warning", "dataQuality.transferPairMissing", q.findings.orphanTransfers);
  for (const code of ["SHORT_TRANSFER_NOT_SUPPORTED", "SHORT_ADJUSTMENT_NOT_SUPPORTED"]) {
    const key = code === "SHORT_TRANSFER_NOT_SUPPORTED" ? "dataQuality.shortTransferNotSupported" : "dataQuality.shortAdjustmentNotSupported";
    txIssue(code, "error", key, q.findings.failures.filter((f) => f.code === code));
  }
  const missingFxPairs: LotsDataQuality["missing_fx_pairs"] = [];
  const rates: DataQualityIssue[] = [];
  for (const [from, dates] of [...q.fxGaps].sort(([a], [b]) => a.localeCompare(b))) {
    missingFxPairs.push({ pair: `${from}/${q.target}`, dates });
    const slug = from < q.target ? `${from}-${q.target}` : `${q.target}-${from}`;
    const source = q.fx.find((s) => s.from === from);
    const pairFields = { affected_fx_pairs: [slug], cta_target: slug, date_range: span(dates), count: dates.length };
    if (!source?.configured) {
      issues.push(issue({ code: "MISSING_FX_MARKET", severity: "warning", message_i18n_key: "dataQuality.missingFxMarket",
        cta_action: "add_fx_pair", ...pairFields, message_params: { count: dates.length } }));
    } else if (source.hasProviderRoute) {
      rates.push(issue({ code: "MISSING_FX_RATES", severity: "warning", message_i18n_key: "dataQuality.missingFxRatesAfterSync",
        cta_action: "sync_fx_pair", group: "missing_fx_rates", ...pairFields,
        message_params: { date_from: dates[0]!, date_to: dates.at(-1)!, dates_count: dates.length } }));
    } else {
      rates.push(issue({ code: "MISSING_FX_RATES", severity: "warning", message_i18n_key: "dataQuality.missingFxRatesManual",
        cta_action: "navigate_fx", group: "missing_fx_rates_manual", ...pairFields, message_params: {} }));
    }
  }
  // Grouped codes: params.count is the number of entries of the group.
  for (const r of rates) r.message_params = { count: rates.filter((o) => o.group === r.group).length, ...r.message_params };
  issues.push(...rates);
  if (q.lotsAtCost > 0) {
    issues.push(issue({ code: "CURRENT_PRICE_ASSUMED_AT_COST", severity: "info", message_i18n_key: "dataQuality.currentPriceAssumedAtCost",
      count: q.lotsAtCost, ...asset, ...navigate, message_params: { count: q.lotsAtCost } }));
  }
  if (!q.orphan.income.isZero()) {
    issues.push(issue({ code: "ASSET_INCOME_NO_ELIGIBLE_LOTS", severity: "info", message_i18n_key: "dataQuality.assetIncomeNoEligibleLots",
      ...asset, ...navigate, message_params: { amount: q.orphan.income.toFixed() } }));
  }
  if (!q.orphan.fees.plus(q.orphan.taxes).isZero()) {
    issues.push(issue({ code: "ASSET_COST_NO_ELIGIBLE_LOTS", severity: "info", message_i18n_key: "dataQuality.assetCostNoEligibleLots",
      ...asset, ...navigate, message_params: { amount: q.orphan.fees.plus(q.orphan.taxes).toFixed() } }));
  }
  const partial = issues.some((i) => i.severity === "error" || i.code.startsWith("MISSING_FX_") || i.code === "MISSING_COST_BASIS");
  return {
    issues, data_quality_status: partial ? "partial" : "ok", missing_price_assets: [], missing_fx_pairs: missingFxPairs,
    stale_prices: [], incomplete_nav_dates: [],
  };
}
