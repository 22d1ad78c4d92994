import { describe, expect, test } from "bun:test";
import { DomainError } from "../../../core/errors/domain-error.ts";
import { errorText, redact } from "../../../host/api/mcp/grade.ts";

const answer = {
  currency: "EUR", net_worth: "98765.4321", returns: { twr: { percent: "1.5" } },
  holdings: [{ asset_name: "Canary Corp", weight_percent: "100", quantity: "10", cash: { code: "EUR", amount: "1" } }],
  data_quality: { status: "partial", issues: [{ code: "STALE_PRICE", count: 1, affected_asset_names: ["Canary Corp"], affected_asset_ids: [1], affected_fx_pairs: [] }] },
  transactions: [{ description: "paid 98765.4321", tags: ["x"] }],
};

describe("MCP data grades (one redaction function)", () => {
  test("full keeps everything", () => {
    expect(redact("full", answer)).toEqual(answer);
  });

  test("relative drops amounts, quantities and free text but keeps names, weights and returns", () => {
    const out = redact("relative", answer);
    expect(JSON.stringify(out)).not.toContain("98765");
    expect(out.holdings[0]).toEqual({ asset_name: "Canary Corp", weight_percent: "100" } as any);
    expect(out.returns.twr.percent).toBe("1.5");
    expect(out.data_quality.issues[0]!.affected_asset_names).toEqual(["Canary Corp"]);
  });

  test("aggregate also drops holdings, transactions and the assets named in data-quality details", () => {
    const out = redact("aggregate", answer) as any;
    expect(out.holdings).toBeUndefined();
    expect(out.transactions).toBeUndefined();
    expect(out.data_quality.issues[0]).toEqual({ code: "STALE_PRICE", count: 1, affected_fx_pairs: [] });
  });

  test("the data-quality report resource: relative loses the unpriced holdings' quantities and cost, aggregate the per-asset lists", () => {
    const report = {
      status: "partial", issues: [], missing_fx_pairs: [{ pair: "USD/EUR", dates: ["2024-01-03"] }],
      missing_price_assets: [{ asset_id: 1, asset_name: "Canary Corp", broker_id: 2, first_position_date: "2024-01-02", currency: "EUR", quantity: "10", open_cost_basis: "98765.4321" }],
      stale_prices: [{ asset_id: 1, asset_name: "Canary Corp", last_price_date: "2024-01-02", stale_days: 9 }],
    };
    const rel = redact("relative", report);
    expect(JSON.stringify(rel)).not.toContain("98765");
    expect(rel.missing_price_assets[0]).toEqual({ asset_id: 1, asset_name: "Canary Corp", broker_id: 2, first_position_date: "2024-01-02", currency: "EUR" } as any);
    const agg = redact("aggregate", report) as any;
    expect(agg).toEqual({ status: "partial", issues: [], missing_fx_pairs: [{ pair: "USD/EUR", dates: ["2024-01-03"] }] });
  });

  test("below full an error says only its code, since a message may quote an amount", () => {
    const e = new DomainError("BROKER_NOT_FOUND", "Broker 98765.4321 not found");
    expect(errorText("full", e)).toContain("98765.4321");
    expect(errorText("relative", e)).not.toContain("98765");
    expect(errorText("aggregate", e)).toStartWith("BROKER_NOT_FOUND");
    expect(errorText("relative", new Error("Cannot read 98765.4321"))).toBe("INTERNAL_ERROR: the request failed");
  });
});
