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
    flags: { summary: true, history: true, allocationHistory, breakdown: false, positionsContribution: false, periodReturns: false, incomePayments: false, ...flags },
    requested: { start: null, end: null, brokerIds: null }, generatedAt: "2024-01-10T00:00:00Z",
  };
}


/**
 * One EUR broker whose quote-valued sums leave the safe-integer range (core/portfolio/scaled-valuation.ts):
 * quantity scale 6, price scale 4. 2 January: a short of 90.000001 × 9000.1234 (−8,100,111,150,001,234
 * scaled) and 180.000003 × 9000.4321 (16,200,778,050,012,963: past 2^53 = 9,007,199,254,740,992 alone,
 * odd, so a double would round it, while the day's total is back in the safe range). 3 January: the
 * short covered, then 90.000003 and 90.000002 at 9000.4321 whose sum (16,200,778,230,021,605, odd)
 * passes 2^53, and 123456789.123456 × 98765.4321 far beyond it.
 */
export function wideInput(allocationHistory: boolean): ReportInput {
  nextId = 1;
  const closes = (date: string, close: string) => ({ dates: [date], closes: [close] });
  return {
    brokers: [{ id: 1, name: "A", scale: "1" }],
    transactions: [
      tx({ type: "DEPOSIT", date: "2024-01-01", amount: "1000000000000000", currency: "EUR" }),
      tx({ type: "SELL", date: "2024-01-01", assetId: 3, quantity: "-90.000001", amount: "810011.115", currency: "EUR" }),
      tx({ type: "BUY", date: "2024-01-02", assetId: 4, quantity: "180.000003", amount: "-1620077.805", currency: "EUR" }),
      tx({ type: "BUY", date: "2024-01-03", assetId: 3, quantity: "90.000001", amount: "-810011.115", currency: "EUR" }),
      tx({ type: "BUY", date: "2024-01-03", assetId: 1, quantity: "90.000003", amount: "-810038.916", currency: "EUR" }),
      tx({ type: "BUY", date: "2024-01-03", assetId: 2, quantity: "90.000002", amount: "-810038.907", currency: "EUR" }),
      tx({ type: "BUY", date: "2024-01-03", assetId: 5, quantity: "123456789.123456", amount: "-12193263122356.5", currency: "EUR" }),
    ],
    assets: [asset(1, "EUR"), asset(2, "EUR"), asset(3, "EUR"), asset(4, "EUR"), asset(5, "EUR")],
    quotes: {
      1: closes("2024-01-03", "9000.4321"),
      2: closes("2024-01-03", "9000.4321"),
      3: closes("2024-01-01", "9000.1234"),
      4: closes("2024-01-02", "9000.4321"),
      5: closes("2024-01-03", "98765.4321"),
    },
    splits: [],
    fxPairs: [],
    fxSeries: {},
    target: "EUR", start: null, end: "2024-01-04",
    flags: { summary: true, history: true, allocationHistory, breakdown: false, positionsContribution: false, periodReturns: false, incomePayments: false },
    requested: { start: null, end: null, brokerIds: null }, generatedAt: "2024-01-04T00:00:00Z",
  };
}
