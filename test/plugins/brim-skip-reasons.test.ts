import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { builtinPlugins } from "../../plugins/index.ts";
import { type ImportPlugin, type ImportResult, isPluginError, type Plugin } from "../../sdk/index.ts";
import { describeFile, describeWorkbook } from "../../sdk/import/index.ts";

// A skipped line's reason is what the user reads to act on a line the import left out (docs/import.md
// "skipped_rows"): it names the line, says what the line was and why it is not imported, and what to
// do. Every sample of test/fixtures/brim/*/ goes through its importer here, and each reason must name
// its line number and say more than its code: at least 8 words besides the line and the code's own
// words ("rowSkipped", "unsupportedType", ...).

const FIXTURES = join(import.meta.dir, "..", "fixtures", "brim");

/** A folder whose importer is not `broker_<folder>`. */
const PLUGIN_OF: Record<string, string> = { generic: "broker_generic_csv" };
/** Parse options a sample needs (XTB's CSVs do not say the account currency). */
const OPTIONS: Record<string, Record<string, unknown>> = {
  "xtb/cash-operations.csv": { currency: "EUR" },
  "xtb/cash-operations-2025.csv": { currency: "PLN" },
};

const importers = new Map(builtinPlugins.filter((p) => p.manifest.kind === "import-plugin").map((p) => [p.manifest.id, p as Plugin]));
const isWorkbook = (name: string) => /\.xlsx?$/i.test(name);

async function parse(code: string, bytes: Uint8Array, name: string, options?: Record<string, unknown>): Promise<ImportResult> {
  const file = isWorkbook(name) ? await describeWorkbook(bytes, name) : describeFile(bytes, name);
  const plugin = (await importers.get(code)!.create({} as never)) as ImportPlugin;
  return plugin.parse({ bytes, file, ...(options ? { options } : {}) });
}

/** The words of a text, lower case; a camelCase code split into its words. */
const wordsOf = (text: string) => text.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().match(/[a-zà-ÿ]+/g) ?? [];

/**
 * What is wrong with a skipped line's reason, or null: it names its line ("Line 7", or "lines 6, 7"
 * for a group), and it has at least 8 words besides "line" and the words of its warning's code.
 */
function faultOf(reason: string, line: number, code: string | undefined): string | null {
  if (!new RegExp(`\\b[Ll]ines? (\\d+, )*${line}\\b`).test(reason)) return "does not name its line";
  const codeWords = new Set([...wordsOf(code ?? ""), "line", "lines"]);
  const own = wordsOf(reason).filter((w) => !codeWords.has(w));
  return own.length < 8 ? `says too little (${own.length} words besides the line and the code)` : null;
}

/** The skipped lines of a parse whose reason breaks the rule, as `line: fault: reason`. */
function faults(result: ImportResult): string[] {
  const codeOf = new Map(result.warnings.filter((w) => w.row !== undefined).map((w) => [w.row!, w.code]));
  return (result.skippedRows ?? []).flatMap((s) => {
    const fault = faultOf(s.reason, s.line, codeOf.get(s.line));
    return fault ? [`${s.line}: ${fault}: ${s.reason}`] : [];
  });
}

/** Every sample file of every importer, by plugin code. */
function samples(): Map<string, { folder: string; name: string }[]> {
  const out = new Map<string, { folder: string; name: string }[]>();
  for (const folder of readdirSync(FIXTURES).sort()) {
    const code = PLUGIN_OF[folder] ?? `broker_${folder.replace(/-/g, "_")}`;
    if (!importers.has(code)) continue;
    for (const name of readdirSync(join(FIXTURES, folder)).sort()) {
      if (/\.(csv|txt|xlsx?|pdf|xml|zip)$/i.test(name)) out.set(code, [...(out.get(code) ?? []), { folder, name }]);
    }
  }
  return out;
}

const SAMPLES = samples();

