import { describe, expect, test } from "bun:test";
import { dayNumber } from "../../../core/dates/calendar.ts";
import type { SqlReader } from "../../../core/db/sql-reader.ts";
import { buildReport } from "../../../core/portfolio/report.calc.ts";
import { loadTransactions, mergedByDateAndId } from "../../../core/portfolio/report-input.loader.ts";
import { fxSeriesKey, type LedgerTx, type ReportInput } from "../../../core/portfolio/report-input.ts";
import { spliceTxColumns, type TxColumns, txColumnsOf, TxTable } from "../../../core/portfolio/tx-columns.ts";

const tx = (id: number, over: Partial<LedgerTx> & Pick<LedgerTx, "type" | "date" | "brokerId">): LedgerTx => ({
  id, assetId: null, quantity: "0", amount: null, currency: null, relatedId: null, partnerBrokerId: null, partnerDate: null,
  costBasisOverride: null, costBasisCurrency: null, splitLinked: false, ...over,
});
const asset = (id: number, currency: string) => ({
  id, name: `A${id}`, ticker: null, type: "STOCK", currency, quoteBaseQuantity: "1", hasProvider: false, sectors: null, geography: null,
});

/** 18 decimals (a crypto quantity) and 21 significant digits: beyond what a double holds exactly. */
const WIDE_QTY = "0.123456789012345678";
const WIDE_AMOUNT = "-12.3456789012345678901";

/**
 * Three brokers (one a half share), EUR, USD, GBP and CHF: an asset transfer in transit with a
 * cost-basis override on arrival, a cash transfer in transit, an FX conversion, a 2:1 split, an
 * adjustment with an override in another currency, income and taxes in a third currency, a sale and
 * a buy on one day, an external transfer out, values written with trailing zeros and beyond 15 digits.
 */
function rich(allocationHistory: boolean): ReportInput {
  const flags = { summary: true, history: true, allocationHistory, breakdown: true, positionsContribution: true, periodReturns: true, incomePayments: true };
  return {
    brokers: [{ id: 1, name: "A", scale: "1" }, { id: 2, name: "B", scale: "0.5" }, { id: 3, name: "C", scale: "1" }],
    transactions: [
      tx(1, { type: "DEPOSIT", date: "2024-01-01", brokerId: 1, amount: "10000.00", currency: "EUR" }),
      tx(2, { type: "DEPOSIT", date: "2024-01-01", brokerId: 2, amount: "5000", currency: "USD" }),
      tx(3, { type: "BUY", date: "2024-01-02", brokerId: 1, assetId: 1, quantity: "10", amount: "-1000.50", currency: "EUR" }),
      tx(4, { type: "BUY", date: "2024-01-02", brokerId: 2, assetId: 2, quantity: WIDE_QTY, amount: WIDE_AMOUNT, currency: "USD" }),
      tx(5, { type: "FEE", date: "2024-01-02", brokerId: 1, amount: "-1.5", currency: "EUR" }),
      tx(6, { type: "TRANSFER", date: "2024-01-03", brokerId: 1, assetId: 1, quantity: "-4", relatedId: 7, partnerBrokerId: 2, partnerDate: "2024-01-05" }),
      tx(8, { type: "CASH_TRANSFER", date: "2024-01-04", brokerId: 2, amount: "-100", currency: "USD", relatedId: 9, partnerBrokerId: 3, partnerDate: "2024-01-06" }),
      tx(10, { type: "FX_CONVERSION", date: "2024-01-04", brokerId: 1, amount: "-500", currency: "EUR", relatedId: 11, partnerBrokerId: 1, partnerDate: "2024-01-04" }),
      tx(11, { type: "FX_CONVERSION", date: "2024-01-04", brokerId: 1, amount: "430.25", currency: "GBP", relatedId: 10, partnerBrokerId: 1, partnerDate: "2024-01-04" }),
      tx(7, {
        type: "TRANSFER", date: "2024-01-05", brokerId: 2, assetId: 1, quantity: "4", relatedId: 6, partnerBrokerId: 1, partnerDate: "2024-01-03",
        costBasisOverride: "101.250", costBasisCurrency: "EUR",
      }),
      tx(9, { type: "CASH_TRANSFER", date: "2024-01-06", brokerId: 3, amount: "100", currency: "USD", relatedId: 8, partnerBrokerId: 2, partnerDate: "2024-01-04" }),
      tx(12, { type: "ADJUSTMENT", date: "2024-01-08", brokerId: 1, assetId: 1, quantity: "6", splitLinked: true }),
      tx(13, { type: "ADJUSTMENT", date: "2024-01-08", brokerId: 2, assetId: 1, quantity: "4", splitLinked: true }),
      tx(14, { type: "ADJUSTMENT", date: "2024-01-09", brokerId: 3, assetId: 3, quantity: "3", costBasisOverride: "55.5", costBasisCurrency: "CHF" }),
      tx(15, { type: "DIVIDEND", date: "2024-01-10", brokerId: 1, assetId: 1, amount: "12.34", currency: "GBP" }),
      tx(16, { type: "TAX", date: "2024-01-10", brokerId: 1, assetId: 1, amount: "-1.85", currency: "GBP" }),
      tx(17, { type: "INTEREST", date: "2024-01-10", brokerId: 3, amount: "0.07", currency: "USD" }),
      tx(18, { type: "SELL", date: "2024-01-11", brokerId: 1, assetId: 1, quantity: "-3", amount: "330", currency: "EUR" }),
      tx(19, { type: "BUY", date: "2024-01-11", brokerId: 1, assetId: 1, quantity: "1.0", amount: "-109", currency: "EUR" }),
      tx(20, { type: "TRANSFER", date: "2024-01-12", brokerId: 3, assetId: 3, quantity: "-1", costBasisOverride: "56", costBasisCurrency: "CHF" }),
      tx(21, { type: "WITHDRAWAL", date: "2024-01-12", brokerId: 1, amount: "-200", currency: "EUR" }),
    ],
    assets: [asset(1, "EUR"), asset(2, "USD"), asset(3, "CHF")],
    quotes: {
      1: { dates: ["2024-01-02", "2024-01-04", "2024-01-09", "2024-01-12"], closes: ["100.10", "101.5", "51.25", "52"] },
      2: { dates: ["2024-01-03"], closes: ["99.123456"] },
    },
    splits: [{ assetId: 1, date: "2024-01-08", ratio: "2" }],
    fxPairs: [{ base: "CHF", quote: "EUR", routes: [] }, { base: "EUR", quote: "GBP", routes: [] }, { base: "EUR", quote: "USD", routes: [] }],
    fxSeries: {
      [fxSeriesKey("CHF", "EUR", "MANUAL")]: { dates: ["2024-01-01"], rates: ["1.05"] },
      [fxSeriesKey("EUR", "GBP", "MANUAL")]: { dates: ["2024-01-01", "2024-01-10"], rates: ["0.86", "0.8625"] },
      [fxSeriesKey("EUR", "USD", "MANUAL")]: { dates: ["2024-01-01", "2024-01-05"], rates: ["1.1", "1.0937"] },
    },
    target: "EUR", start: "2024-01-03", end: "2024-01-14", flags,
    requested: { start: "2024-01-03", end: null, brokerIds: null }, generatedAt: "2024-01-14T00:00:00Z",
  };
}

