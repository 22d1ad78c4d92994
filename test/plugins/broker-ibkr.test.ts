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

  test("an option without its multiplier, and unknown cash types, are skipped with a warning that says what the record was, why and what to do; order summaries beside executions are not rows", async () => {
    const text = `<FlexQueryResponse><FlexStatements><FlexStatement><Trades>
<Trade currency="USD" assetCategory="OPT" symbol="AAPL 240621C00200000" tradeDate="20240105" quantity="1" proceeds="-120" ibCommission="-1" ibCommissionCurrency="USD"/>
<Order currency="USD" assetCategory="STK" symbol="AAPL" tradeDate="20240105" quantity="10" proceeds="-1855" levelOfDetail="ORDER"/>
</Trades><CashTransactions><CashTransaction currency="USD" dateTime="20240105" amount="5" type="Something New"/></CashTransactions></FlexStatement></FlexStatements></FlexQueryResponse>`;
    const bytes = new TextEncoder().encode(text);
    const result = await parse({ bytes, file: describeFile(bytes, "x.xml") });
    expect(result.transactions).toEqual([]);
    expect(result.warnings.map((w) => w.code)).toEqual(["optionMultiplierMissing", "unknownCashType"]);
    // An XML record has no line: its reason starts with what it was, then why and what to do.
    expect(result.warnings.map((w) => w.message)).toEqual([
      '"Trades" (OPT, AAPL 240621C00200000, 20240105, 1, -120 USD) is an option trade without a Multiplier, so the units it moved cannot be told; not imported, add Multiplier to the Flex query and upload again, or enter it by hand',
      '"Something New" (20240105, 5 USD) is a type the importer does not know, so what it moved cannot be told; not imported, enter it by hand if it moved cash',
    ]);
  });

  test("detection: Flex XML and Flex CSV are claimed, a Degiro file is not", async () => {
    const plugin = await brokerIbkrPlugin.create({} as never);
    expect(plugin.accepts(xml.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(csv.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});

// Real Flex CSVs come in more shapes than one header row per section: with "section code and line
// descriptor" (BOF/BOS/HEADER/DATA/EOS/EOF rows keyed TRNT, CTRN, POST), with the columns a user
// picked in any order (no ClientAccountID, TradeMoney instead of Proceeds), and the classic
// Activity Statement CSV ("Trades,Header,..." / "Trades,Data,..."). Fixtures are invented values in
// those structures; every row below was pinned by hand before the parser learned the variant.
const sections = fixture("ibkr", "flex-sections.csv");
const plain = fixture("ibkr", "flex-plain.csv");
const activity = fixture("ibkr", "activity-statement.csv");

runImportPluginContract(brokerIbkrPlugin, { sample: { ...sections, foreign: degiro.file, foreignBytes: degiro.bytes } });
runImportPluginContract(brokerIbkrPlugin, { sample: { ...plain, foreign: degiro.file, foreignBytes: degiro.bytes } });
runImportPluginContract(brokerIbkrPlugin, { sample: { ...activity, foreign: degiro.file, foreignBytes: degiro.bytes } });

const warned = (result: { warnings: readonly { code: string; row?: number }[] }) => result.warnings.map((w) => `${w.row ?? "-"} ${w.code}`);

describe("IBKR Flex CSV variants and the Activity Statement CSV", () => {
  test("Flex CSV with section codes: TRNT trades (an option as contracts × multiplier), CTRN cash; summaries, futures and other sections skipped with a reason", async () => {
    const result = await parse(sections);
    expect(pinAll(result)).toEqual([
      "5 BUY 2024-02-12 q=3 -1440.3 EUR IE00B5BMR087/SXR8 order=720001",
      "5 FEE 2024-02-12 q=0 -3 EUR IE00B5BMR087/SXR8 order=720001",
      "6 BUY 2024-03-01 q=200 -250 USD AAPL 240621C00200000 order=720002",
      "6 FEE 2024-03-01 q=0 -1.3 USD AAPL 240621C00200000 order=720002",
      "7 SELL 2024-04-15 q=-100 210 USD AAPL 240621C00200000 order=720003",
      "7 FEE 2024-04-15 q=0 -0.65 USD AAPL 240621C00200000 order=720003",
      "13 DEPOSIT 2024-02-01 q=0 5000 EUR -",
      "14 DIVIDEND 2024-06-20 q=0 0.9 EUR IE00B5BMR087/SXR8",
      "15 DIVIDEND 2024-06-13 q=0 3.75 USD US5949181045/MSFT",
      "16 TAX 2024-06-13 q=0 -0.56 USD US5949181045/MSFT",
      "17 FEE 2024-06-04 q=0 -1.12 USD -",
    ]);
    expect(warned(result)).toEqual(["6 optionMultiplied", "7 optionMultiplied", "8 summaryRowSkipped", "9 unsupportedAsset", "21 sectionSkipped"]);
  });

  test("Flex CSV with chosen columns in any order: TradeMoney signs the cash, a forex trade is an FX pair, a row naming no asset is skipped; a positive withholding is a refund", async () => {
    const result = await parse(plain);
    expect(pinAll(result)).toEqual([
      "2 BUY 2023-05-22 q=7 -1978.9 CHF CH0000000001/SMMX",
      "2 FEE 2023-05-22 q=0 -5 CHF CH0000000001/SMMX",
      "3 BUY 2023-06-09 q=11 -1050.06 USD US0000000002/WRLD",
      "3 FEE 2023-06-09 q=0 -1 USD US0000000002/WRLD",
      "4 FX_CONVERSION 2023-06-09 q=0 -1000 USD - pair",
      "4 FX_CONVERSION 2023-06-09 q=0 901.2 CHF - pair",
      "4 FEE 2023-06-09 q=0 -1.8 CHF -",
      "7 DIVIDEND 2023-06-23 q=0 7.15 USD US0000000002",
      "8 TAX 2023-06-23 q=0 -1.07 USD US0000000002",
      "9 DIVIDEND 2023-09-13 q=0 4.83 CHF CH0000000001",
      "10 DIVIDEND 2023-10-02 q=0 0.3 USD US0000000002",
    ]);
    expect(warned(result)).toEqual(["5 rowSkipped", "10 taxRefund"]);
  });

  test("Activity Statement CSV: trades by section (ISIN and multiplier from Financial Instrument Information), an expired option as a zero-cost adjustment, forex, cash sections; totals and other sections accounted for", async () => {
    const result = await parse(activity);
    expect(pinAll(result)).toEqual([
      "11 BUY 2024-03-04 q=1200 -126240 USD US9220427424/VT",
      "11 FEE 2024-03-04 q=0 -6.31 USD US9220427424/VT",
      "12 SELL 2024-09-02 q=-200 22460 USD US9220427424/VT",
      "12 FEE 2024-09-02 q=0 -1.12 USD US9220427424/VT",
      "16 SELL 2024-04-10 q=-100 240 USD VT 20DEC24 110 C",
      "16 FEE 2024-04-10 q=0 -1.05 USD VT 20DEC24 110 C",
      "17 ADJUSTMENT 2024-12-20 q=100 no-cash VT 20DEC24 110 C",
      "19 FX_CONVERSION 2024-03-01 q=0 120000 EUR - pair",
      "19 FX_CONVERSION 2024-03-01 q=0 -130200 USD - pair",
      "19 FEE 2024-03-01 q=0 -1.74 EUR -",
      "25 DEPOSIT 2024-02-28 q=0 120000 EUR -",
      "28 DIVIDEND 2024-06-25 q=0 480 USD US9220427424/VT",
      "32 TAX 2024-06-25 q=0 -72 USD US9220427424/VT",
      "35 FEE 2024-05-03 q=0 -0.01 USD -",
      "38 INTEREST 2024-07-03 q=0 12.5 EUR -",
    ]);
    const adjustment = result.transactions.find((t) => t.type === "ADJUSTMENT");
    expect(adjustment?.costBasis as unknown).toEqual({ amount: "0", currency: "USD" });
    expect(warned(result)).toEqual([
      "16 optionMultiplied", "17 optionMultiplied", "17 zeroProceeds",
      "13 summaryRowSkipped", "14 summaryRowSkipped", "26 summaryRowSkipped", "29 summaryRowSkipped", "30 summaryRowSkipped",
      "33 summaryRowSkipped", "36 summaryRowSkipped", "39 summaryRowSkipped",
      "2 sectionSkipped", "6 sectionSkipped", "9 sectionSkipped", "41 sectionSkipped", "43 sectionSkipped",
    ]);
  });

  test("a skipped section's reason names its one line as \"Line 9\" and several as \"Lines 6, 7\"", async () => {
    const result = await parse(activity);
    const reason = (line: number) => result.skippedRows?.find((s) => s.line === line)?.reason;
    expect(reason(9)).toBe("Line 9: the Net Asset Value section holds positions, summaries or notes and no transactions; not imported, nothing to enter: these lines move no cash");
    expect(reason(6)).toStartWith("Lines 6, 7: the Account Information section ");
    expect(reason(7)).toBe(reason(6)!);
  });

  test("Flex XML option trades are imported as contracts × multiplier, never dropped", async () => {
    const text = `<FlexQueryResponse><FlexStatements><FlexStatement><Trades>
<Trade currency="USD" assetCategory="OPT" symbol="AAPL 240621C00200000" description="AAPL 21JUN24 200 C" multiplier="100" tradeDate="20240105" quantity="1" proceeds="-120" ibCommission="-1" ibCommissionCurrency="USD" ibOrderID="9"/>
</Trades></FlexStatement></FlexStatements></FlexQueryResponse>`;
    const bytes = new TextEncoder().encode(text);
    const result = await parse({ bytes, file: describeFile(bytes, "x.xml") });
    expect(pinAll(result)).toEqual([
      "- BUY 2024-01-05 q=100 -120 USD AAPL 240621C00200000 order=9",
      "- FEE 2024-01-05 q=0 -1 USD AAPL 240621C00200000 order=9",
    ]);
    expect(result.warnings.map((w) => w.code)).toEqual(["optionMultiplied"]);
  });

  test("detection from content: every variant claimed, the other brokers' files not", async () => {
    const plugin = await brokerIbkrPlugin.create({} as never);
    for (const f of [sections, plain, activity]) expect(plugin.accepts(f.file)).toBeGreaterThanOrEqual(0.9);
    for (const [broker, name] of [["degiro", "Account.csv"], ["schwab", "transactions.csv"], ["revolut", "trading-account-statement.csv"], ["generic", "generic-en.csv"], ["traderepublic", "transactions.csv"]] as const) {
      expect(plugin.accepts(fixture(broker, name).file)).toBe(0);
    }
  });
});
