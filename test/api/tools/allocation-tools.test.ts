import { describe, expect, test } from "bun:test";
import { expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { buy, commitOk, createAsset, deposit, looseBroker } from "../transactions/fixtures.ts";

const api = useApi({ users: ["alice", "mallory"] });

async function catalogEntry(code: string) {
  const body = await (await api.as.alice.get("/tools/catalog")).json();
  const e = body.items.find((i: any) => i.tool_code === code);
  return { contract_version: e.contract_version, implementation_version: e.implementation_version, schema_fingerprint: e.schema_fingerprint };
}

async function prices(asset_id: number, close: string) {
  const res = await api.as.alice.post("/assets/prices", [{ asset_id, prices: [{ date: "2024-01-02", close }] }]);
  expect(res.status).toBe(200);
}

describe("allocation tools over HTTP", () => {
  test("the catalog lists pac_allocator and portfolio_rebalancer with the plan operation", async () => {
    const body = await (await api.as.alice.get("/tools/catalog")).json();
    const codes = body.items.map((i: any) => i.tool_code);
    expect(codes).toContain("pac_allocator");
    expect(codes).toContain("portfolio_rebalancer");
    const pac = body.items.find((i: any) => i.tool_code === "pac_allocator");
    expect(pac.operations[0].operation).toBe("plan");
    expect(pac.input_schema.required).toEqual(["budget", "positions", "whole_units"]);
  });

  test("pac_allocator with typed positions returns the pinned result shape", async () => {
    const res = await api.as.alice.post("/tools/compute", {
      request_id: "pac-1",
      items: [{
        correlation_id: "one", tool_code: "pac_allocator", ...(await catalogEntry("pac_allocator")),
        parameters: {
          budget: { code: "EUR", amount: "300" },
          positions: [{ key: "A", price: "100", quantity: "1", target_weight: "0.5" }, { key: "B", price: "50", quantity: "0", target_weight: "0.5" }],
          whole_units: true,
        },
      }],
    });
    const body = await res.json();
    expect(body.results[0].status).toBe("success");
    expect(body.results[0].result).toEqual({
      orders: [{ key: "A", quantity: "1", amount: "100" }, { key: "B", quantity: "4", amount: "200" }],
      cash_left: "0",
      weights_after: [{ key: "A", weight: "0.5" }, { key: "B", weight: "0.5" }],
    });
  });

  test("positions_from feeds the caller's holdings (quantity and current price, keyed by asset id)", async () => {
    const broker = await looseBroker(api.as.alice, "PAC broker");
    const a = createAsset(api.dataDir);
    const b = createAsset(api.dataDir);
    await commitOk(api.as.alice, { creates: [deposit(broker, "1000", "2024-01-01"), buy(broker, a, "4", "-400", "2024-01-02")] });
    await prices(a, "100");
    const res = await api.as.alice.post("/tools/compute", {
      request_id: "pac-2",
      items: [{
        correlation_id: "one", tool_code: "pac_allocator", ...(await catalogEntry("pac_allocator")),
        positions_from: { broker_ids: [broker] },
        parameters: {
          budget: { code: "EUR", amount: "400" },
          positions: [{ key: String(a), target_weight: "0.5" }, { key: String(b), price: "50", target_weight: "0.5" }],
          whole_units: true,
        },
      }],
    });
    const body = await res.json();
    expect(body.results[0].status).toBe("success");
    // 4 × 100 held + 400 budget: goals 400 each, so all 400 go to B (8 units at 50)
    expect(body.results[0].result.orders).toEqual([{ key: String(b), quantity: "8", amount: "400" }]);
  });

  test("positions_from with a broker the caller has no access row for is 404 BROKER_NOT_FOUND", async () => {
    const theirs = await looseBroker(api.as.mallory, "Not yours");
    const res = await api.as.alice.post("/tools/compute", {
      request_id: "pac-3",
      items: [{
        correlation_id: "one", tool_code: "pac_allocator", ...(await catalogEntry("pac_allocator")),
        positions_from: { broker_ids: [theirs] },
        parameters: { budget: { code: "EUR", amount: "100" }, positions: [], whole_units: true },
      }],
    });
    await expectError(res, 404, "BROKER_NOT_FOUND");
  });

  test("portfolio_rebalancer runs through the executor", async () => {
    const res = await api.as.alice.post("/tools/compute", {
      request_id: "rb-1",
      items: [{
        correlation_id: "one", tool_code: "portfolio_rebalancer", ...(await catalogEntry("portfolio_rebalancer")),
        parameters: {
          cash: { code: "EUR", amount: "0" },
          positions: [{ key: "A", price: "10", quantity: "30", target_weight: "0.5" }, { key: "B", price: "10", quantity: "10", target_weight: "0.5" }],
          mode: "buy_and_sell", whole_units: true,
        },
      }],
    });
    const body = await res.json();
    expect(body.results[0].result.orders).toEqual([
      { key: "A", side: "sell", quantity: "10", amount: "100" }, { key: "B", side: "buy", quantity: "10", amount: "100" },
    ]);
  });

  test("amounts outside the supported range of decimals are invalid_parameters with out_of_range issues; the largest still plan", async () => {
    const rebalance = async (cash: string, minOrder: string) => (await (await api.as.alice.post("/tools/compute", {
      request_id: "rb-range",
      items: [{
        correlation_id: "one", tool_code: "portfolio_rebalancer", ...(await catalogEntry("portfolio_rebalancer")),
        parameters: {
          cash: { code: "EUR", amount: cash }, min_order_amount: minOrder,
          positions: [{ key: "A", price: "10", quantity: "30", target_weight: "0.5" }, { key: "B", price: "10", quantity: "10", target_weight: "0.5" }],
          mode: "buy_only", whole_units: false,
        },
      }],
    })).json()).results[0];
    const refused = await rebalance("12345678901234567", `0.${"0".repeat(18)}1`); // 17 integer digits; 19 decimals
    expect(refused.status).toBe("error");
    expect(refused.error.code).toBe("invalid_parameters");
    expect(refused.error.issues).toEqual([
      { code: "out_of_range", path: ["parameters", "cash", "amount"] },
      { code: "out_of_range", path: ["parameters", "min_order_amount"] },
    ]);
    const largest = await rebalance("9999999999999999", `0.${"0".repeat(17)}1`); // 16 integer digits; 18 decimals
    expect(largest.status).toBe("success");
    expect(largest.result.cash_after).toBe("0");
  });
});
