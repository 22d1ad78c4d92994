import { describe, expect, test } from "bun:test";
import { brokerTrading212Plugin } from "../../plugins/broker-trading212/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Hand-checked against test/fixtures/brim/trading212/history.csv (a EUR account), written before the parser.
const history = fixture("trading212", "history.csv");
const degiro = fixture("degiro", "Account.csv");

runImportPluginContract(brokerTrading212Plugin, { sample: { ...history, foreign: degiro.file, foreignBytes: degiro.bytes } });

const parse = async () => (await brokerTrading212Plugin.create({} as never)).parse(history);

describe("Trading 212 history export", () => {
  test("deposits, buys in a foreign currency through an FX pair, buys in the account currency, dividends with withholding, interest, sells, withdrawals", async () => {
    expect(pinAll(await parse())).toEqual([
      "2 DEPOSIT 2024-01-02 q=0 2000 EUR -",
      "3 BUY 2024-01-05 q=5 -950 USD US0378331005/AAPL order=EOF0001",
      "3 FX_CONVERSION 2024-01-05 q=0 -869.96 EUR - order=EOF0001 pair",
      "3 FX_CONVERSION 2024-01-05 q=0 950 USD - order=EOF0001 pair",
      "3 FEE 2024-01-05 q=0 -1.3 EUR US0378331005/AAPL order=EOF0001",
      "4 BUY 2024-01-08 q=3.5 -378.7 EUR IE00BK5BQT80/VWCE order=EOF0002",
      "5 DIVIDEND 2024-02-15 q=0 0.94 EUR US0378331005/AAPL",
      "5 DIVIDEND 2024-02-15 q=0 0.18 USD US0378331005/AAPL",
      "5 TAX 2024-02-15 q=0 -0.18 USD US0378331005/AAPL",
      "6 INTEREST 2024-03-01 q=0 0.52 EUR -",
      "7 SELL 2024-03-20 q=-2 344.2 USD US0378331005/AAPL order=EOF0003",
      "7 FX_CONVERSION 2024-03-20 q=0 -344.2 USD - order=EOF0003 pair",
      "7 FX_CONVERSION 2024-03-20 q=0 316.07 EUR - order=EOF0003 pair",
      "7 FEE 2024-03-20 q=0 -0.47 EUR US0378331005/AAPL order=EOF0003",
      "8 WITHDRAWAL 2024-04-02 q=0 -100 EUR -",
      "9 INTEREST 2024-04-03 q=0 0.05 EUR -",
    ]);
  });

  test("currency conversions between the account's own pots are skipped with a warning naming the row", async () => {
    const result = await parse();
    expect(result.warnings).toEqual([expect.objectContaining({ code: "unsupportedAction", row: 10 })]);
    expect(result.skippedRows).toEqual([
      {
        line: 10,
        reason: `Line 10: "Currency conversion" (2024-04-04 10:00:00, 0.01 EUR) moves cash between the account's own currency pots, not in or out of the account; not imported, nothing to enter: no cash comes in or goes out`,
      },
    ]);
  });

  test("detection claims the export and not a Degiro file", async () => {
    const plugin = await brokerTrading212Plugin.create({} as never);
    expect(plugin.accepts(history.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});
