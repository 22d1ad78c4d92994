import { describe, expect, test } from "bun:test";
import { brokerIbkrPlugin } from "../../plugins/broker-ibkr/index.ts";
import { describeFile } from "../../sdk/import/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Hand-checked against test/fixtures/brim/ibkr/ (one Activity Flex Query as XML and as CSV), written before the parser.
const xml = fixture("ibkr", "flex.xml");
const csv = fixture("ibkr", "flex.csv");
const degiro = fixture("degiro", "Account.csv");

runImportPluginContract(brokerIbkrPlugin, { sample: { ...xml, foreign: degiro.file, foreignBytes: degiro.bytes } });
runImportPluginContract(brokerIbkrPlugin, { sample: { ...csv, foreign: degiro.file, foreignBytes: degiro.bytes } });

const parse = async (f: typeof xml) => (await brokerIbkrPlugin.create({} as never)).parse(f);

// Both formats carry the same statement; XML has no line numbers ("-"), CSV rows have theirs.
const EXPECTED: [string, string][] = [
  ["2", "FX_CONVERSION 2024-01-03 q=0 -3000 EUR - order=700001 pair"],
  ["2", "FX_CONVERSION 2024-01-03 q=0 3285 USD - order=700001 pair"],
  ["2", "FEE 2024-01-03 q=0 -2 USD - order=700001"],
  ["3", "BUY 2024-01-05 q=6 -1113 USD US0378331005/AAPL order=700002"],
  ["3", "FEE 2024-01-05 q=0 -0.6 USD US0378331005/AAPL order=700002"],
  ["4", "BUY 2024-01-05 q=4 -742 USD US0378331005/AAPL order=700002"],
  ["4", "FEE 2024-01-05 q=0 -0.4 USD US0378331005/AAPL order=700002"],
  ["5", "BUY 2024-01-10 q=5 -551 USD IE00BK5BQT80/VWRA order=700003"],
  ["5", "FEE 2024-01-10 q=0 -1.25 USD IE00BK5BQT80/VWRA order=700003"],
  ["6", "SELL 2024-03-20 q=-3 516.3 USD US0378331005/AAPL order=700004"],
  ["6", "FEE 2024-03-20 q=0 -1 USD US0378331005/AAPL order=700004"],
  ["8", "DEPOSIT 2024-01-02 q=0 10000 EUR -"],
  ["9", "DIVIDEND 2024-02-15 q=0 2.4 USD US0378331005/AAPL"],
  ["10", "TAX 2024-02-15 q=0 -0.36 USD US0378331005/AAPL"],
  ["11", "INTEREST 2024-03-01 q=0 4.12 USD -"],
  ["12", "FEE 2024-03-04 q=0 -10 USD -"],
  ["13", "WITHDRAWAL 2024-04-02 q=0 -500 EUR -"],
];

describe("IBKR Flex Query", () => {
  test("XML: trades (stock executions of one order, a forex trade as an FX pair, commissions as fees) and cash transactions", async () => {
    expect(pinAll(await parse(xml))).toEqual(EXPECTED.map(([, line]) => `- ${line}`));
  });

  test("CSV with one header row per section: the same rows, with their line numbers", async () => {
    expect(pinAll(await parse(csv))).toEqual(EXPECTED.map(([row, line]) => `${row} ${line}`));
  });

  test("attribute values stay text: an ISIN like 1E5 is not a number", async () => {
    const text = `<FlexQueryResponse><FlexStatements><FlexStatement><Trades><Trade currency="USD" assetCategory="STK" symbol="X" isin="1E5" tradeDate="20240105" quantity="1" proceeds="-0.10" ibCommission="0" ibCommissionCurrency="USD" ibOrderID="1"/></Trades></FlexStatement></FlexStatements></FlexQueryResponse>`;
    const bytes = new TextEncoder().encode(text);
    const [tx] = (await parse({ bytes, file: describeFile(bytes, "x.xml") })).transactions;
    expect(tx).toMatchObject({ isin: "1E5", cash: { amount: "-0.1", currency: "USD" } });
  });

  test("options, and order summaries beside executions, are skipped with a warning; unknown cash types too", async () => {
    const text = `<FlexQueryResponse><FlexStatements><FlexStatement><Trades>
<Trade currency="USD" assetCategory="OPT" symbol="AAPL 240621C00200000" tradeDate="20240105" quantity="1" proceeds="-120" ibCommission="-1" ibCommissionCurrency="USD"/>
<Order currency="USD" assetCategory="STK" symbol="AAPL" tradeDate="20240105" quantity="10" proceeds="-1855" levelOfDetail="ORDER"/>
</Trades><CashTransactions><CashTransaction currency="USD" dateTime="20240105" amount="5" type="Something New"/></CashTransactions></FlexStatement></FlexStatements></FlexQueryResponse>`;
    const bytes = new TextEncoder().encode(text);
    const result = await parse({ bytes, file: describeFile(bytes, "x.xml") });
    expect(result.transactions).toEqual([]);
    expect(result.warnings.map((w) => w.code)).toEqual(["unsupportedAsset", "unknownCashType"]);
  });

  test("detection: Flex XML and Flex CSV are claimed, a Degiro file is not", async () => {
    const plugin = await brokerIbkrPlugin.create({} as never);
    expect(plugin.accepts(xml.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(csv.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});
