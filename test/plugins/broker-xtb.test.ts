import { describe, expect, test } from "bun:test";
import { brokerXtbPlugin } from "../../plugins/broker-xtb/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Hand-checked against test/fixtures/brim/xtb/account-statement.xlsx (written by make-sample.ts), before the parser.
const statement = fixture("xtb", "account-statement.xlsx");
const degiro = fixture("degiro", "Account.csv");

runImportPluginContract(brokerXtbPlugin, { sample: { ...statement, foreign: degiro.file, foreignBytes: degiro.bytes } });

describe("XTB account statement (XLSX, sheet CASH OPERATION HISTORY)", () => {
  test("deposits, purchases and sales with quantities from the comment, dividends and their tax, interest and its tax, fees, withdrawals", async () => {
    const result = await (await brokerXtbPlugin.create({} as never)).parse(statement);
    expect(pinAll(result)).toEqual([
      "5 DEPOSIT 2024-01-02 q=0 2000 EUR -",
      "6 BUY 2024-01-05 q=4 -433.68 EUR VWCE.DE",
      "7 BUY 2024-01-10 q=10 -453 EUR IUSA.DE",
      "8 DIVIDEND 2024-02-15 q=0 1.2 EUR IUSA.DE",
      "9 TAX 2024-02-15 q=0 -0.18 EUR IUSA.DE",
      "10 INTEREST 2024-03-01 q=0 3.45 EUR -",
      "11 TAX 2024-03-01 q=0 -0.66 EUR -",
      "12 SELL 2024-03-20 q=-2 224.2 EUR VWCE.DE",
      "13 WITHDRAWAL 2024-04-02 q=0 -100 EUR -",
      "14 FEE 2024-03-20 q=0 -0.01 EUR VWCE.DE",
    ]);
    expect(result.warnings).toEqual([expect.objectContaining({ code: "unsupportedType", row: 15 })]);
  });

  test("detection goes by the spreadsheet format and name, never claims a CSV", async () => {
    const plugin = await brokerXtbPlugin.create({} as never);
    expect(plugin.accepts(statement.file)).toBeGreaterThan(0);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});
