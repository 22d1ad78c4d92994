import { describe, expect, test } from "bun:test";
import { brokerSaxoPlugin } from "../../plugins/broker-saxo/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll, workbookFixture } from "./brim-helpers.ts";

// Hand-checked against test/fixtures/brim/saxo/transactions.xlsx (written by make-sample.ts), before the parser.
const saxo = fixture("saxo", "transactions.xlsx");
const degiro = fixture("degiro", "Account.csv");

runImportPluginContract(brokerSaxoPlugin, { sample: { ...saxo, foreign: degiro.file, foreignBytes: degiro.bytes } });

describe("Saxo Transactions report (XLSX)", () => {
  test("trades from the Event text (foreign ones through an FX pair from the booked euros), commissions, dividends and withholding, interest, custody fees, transfers; splits skipped", async () => {
    const result = await (await brokerSaxoPlugin.create({} as never)).parse(saxo);
    expect(pinAll(result)).toEqual([
      "2 DEPOSIT 2024-01-02 q=0 2000 EUR -",
      "3 BUY 2024-01-05 q=5 -950 USD US0378331005/AAPL:xnas order=50000000",
      "3 FX_CONVERSION 2024-01-05 q=0 -869.96 EUR - order=50000000 pair",
      "3 FX_CONVERSION 2024-01-05 q=0 950 USD - order=50000000 pair",
      "4 FEE 2024-01-05 q=0 -1.83 EUR US0378331005/AAPL:xnas order=50000000",
      "5 BUY 2024-01-10 q=4 -433.68 EUR IE00BK5BQT80/VWCE:xetr order=50000000",
      "6 DIVIDEND 2024-02-15 q=0 1.1 EUR US0378331005/AAPL:xnas",
      "7 TAX 2024-02-15 q=0 -0.17 EUR US0378331005/AAPL:xnas",
      "8 INTEREST 2024-03-01 q=0 0.85 EUR -",
      "9 SELL 2024-03-20 q=-2 344.2 USD US0378331005/AAPL:xnas order=50000000",
      "9 FX_CONVERSION 2024-03-20 q=0 -344.2 USD - order=50000000 pair",
      "9 FX_CONVERSION 2024-03-20 q=0 316.07 EUR - order=50000000 pair",
      "10 FEE 2024-03-31 q=0 -2.5 EUR -",
      "11 WITHDRAWAL 2024-04-02 q=0 -100 EUR -",
    ]);
    expect(result.warnings).toEqual([expect.objectContaining({ code: "unsupportedEvent", row: 12 })]);
    expect(result.skippedRows).toEqual([{
      line: 12,
      reason: 'Line 12: "Stock split 3:1" (TSLA:xnas, 2024-04-03, 0 EUR) moves no cash (a split or another change of units, with no price); not imported, enter the units it changed by hand as an ADJUSTMENT (units received with their cost basis)',
    }]);
  });

  test("the account currency comes from the currency option when the account is not in euros", async () => {
    const result = await (await brokerSaxoPlugin.create({} as never)).parse({ ...saxo, options: { currency: "chf" } });
    expect(result.transactions[0]!.cash).toEqual({ amount: "2000", currency: "CHF" } as never);
  });
});

// Saxo's Transactions report as CSV (English and Dutch words, "16-Dec-2024" / "02-mrt-2025" dates,
// decimal-comma amounts beside point prices) and the later column set with "Booked Amount". The
// account currency is the currency of the cash rows. Invented values in the real structures, pinned
// by hand before the parser learned them.
describe("Saxo Transactions CSV", () => {
  test("English and Dutch rows; the account currency from the cash rows; a trade in another currency with its FX pair", async () => {
    const csv = fixture("saxo", "transactions.csv");
    const plugin = await brokerSaxoPlugin.create({} as never);
    expect(plugin.accepts(csv.file)).toBeGreaterThanOrEqual(0.9);
    const result = await plugin.parse(csv);
    expect(pinAll(result)).toEqual([
      "2 DEPOSIT 2024-12-16 q=0 2000 USD -",
      "3 BUY 2024-12-16 q=2 -288.96 USD IE00BK5BQT80/VWRA:xlon",
      "4 BUY 2024-12-30 q=2 -441 USD US0231351067/AMZN:xnas",
      "5 FEE 2025-01-02 q=0 -3.91 USD -",
      "6 SELL 2025-01-02 q=-1 139.22 USD IE00BK5BQT80/VWRA:xlon",
      "7 DIVIDEND 2025-04-02 q=0 1.83 USD IE00B3XXRP09/VUSA:xams",
      "8 BUY 2025-01-16 q=1 -110.01 EUR IE00B3XXRP09/VUSA:xams",
      "8 FX_CONVERSION 2025-01-16 q=0 -119 USD - pair",
      "8 FX_CONVERSION 2025-01-16 q=0 110.01 EUR - pair",
      "9 WITHDRAWAL 2025-02-20 q=0 -280 USD -",
    ]);
    expect(result.warnings).toEqual([]);
  });

  test("Booked Amount and Dutch month names", async () => {
    const csv = fixture("saxo", "transactions-nl.csv");
    const result = await (await brokerSaxoPlugin.create({} as never)).parse(csv);
    expect(pinAll(result)).toEqual([
      "2 DEPOSIT 2024-10-30 q=0 1000 EUR -",
      "3 BUY 2024-10-31 q=1 -589.16 USD US30303M1027/META:xnas",
      "3 FX_CONVERSION 2024-10-31 q=0 -545.4 EUR - pair",
      "3 FX_CONVERSION 2024-10-31 q=0 589.16 USD - pair",
      "4 SELL 2025-03-02 q=-3 389.3 EUR IE00BK5BQT80/VWCE:xetr",
      "5 FEE 2025-05-02 q=0 -3.91 EUR -",
    ]);
  });

  test("detection from content: the workbook by its Transactions sheet, not the other brokers' files", async () => {
    const plugin = await brokerSaxoPlugin.create({} as never);
    expect(plugin.accepts((await workbookFixture("saxo", "transactions.xlsx")).file)).toBeGreaterThanOrEqual(0.9);
    for (const [broker, name] of [["xtb", "xstation-export.xlsx"], ["etoro", "account-statement-2024.xlsx"]] as const) {
      expect(plugin.accepts((await workbookFixture(broker, name)).file)).toBe(0);
    }
    for (const f of [fixture("degiro", "Account.csv"), fixture("ibkr", "flex.csv")]) expect(plugin.accepts(f.file)).toBe(0);
  });
});
