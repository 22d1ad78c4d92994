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

  test("detection claims the statement and not a Degiro file", async () => {
    const plugin = await brokerRevolutPlugin.create({} as never);
    expect(plugin.accepts(statement.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});
