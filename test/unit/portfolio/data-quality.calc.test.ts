import { describe, expect, test } from "bun:test";
import {
  dataQualityStatus, fxIssues, missingPriceIssue, navIncompleteIssue, stalePriceIssue,
} from "../../../core/portfolio/data-quality.calc.ts";

describe("data quality", () => {
  test("status: partial when something is missing, carried_forward when only prices are stale, else ok", () => {
    const stale = stalePriceIssue([{ asset_id: 1, name: "A", last_price_date: "2024-01-01", stale_days: 9 }]);
    const missing = missingPriceIssue([{ id: 2, name: "B" }]);
    expect(dataQualityStatus([])).toBe("ok");
    expect(dataQualityStatus(stale)).toBe("carried_forward");
    expect(dataQualityStatus([...stale, ...missing])).toBe("partial");
    expect(dataQualityStatus(navIncompleteIssue(["2024-01-02"]))).toBe("partial");
  });

  test("MISSING_PRICE is one error issue naming every asset, its CTA on the first", () => {
    const [i] = missingPriceIssue([{ id: 2, name: "B" }, { id: 3, name: "C" }]);
    expect(i).toMatchObject({ code: "MISSING_PRICE", severity: "error", affected_asset_ids: [2, 3], cta_target: "2", message_params: { count: 2 } });
  });

  test("FX gaps: one issue per pair, MISSING_FX_MARKET without configuration, grouped MISSING_FX_RATES for manual pairs", () => {
    const issues = fxIssues([
      { from: "GBP", to: "EUR", slug: "EUR-GBP", kind: "none", dates: new Set(["2024-01-03"]) },
      { from: "USD", to: "EUR", slug: "EUR-USD", kind: "manual", dates: new Set(["2024-01-02", "2024-01-01"]) },
    ]);
    expect(issues.map((i) => [i.code, i.group, i.cta_action, i.date_range])).toEqual([
      ["MISSING_FX_MARKET", null, "add_fx_pair", { start: "2024-01-03", end: "2024-01-03" }],
      ["MISSING_FX_RATES", "missing_fx_rates_manual", "navigate_fx", { start: "2024-01-01", end: "2024-01-02" }],
    ]);
  });
});
