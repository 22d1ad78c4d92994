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
export function input(allocationHistory: boolean, flags: Partial<ReportInput["flags"]> = {}): ReportInput {
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
    flags: { summary: true, history: true, allocationHistory, breakdown: false, positionsContribution: false, ...flags },
    requested: { start: null, end: null, brokerIds: null }, generatedAt: "2024-01-10T00:00:00Z",
  };
}