describe("a skipped line's reason names its line and says what it was, why and what to do, in every importer's samples", () => {
  test("every import plugin has samples here", () => {
    expect([...importers.keys()].filter((code) => !SAMPLES.has(code))).toEqual([]);
  });

  test.each([...SAMPLES.keys()].sort())("%s", async (code) => {
    const found: string[] = [];
    for (const { folder, name } of SAMPLES.get(code)!) {
      let result: ImportResult;
      try {
        result = await parse(code, new Uint8Array(readFileSync(join(FIXTURES, folder, name))), name, OPTIONS[`${folder}/${name}`]);
      } catch (error) {
        if (isPluginError(error)) continue; // a file refused whole (a cancellation note, another report of the broker) has no lines
        throw error;
      }
      found.push(...faults(result).map((f) => `${folder}/${name} line ${f}`));
    }
    expect(found).toEqual([]);
  });
});

/** A CSV of `lines` below `header`, and its parse by `code`. */
const csv = (code: string, header: string, lines: string[], options?: Record<string, unknown>) =>
  parse(code, new TextEncoder().encode([header, ...lines].join("\n")), "report.csv", options);

/**
 * Each of `expected` (line → its type cell) is skipped with a reason that keeps the rule and quotes
 * the type; no other line is skipped.
 */
function expectSkipped(result: ImportResult, expected: Record<number, string>): void {
  expect((result.skippedRows ?? []).map((s) => s.line)).toEqual(Object.keys(expected).map(Number));
  expect(faults(result)).toEqual([]);
  for (const s of result.skippedRows ?? []) expect(s.reason).toContain(`"${expected[s.line]}"`);
}

