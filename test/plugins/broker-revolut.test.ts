import { describe, expect, test } from "bun:test";
import { brokerRevolutPlugin } from "../../plugins/broker-revolut/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Hand-checked against test/fixtures/brim/revolut/trading-account-statement.csv, written before the parser.
const statement = fixture("revolut", "trading-account-statement.csv");
const degiro = fixture("degiro", "Account.csv");

runImportPluginContract(brokerRevolutPlugin, { sample: { ...statement, foreign: degiro.file, foreignBytes: degiro.bytes } });

describe("Revolut trading account statement", () => {
  test("top-ups, market and limit trades, custody fees, dividends, withdrawals; amounts written as 'USD 950'", async () => {
    const result = await (await brokerRevolutPlugin.create({} as never)).parse(statement);
    expect(pinAll(result)).toEqual([
      "2 DEPOSIT 2024-01-02 q=0 1000 USD -",
      "3 BUY 2024-01-05 q=5 -950 USD AAPL",
      "4 FEE 2024-01-31 q=0 -0.12 USD -",
      "5 DIVIDEND 2024-02-15 q=0 1.02 USD AAPL",
      "6 SELL 2024-03-20 q=-2 344.2 USD AAPL",
      "7 WITHDRAWAL 2024-04-02 q=0 -100 USD -",
    ]);
    expect(result.warnings).toEqual([expect.objectContaining({ code: "unsupportedType", row: 8 })]);
  });

  test("a stock split is skipped naming the line, the row and why: it moves shares without a price, to enter by hand", async () => {
    const result = await (await brokerRevolutPlugin.create({} as never)).parse(statement);
    expect(result.skippedRows).toEqual([{
      line: 8,
      reason: 'Line 8: "STOCK SPLIT" (TSLA, 2024-04-10T00:00:00.000Z, 2, USD 0) moves shares without a price (a stock split or a transfer of positions); not imported, enter the shares it moved by hand as an ADJUSTMENT (shares transferred in with their cost basis)',
    }]);
  });

  test("detection claims the statement and not a Degiro file", async () => {
    const plugin = await brokerRevolutPlugin.create({} as never);
    expect(plugin.accepts(statement.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});

// A euro account's statement as Revolut writes it now (trading-account-statement-eur.csv: invented
// values in the real structure): "€50" amounts, a quantity with a decimal comma that used to drop the
// buy, and DIVIDEND TAX (CORRECTION) rows. Pinned by hand before the parser learned them.
describe("Revolut: a euro statement", () => {
  test("a buy with a decimal-comma quantity and the dividend tax correction are classified", async () => {
    const result = await (await brokerRevolutPlugin.create({} as never)).parse(fixture("revolut", "trading-account-statement-eur.csv"));
    expect(pinAll(result)).toEqual([
      "2 DEPOSIT 2025-06-02 q=0 200 EUR -",
      "3 BUY 2025-06-05 q=0.56217674 -50 EUR TSLA",
      "4 BUY 2025-09-08 q=0.76672417 -20 EUR MSFT",
      "5 DIVIDEND 2025-09-12 q=0 0.12 EUR MSFT",
      "6 TAX 2025-09-12 q=0 -0.02 EUR MSFT",
    ]);
    expect(result.warnings.map((w) => `${w.row} ${w.code}`)).toEqual(["7 unsupportedType"]);
  });
});