/** A reader answering the loader's transaction query with `txs` as SQL rows. */
function reader(txs: readonly LedgerTx[]): SqlReader {
  const rows = txs.map((t) => ({
    id: t.id, broker_id: t.brokerId, asset_id: t.assetId, type: t.type, date: t.date, quantity: t.quantity, amount: t.amount, currency: t.currency,
    related_transaction_id: t.relatedId, cost_basis_override: t.costBasisOverride, cost_basis_currency: t.costBasisCurrency,
    partner_broker_id: t.partnerBrokerId, partner_date: t.partnerDate, split_linked: t.splitLinked ? 1 : 0,
  }));
  // As the database answers the loader's query: by broker, then date, then id.
  rows.sort((a, b) => a.broker_id - b.broker_id || (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id));
  return { all: async <T>(sql: string) => (sql.includes("FROM transactions t") ? (expect(sql).toContain("ORDER BY t.broker_id, t.date, t.id"), rows) : []) as T[] };
}

const rowsOf = (c: TxColumns): LedgerTx[] => {
  const t = new TxTable(c);
  return Array.from({ length: t.length }, (_, i) => t.row(i));
};

describe("transactions as typed columns", () => {
  test("a report of transactions as columns is the report of the same transactions as objects", async () => {
    for (const allocationHistory of [false, true]) {
      const objects = rich(allocationHistory);
      const txColumns = await loadTransactions(reader(objects.transactions), objects.brokers, objects.end);
      // Every field reads back as stored: texts as written (trailing zeros, 21 digits), nulls as nulls.
      expect(rowsOf(txColumns)).toEqual(objects.transactions);
      const columns: ReportInput = { ...objects, txColumns, transactions: [] };
      const expected = JSON.stringify(buildReport(objects));
      expect(JSON.stringify(buildReport(columns))).toBe(expected);
      const cloned = structuredClone(columns);
      expect(rowsOf(cloned.txColumns!)).toEqual(objects.transactions);
      expect(JSON.stringify(buildReport(cloned))).toBe(expected);
    }
    // The ledger is not trivial: the transfers, the split and the conversions moved the figures.
    const report = buildReport(rich(false)) as any;
    expect(report.summary.market_value.amount).not.toBe("0");
  });

  test("transactions spliced at a day (an incremental report) are the rows loaded whole, types and currencies first met after the day included", () => {
    const all = rich(false).transactions;
    // What was kept: the same rows before the day, another row after it (edited since), in a currency no longer there.
    const stale = tx(99, { type: "DEPOSIT", date: "2024-01-13", brokerId: 1, amount: "1", currency: "JPY" });
    for (const day of ["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-05", "2024-01-10", "2024-01-13"]) {
      const prev = txColumnsOf([...all.filter((t) => t.date < day), stale]);
      const kept = new TxTable(prev).firstFrom(dayNumber(day));
      const spliced = spliceTxColumns(prev, kept, txColumnsOf(all.filter((t) => t.date >= day)));
      expect(rowsOf(spliced)).toEqual(all);
      expect(rowsOf(structuredClone(spliced))).toEqual(all);
    }
  });
});

test("transactions read by broker come out in (date, id) order: the brokers' runs merged give the order of a full sort", () => {
  let seed = 7;
  const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (const brokers of [0, 1, 2, 3, 5, 20]) {
    for (let round = 0; round < 20; round++) {
      const rows: { broker_id: number; date: string; id: number }[] = [];
      let id = 0;
      // Few dates, so many rows share one across brokers; ids not in date order.
      for (let b = 1; b <= brokers; b++) {
        for (let n = random(30); n > 0; n--) rows.push({ broker_id: b, date: `2024-01-${String(1 + random(9)).padStart(2, "0")}`, id: 1000 - id++ * 7 + random(5) * 1000 });
      }
      rows.sort((a, b) => a.broker_id - b.broker_id || (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id));
      const expected = rows.map((_, i) => i).sort((i, j) => (rows[i]!.date < rows[j]!.date ? -1 : rows[i]!.date > rows[j]!.date ? 1 : rows[i]!.id - rows[j]!.id));
      expect([...mergedByDateAndId(rows)]).toEqual(expected);
    }
  }
});