describe("every way Bitvavo, Coinbase, eToro, Scalable, XTB and Lightyear leave a line out gives such a reason", () => {
  test("Bitvavo: not completed, unreadable date, amount or coin, a trade without its euros, an unknown type", async () => {
    const header = "Timezone,Date,Time,Type,Currency,Amount,Quote Currency,Quote Price,Received / Paid Currency,Received / Paid Amount,Fee currency,Fee amount,Status,Transaction ID,Address";
    const r = await csv("broker_bitvavo", header, [
      "Europe/Amsterdam,2024-03-21,09:00:00,buy,BTC,0.01,EUR,61000,EUR,-610,EUR,1.5,Pending,id-2,",
      "Europe/Amsterdam,2024-13-45,09:00:00,deposit,EUR,100,,,,,,,Completed,id-3,",
      "Europe/Amsterdam,2024-03-22,09:00:00,deposit,EUR,0,,,,,,,Completed,id-4,",
      "Europe/Amsterdam,2024-03-22,09:00:00,deposit,,100,,,,,,,Completed,id-5,",
      "Europe/Amsterdam,2024-03-23,09:00:00,sell,BTC,-0.01,EUR,61000,,,EUR,1.5,Completed,id-6,",
      "Europe/Amsterdam,2024-03-24,09:00:00,airdrop,ARB,12,,,,,,,Completed,id-7,",
    ]);
    expectSkipped(r, { 2: "buy", 3: "deposit", 4: "deposit", 5: "deposit", 6: "sell", 7: "airdrop" });
    expect(r.warnings.map((w) => `${w.row} ${w.code}`)).toEqual(["2 notCompleted", "3 rowSkipped", "4 rowSkipped", "5 rowSkipped", "6 rowSkipped", "7 unsupportedType"]);
    expect(r.skippedRows?.find((s) => s.line === 6)?.reason).toContain("enter it by hand as a SELL of BTC");
  });

  test("Coinbase: unreadable timestamp, quantity or currency, a trade without subtotal, a convert without what was received, an unknown type", async () => {
    const header = "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes";
    const r = await csv("broker_coinbase", header, [
      "1,yesterday,Buy,BTC,0.01,EUR,€40000,€398.00,€400.00,€2.00,",
      "2,2024-01-05 15:31:12 UTC,Buy,BTC,0,EUR,€40000,€398.00,€400.00,€2.00,",
      "3,2024-01-05 15:31:12 UTC,Buy,BTC,0.01,,€40000,€398.00,€400.00,€2.00,",
      "4,2024-01-05 15:31:12 UTC,Sell,BTC,0.01,EUR,€40000,,€400.00,€2.00,",
      "5,2024-02-10 10:00:00 UTC,Convert,BTC,0.002,EUR,€42000,€84.00,€84.00,€0.00,Swapped",
      "6,2024-02-11 10:00:00 UTC,Retail Staking Transfer,ETH,0.1,EUR,€2000,€200.00,€200.00,€0.00,",
    ]);
    expectSkipped(r, { 2: "Buy", 3: "Buy", 4: "Buy", 5: "Sell", 6: "Convert", 7: "Retail Staking Transfer" });
    expect(r.warnings.map((w) => `${w.row} ${w.code}`)).toEqual(["2 rowSkipped", "3 rowSkipped", "4 rowSkipped", "5 rowSkipped", "6 rowSkipped", "7 unsupportedType"]);
  });

  test("eToro: a setting, a CFD row, copy trading, unreadable date, amount or units, an adjustment, an unknown type", async () => {
    const header = "Date,Type,Details,Amount,Units,Realized Equity Change,Realized Equity,Balance,Position ID,Asset type,NWA";
    const r = await csv("broker_etoro", header, [
      "02/01/2024 10:00:00,Edit Take Profit,NVDA/USD,0,-,0,100,100,1,Stocks,0",
      "02/01/2024 10:00:00,Open Position,GOLD/USD,500,2,0,100,100,2,CFD,0",
      "02/01/2024 10:00:00,Mirror deposit,SampleTrader,-200,-,0,100,100,-,,0",
      "45/01/2024 10:00:00,Dividend,NKE/USD,0.17,-,0.17,100,100,3,Stocks,0",
      "02/01/2024 10:00:00,Dividend,NKE/USD,0,-,0,100,100,3,Stocks,0",
      "02/01/2024 10:00:00,Open Position,AMD/USD,49.88,-,0,100,100,4,Stocks,0",
      "02/01/2024 10:00:00,Adjustment,-,0.01,-,0.01,100,100,-,,0",
      "02/01/2024 10:00:00,Staking,ETH/USD,0.02,-,0.02,100,100,5,Crypto,0",
    ]);
    expectSkipped(r, { 2: "Edit Take Profit", 3: "Open Position", 4: "Mirror deposit", 5: "Dividend", 6: "Dividend", 7: "Open Position", 8: "Adjustment", 9: "Staking" });
    expect(r.warnings.map((w) => `${w.row} ${w.code}`)).toEqual([
      "2 movesNoCash", "3 cfdSkipped", "4 unsupportedType", "5 rowSkipped", "6 rowSkipped", "7 rowSkipped", "8 unsupportedType", "9 unsupportedType",
    ]);
  });

  test("Scalable: not executed, an unknown type, unreadable date, amount, currency or shares", async () => {
    const header = "date;time;status;reference;description;assetType;type;isin;shares;price;amount;fee;tax;currency";
    const r = await csv("broker_scalable", header, [
      '2024-03-21;09:00:00;Pending;"R2";"Vanguard FTSE All-World (Acc)";Security;Buy;IE00BK5BQT80;1;110,00;-110,00;-0,99;0,00;EUR',
      '2024-03-21;09:00:00;Executed;"R3";"Apple";Security;Corporate action;US0378331005;3;;0,00;0,00;0,00;EUR',
      '2024-13-45;09:00:00;Executed;"R4";"Deposit";Cash;Deposit;;;;100,00;0,00;0,00;EUR',
      '2024-03-21;09:00:00;Executed;"R5";"Deposit";Cash;Deposit;;;;0,00;0,00;0,00;EUR',
      '2024-03-21;09:00:00;Executed;"R6";"Deposit";Cash;Deposit;;;;100,00;0,00;0,00;',
      '2024-03-21;09:00:00;Executed;"R7";"Apple";Security;Sell;US0378331005;;;224,20;0,00;0,00;EUR',
    ]);
    expectSkipped(r, { 2: "Buy", 3: "Corporate action", 4: "Deposit", 5: "Deposit", 6: "Deposit", 7: "Sell" });
    expect(r.warnings.map((w) => `${w.row} ${w.code}`)).toEqual(["2 notExecuted", "3 unsupportedType", "4 rowSkipped", "5 rowSkipped", "6 rowSkipped", "7 rowSkipped"]);
    expect(r.skippedRows?.find((s) => s.line === 2)?.reason).toContain("export again once it is executed");
  });

  test("XTB: the Total line, unreadable time or amount, a trade without quantity or of the wrong sign, CFD cash, a spin-off, an adjustment, an unknown type; a refund names its line", async () => {
    const r = await csv("broker_xtb", "ID;Type;Time;Comment;Symbol;Amount;;;;", [
      "1;Deposit;31.02.2024 09:00:21;JP_MORGAN deposit;;800;;;;",
      "2;Deposit;02.02.2024 09:00:21;JP_MORGAN deposit;;0;;;;",
      "3;Stocks/ETF purchase;05.02.2024 13:01:45;market order;SPYL.DE;-234.96;;;;",
      "4;Stocks/ETF purchase;05.02.2024 13:01:45;OPEN BUY 20 @ 11.7480;SPYL.DE;234.96;;;;",
      "5;Swap;16.07.2024 00:00:00;Swap of position #1;EURUSD;-0.3;;;;",
      "6;Spin off;16.10.2024 14:50:01;T.US USD 5.8970/ SHR;T.US;2.68;;;;",
      "7;Adjustment;21.03.2024 09:00:00;Correction;;0.5;;;;",
      "8;Bonus;21.03.2024 09:00:00;Welcome;;10;;;;",
      "9;Withholding tax;26.09.2024 11:00:23;GOOGL.US USD WHT 15% refund;GOOGL.US;0.03;;;;",
      "Total;;;;;1000;;;;",
    ], { currency: "EUR" });
    expectSkipped(r, { 2: "Deposit", 3: "Deposit", 4: "Stocks/ETF purchase", 5: "Stocks/ETF purchase", 6: "Swap", 7: "Spin off", 8: "Adjustment", 9: "Bonus", 11: "Total" });
    expect(r.warnings.map((w) => `${w.row} ${w.code}`)).toEqual([
      "2 rowSkipped", "3 rowSkipped", "4 rowSkipped", "5 rowSkipped", "6 unsupportedType", "7 unsupportedType", "8 unsupportedType", "9 unsupportedType", "10 signReversed", "11 summaryRowSkipped",
    ]);
    expect(r.warnings.find((w) => w.code === "signReversed")?.message).toStartWith('Line 10: "Withholding tax"');
  });

  test("Lightyear: unreadable date, currency, amount or quantity, an unknown type, a conversion leg alone", async () => {
    const r = await csv("broker_lightyear", "Date,Reference,Ticker,ISIN,Type,Quantity,CCY,Price/share,Gross Amount,FX Rate,Fee,Net Amt.,Tax Amt.", [
      "32/06/2025 09:01:34,WL-1,,,Withdrawal,,USD,,-200.00,,,-200.00,",
      "25/06/2025 09:01:34,WL-2,,,Withdrawal,,,,-200.00,,,-200.00,",
      "25/06/2025 09:01:34,WL-3,,,Withdrawal,,USD,,0,,,0,",
      "20/06/2025 14:22:11,OR-4,AAPL,US0378331005,Sell,,USD,210.30,420.60,,1.00,419.60,",
      "01/06/2025 09:00:00,CA-5,AAPL,US0378331005,Stock split,10,USD,,1,,,,",
      "16/01/2025 10:00:00,CN-6,GBP,,Conversion,,GBP,,50.00,1.19,,50.00,",
    ]);
    expectSkipped(r, { 2: "Withdrawal", 3: "Withdrawal", 4: "Withdrawal", 5: "Sell", 6: "Stock split", 7: "Conversion" });
    expect(r.warnings.map((w) => `${w.row} ${w.code}`)).toEqual(["2 rowSkipped", "3 rowSkipped", "4 rowSkipped", "5 rowSkipped", "6 unsupportedType", "7 conversionUnpaired"]);
  });
});
