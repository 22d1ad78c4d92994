import { describe, expect, test } from "bun:test";
import { Decimal } from "../../sdk/index.ts";
import { runCalculationToolContract } from "../../sdk/testing/index.ts";
import { portfolioRebalancerPlugin, type RebalanceInput, rebalance as run } from "./portfolio-rebalancer.ts";

const rebalance = (input: unknown) => run(input as RebalanceInput);
const pos = (key: string, price: string, quantity: string, target_weight: string) => ({ key, price, quantity, target_weight });

runCalculationToolContract(portfolioRebalancerPlugin, {
  expectedOutput: {
    orders: [{ key: "A", side: "sell", quantity: "10", amount: "100" }, { key: "B", side: "buy", quantity: "10", amount: "100" }],
    cash_after: "0",
    cash_weight_after: "0",
    weights_after: [{ key: "A", weight: "0.5" }, { key: "B", weight: "0.5" }],
    warnings: [],
  },
  sampleInput: {
    cash: { code: "EUR", amount: "0" },
    positions: [pos("A", "10", "30", "0.5"), pos("B", "10", "10", "0.5")],
    mode: "buy_and_sell",
    whole_units: true,
  },
});

describe("portfolio_rebalancer", () => {
  test("buy_and_sell sells the overweight excess and buys the underweight with the proceeds", () => {
    const out = rebalance({ cash: { code: "EUR", amount: "0" }, positions: [pos("A", "10", "30", "0.5"), pos("B", "10", "10", "0.5")], mode: "buy_and_sell", whole_units: true });
    expect(out.orders).toEqual([{ key: "A", side: "sell", quantity: "10", amount: "100" }, { key: "B", side: "buy", quantity: "10", amount: "100" }] as never);
  });

  test("buy_only never sells and only spends the cash", () => {
    const out = rebalance({ cash: { code: "EUR", amount: "200" }, positions: [pos("A", "10", "40", "0.5"), pos("B", "10", "10", "0.5")], mode: "buy_only", whole_units: true });
    expect(out.orders.every((o) => o.side === "buy")).toBe(true);
    expect(out.orders).toEqual([{ key: "B", side: "buy", quantity: "20", amount: "200" }] as never);
    expect(String(out.cash_after)).toBe("0");
  });

  test("the cash band's minimum is kept: buys leave at least min_weight of the total in cash", () => {
    const out = rebalance({
      cash: { code: "EUR", amount: "500" }, positions: [pos("A", "10", "25", "0.45"), pos("B", "10", "25", "0.45")],
      mode: "buy_only", whole_units: true, cash_band: { min_weight: "0.1", max_weight: "0.2" },
    });
    expect(new Decimal(out.cash_weight_after).gte("0.1")).toBe(true);
    expect(out.warnings).toEqual([]);
  });

  test("a cash target outside the cash band is refused by the input schema", () => {
    const input = {
      cash: { code: "EUR", amount: "0" }, positions: [pos("A", "10", "1", "0.5"), pos("B", "10", "1", "0.5")],
      mode: "buy_only", whole_units: true, cash_band: { min_weight: "0.1", max_weight: "0.2" },
    };
    expect(inputSchema().safeParse(input).success).toBe(false);
  });

  test("orders under the minimum order amount are not placed", () => {
    const out = rebalance({
      cash: { code: "EUR", amount: "0" }, positions: [pos("A", "10", "21", "0.5"), pos("B", "10", "19", "0.5")],
      mode: "buy_and_sell", whole_units: true, min_order_amount: "50",
    });
    expect(out.orders).toEqual([]);
  });

  test("it never sells more than is held and never ends with negative cash (random cases)", () => {
    let seed = 7;
    const r = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let k = 0; k < 200; k++) {
      const n = 1 + Math.floor(r() * 5);
      const raw = Array.from({ length: n }, () => 1 + Math.floor(r() * 9));
      const sum = raw.reduce((s, x) => s + x, 0) + Math.floor(r() * 3);
      const positions = raw.map((x, i) => pos(`P${i}`, (1 + r() * 200).toFixed(2), String(Math.floor(r() * 20)), new Decimal(x).div(sum).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed()));
      const input = { cash: { code: "EUR", amount: (r() * 1000).toFixed(2) }, positions, mode: r() < 0.5 ? "buy_only" : "buy_and_sell", whole_units: r() < 0.6 };
      const out = rebalance(input);
      expect(new Decimal(out.cash_after).gte(0)).toBe(true);
      for (const o of out.orders) {
        if (o.side === "sell") {
          expect(input.mode).toBe("buy_and_sell");
          expect(new Decimal(o.quantity).lte(positions.find((p) => p.key === o.key)!.quantity)).toBe(true);
        }
      }
    }
  });
});

function inputSchema() {
  return (portfolioRebalancerPlugin.create({} as never) as { inputSchema: { safeParse(v: unknown): { success: boolean } } }).inputSchema;
}
