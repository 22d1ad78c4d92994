import { describe, expect, test } from "bun:test";
import { replay } from "../../../core/portfolio/replay.calc.ts";
import { fxSeriesKey, type LedgerTx, type ReportInput } from "../../../core/portfolio/report-input.ts";

let nextId = 1;
const tx = (over: Partial<LedgerTx> & Pick<LedgerTx, "type" | "date">): LedgerTx => ({
  id: nextId++, brokerId: 1, assetId: null, quantity: "0", amount: null, currency: null, relatedId: null, partnerBrokerId: null,
  partnerDate: null, costBasisOverride: null, costBasisCurrency: null, splitLinked: false, ...over,
});
const asset = (id: number, currency: string, quoteBaseQuantity = "1") => ({
  id, name: `A${id}`, ticker: null, type: "STOCK", currency, quoteBaseQuantity, hasProvider: false, sectors: null, geography: null,
});

/** Two brokers (one a one-third share), EUR and USD assets with repeating-decimal quantities and prices, a bond quoted per 100. */
function input(allocationHistory: boolean): ReportInput {
  nextId = 1;
  return {
    brokers: [{ id: 1, name: "A", scale: "1" }, { id: 2, name: "B", scale: "0.333333" }],
    transactions: [
      tx({ type: "DEPOSIT", date: "2024-01-01", amount: "100000", currency: "EUR" }),
      tx({ type: "DEPOSIT", date: "2024-01-01", brokerId: 2, amount: "50000", currency: "USD" }),
      tx({ type: "BUY", date: "2024-01-02", assetId: 1, quantity: "3.125", amount: "-312.5", currency: "EUR" }),
      tx({ type: "BUY", date: "2024-01-02", brokerId: 2, assetId: 2, quantity: "7", amount: "-700.77", currency: "USD" }),
      tx({ type: "BUY", date: "2024-01-03", assetId: 3, quantity: "10", amount: "-990", currency: "EUR" }),
      tx({ type: "SELL", date: "2024-01-05", assetId: 1, quantity: "-1.1", amount: "111.11", currency: "EUR" }),
      tx({ type: "BUY", date: "2024-01-06", brokerId: 2, assetId: 2, quantity: "0.333", amount: "-33.3", currency: "USD" }),
    ],
    assets: [asset(1, "EUR"), asset(2, "USD"), asset(3, "EUR", "100")],
    quotes: {
      1: { dates: ["2024-01-02", "2024-01-04", "2024-01-08"], closes: ["100.1234", "101.5", "99.99999"] },
      2: { dates: ["2024-01-03", "2024-01-05"], closes: ["100.07", "98.123456"] },
      3: { dates: ["2024-01-03"], closes: ["9875.5"] },
    },
    splits: [],
    fxPairs: [{ base: "EUR", quote: "USD", routes: [] }],
    fxSeries: { [fxSeriesKey("EUR", "USD", "MANUAL")]: { dates: ["2024-01-01", "2024-01-04"], rates: ["1.1", "1.0937"] } },
    target: "EUR", start: null, end: "2024-01-10",
    flags: { summary: true, history: true, allocationHistory, breakdown: false, positionsContribution: false },
    requested: { start: null, end: null, brokerIds: null }, generatedAt: "2024-01-10T00:00:00Z",
  };
}

describe("replay", () => {
  test("exact scaled-integer valuation: every day's figures equal the per-asset Decimal path to the last digit", () => {
    const fast = replay(input(false)).days;
    const decimal = replay(input(true)).days;
    expect(fast.length).toBe(10);
    for (let i = 0; i < fast.length; i++) {
      for (const k of ["cash", "marketValue", "nav", "openCost", "unrealized", "capitalBaseline", "flow"] as const) {
        expect(`${fast[i]!.date} ${k} ${fast[i]![k].toFixed()}`).toBe(`${decimal[i]!.date} ${k} ${decimal[i]![k].toFixed()}`);
      }
    }
  });

  test("a day's market value is Σ quantity × price × rate over assets (share-weighted)", () => {
    const d = replay(input(false)).days.find((x) => x.date === "2024-01-03")!;
    // EUR: 3.125 × 100.1234 + 10 × 9875.5 / 100; USD: 7 × 0.333333 × 100.07 at 1 EUR = 1.1 USD
    const expected = 3.125 * 100.1234 + 10 * 98.755 + (7 * 0.333333 * 100.07) / 1.1;
    expect(d.marketValue.toNumber()).toBeCloseTo(expected, 9);
  });
});
