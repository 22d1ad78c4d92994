import { describe, expect, test } from "bun:test";
import { brokerFinpensionPlugin } from "../../plugins/broker-finpension/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { expectEveryLineAccounted } from "./brim-accounting.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// The finpension export as it circulates in public converters' test suites (quoted header names,
// six-decimal CHF cash flows, fractional fund units, the pillar 3a categories and the vested
// benefits/BVG ones: "Portfolio Transaction", "Dividend and Interest Distributions", "Transfer
// vested benefits"), values invented. Each line's classification written down by hand first.
const sample = fixture("finpension", "transactions-3a.csv");
const degiro = fixture("degiro", "Account.csv");
runImportPluginContract(brokerFinpensionPlugin, { sample: { ...sample, foreign: degiro.file, foreignBytes: degiro.bytes } });

const parse = async (name: string) => (await brokerFinpensionPlugin.create({} as never)).parse(fixture("finpension", name));

describe("finpension transactions export", () => {
  test("pillar 3a: deposit, fund purchases and a sale (negative units), distribution, interest, the flat-rate fee; six decimals kept", async () => {
    const r = await parse("transactions-3a.csv");
    expect(r.detectedFormat).toBe("finpension/transactions");
    expect(pinAll(r)).toEqual([
      "2 FEE 2024-10-07 q=0 -2.154 CHF -",
      "3 INTEREST 2024-09-02 q=0 0.35 CHF -",
      "4 BUY 2024-07-11 q=0.005 -4.1505 CHF CH0189956813",
      "5 SELL 2024-07-11 q=-0.004 6.601 CHF CH0033782431",
      "6 DIVIDEND 2024-05-13 q=0 2.345678 CHF CH0429081620",
      "7 BUY 2024-01-16 q=0.85 -1275 CHF CH0429081620",
      "8 BUY 2024-01-16 q=0.1 -160 CHF CH0033782431",
      "9 BUY 2024-01-16 q=0.2 -164 CHF CH0189956813",
      "10 DEPOSIT 2024-01-10 q=0 1650 CHF -",
    ]);
    expect(r.skippedRows).toEqual([]);
    expectEveryLineAccounted("finpension", "transactions-3a.csv", r, 1);
  });

  test("each kind's fields: a purchase, a sale, a distribution carry the fund; cash lines none", async () => {
    const r = await parse("transactions-3a.csv");
    const one = (row: number) => r.transactions.find((t) => t.row === row);
    const fund = { isin: "CH0033782431", assetName: "CSIF (CH) Equity Switzerland Large Cap Blue ZB" };
    expect(one(8)).toEqual({ row: 8, date: "2024-01-16", description: `Buy: ${fund.assetName}`, type: "BUY", ...fund, quantity: "0.1", cash: { amount: "-160", currency: "CHF" } } as never);
    expect(one(5)).toEqual({ row: 5, date: "2024-07-11", description: `Sell: ${fund.assetName}`, type: "SELL", ...fund, quantity: "-0.004", cash: { amount: "6.601", currency: "CHF" } } as never);
    expect(one(6)).toEqual({
      row: 6, date: "2024-05-13", description: "Dividend: CSIF (CH) III Equity World ex CH Blue - Pension Fund Plus ZB", type: "DIVIDEND", isin: "CH0429081620",
      assetName: "CSIF (CH) III Equity World ex CH Blue - Pension Fund Plus ZB", assetType: "FUND", quantity: "0", cash: { amount: "2.345678", currency: "CHF" },
    } as never);
    expect(one(2)).toEqual({ row: 2, date: "2024-10-07", description: "Flat-rate administrative fee", type: "FEE", quantity: "0", cash: { amount: "-2.154", currency: "CHF" } } as never);
    expect(one(3)).toEqual({ row: 3, date: "2024-09-02", description: "Interests", type: "INTEREST", quantity: "0", cash: { amount: "0.35", currency: "CHF" } } as never);
    expect(one(10)).toEqual({ row: 10, date: "2024-01-10", description: "Deposit", type: "DEPOSIT", quantity: "0", cash: { amount: "1650", currency: "CHF" } } as never);
  });

  test("vested benefits: Portfolio Transaction a buy or a sale by its sign, distributions, the transfer in a deposit; a fee of zero a skipped row", async () => {
    const r = await parse("transactions-vested-benefits.csv");
    expect(pinAll(r)).toEqual([
      "2 SELL 2025-02-10 q=-0.01 17.5 CHF CH0429081620",
      "3 FEE 2025-01-21 q=0 -0.338941 CHF -",
      "4 INTEREST 2025-01-21 q=0 0.05 CHF -",
      "5 DIVIDEND 2024-12-05 q=0 1.65 CHF CH0429081620",
      "7 BUY 2024-10-22 q=0.15 -254 CHF CH0429081620",
      "8 DEPOSIT 2024-10-16 q=0 260 CHF -",
    ]);
    expect(r.skippedRows).toEqual([{ line: 6, reason: 'Line 6: "Flat-rate administration fee" (2024-11-30, 0.000000 CHF) has no cash flow; not imported, nothing to enter: it moves no cash' }]);
    expectEveryLineAccounted("finpension", "transactions-vested-benefits.csv", r, 1);
  });

  test("detection claims both exports by content and not a DEGIRO file", async () => {
    const plugin = await brokerFinpensionPlugin.create({} as never);
    expect(plugin.accepts({ ...sample.file, filename: "upload.csv" })).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(fixture("finpension", "transactions-vested-benefits.csv").file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});
