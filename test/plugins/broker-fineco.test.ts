import { describe, expect, test } from "bun:test";
import { brokerFinecoPlugin } from "../../plugins/broker-fineco/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll, unaccounted, workbookFixture } from "./brim-helpers.ts";

// Hand-checked against test/fixtures/brim/fineco/movimenti-dossier-titoli.csv, written before the parser.
const dossier = fixture("fineco", "movimenti-dossier-titoli.csv");
const degiro = fixture("degiro", "Account.csv");

runImportPluginContract(brokerFinecoPlugin, { sample: { ...dossier, foreign: degiro.file, foreignBytes: degiro.bytes } });

describe("Fineco Movimenti Dossier Titoli", () => {
  test("buys (A) and sells (V) by the Segno column; a trade in a foreign currency is paid in euros through an FX pair at Cambio; splits skipped", async () => {
    const result = await (await brokerFinecoPlugin.create({} as never)).parse(dossier);
    expect(pinAll(result)).toEqual([
      "5 BUY 2024-01-15 q=1000 -6512 EUR IT0003128367",
      "6 SELL 2024-02-20 q=-500 3400 EUR IT0003128367",
      "7 BUY 2024-03-05 q=5 -950 USD US0378331005",
      "7 FX_CONVERSION 2024-03-05 q=0 -869.96 EUR - pair",
      "7 FX_CONVERSION 2024-03-05 q=0 950 USD - pair",
    ]);
    expect(result.warnings).toEqual([expect.objectContaining({ code: "unsupportedOperation", row: 8 })]);
  });

  test("detection claims the dossier and not a Degiro file", async () => {
    const plugin = await brokerFinecoPlugin.create({} as never);
    expect(plugin.accepts(dossier.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});

// Fineco's securities movements as the site exports them: movimenti-titoli.xlsx (by make-sample.ts:
// account block, blank row under the header, number cells beside Italian text numbers,
// commissions in their own columns, dividends, coupons, capital increases, redemptions) and the
// comma CSV with points. Invented values in the real structures, pinned by hand before the parser
// learned them; the workbook used to give "no transactions found".
describe("Fineco movements, XLSX and comma CSV", () => {
  test("the workbook: trades with their commissions, dividends, coupons, a capital increase at its price, a redemption; a transfer skipped", async () => {
    const book = await workbookFixture("fineco", "movimenti-titoli.xlsx");
    const plugin = await brokerFinecoPlugin.create({} as never);
    expect(plugin.accepts(book.file)).toBeGreaterThanOrEqual(0.9);
    const result = await plugin.parse(book);
    expect(pinAll(result)).toEqual([
      "8 BUY 2024-12-02 q=3 -315.54 EUR IE00B4L5Y983",
      "9 SELL 2025-01-03 q=-1 1062.5 EUR IE00B4L5Y983",
      "9 FEE 2025-01-03 q=0 -2.95 EUR IE00B4L5Y983",
      "10 BUY 2025-02-20 q=2 -357 USD US0378331005",
      "10 FX_CONVERSION 2025-02-20 q=0 -329.03 EUR - pair",
      "10 FX_CONVERSION 2025-02-20 q=0 357 USD - pair",
      "10 FEE 2025-02-20 q=0 -12.95 EUR US0378331005",
      "11 DIVIDEND 2025-01-10 q=0 12.4 EUR IE00B4L5Y983",
      "12 INTEREST 2025-06-01 q=0 24.38 EUR IT0005583478",
      "13 ADJUSTMENT 2025-06-19 q=3 no-cash IE00B4L5Y983",
      "14 BUY 2025-01-10 q=2000 -1990 EUR IT0005583478",
      "14 FEE 2025-01-10 q=0 -5 EUR IT0005583478",
      "15 SELL 2025-09-01 q=-2000 2000 EUR IT0005583478",
    ]);
    expect(result.transactions.find((t) => t.type === "ADJUSTMENT")?.costBasis as unknown).toEqual({ amount: "5.026", currency: "EUR" });
    expect(result.warnings.map((w) => `${w.row} ${w.code}`)).toEqual(["13 capitalIncrease", "16 unsupportedOperation"]);
    expect(unaccounted(result, Array.from({ length: 9 }, (_, i) => i + 8))).toEqual([]);
  });

  test("the comma CSV with points as decimals and a commission column", async () => {
    const csv = fixture("fineco", "movimenti-titoli.csv");
    const plugin = await brokerFinecoPlugin.create({} as never);
    expect(plugin.accepts(csv.file)).toBeGreaterThanOrEqual(0.9);
    expect(pinAll(await plugin.parse(csv))).toEqual([
      "7 BUY 2024-01-15 q=10 -330.5 EUR IE00BKM4GZ66",
      "7 FEE 2024-01-15 q=0 -2.95 EUR IE00BKM4GZ66",
      "8 SELL 2024-03-15 q=-4 136.8 EUR IE00BKM4GZ66",
      "8 FEE 2024-03-15 q=0 -2.95 EUR IE00BKM4GZ66",
      "9 DIVIDEND 2024-06-15 q=0 20.95 EUR IE00B2NPKV68",
    ]);
  });

  test("detection from content: the workbook by its header, other brokers' workbooks not", async () => {
    const plugin = await brokerFinecoPlugin.create({} as never);
    for (const [broker, name] of [["xtb", "xstation-export.xlsx"], ["etoro", "account-statement-2024.xlsx"], ["saxo", "transactions.xlsx"]] as const) {
      expect(plugin.accepts((await workbookFixture(broker, name)).file)).toBe(0);
    }
  });
});
