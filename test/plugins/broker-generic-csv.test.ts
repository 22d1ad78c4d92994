import { describe, expect, test } from "bun:test";
import { brokerGenericCsvPlugin } from "../../plugins/broker-generic-csv/index.ts";
import { describeFile } from "../../sdk/import/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { expectEveryLineAccounted } from "./brim-accounting.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Hand-checked against the sample files (test/fixtures/brim/generic/), written before the parser.
const en = fixture("generic", "generic-en.csv");
const it = fixture("generic", "generic-it.csv");
const degiro = fixture("degiro", "Account.csv");

runImportPluginContract(brokerGenericCsvPlugin, { sample: { ...en, foreign: { ...degiro.file, format: "pdf", head: "" } } });
runImportPluginContract(brokerGenericCsvPlugin, { sample: it });

const importer = () => brokerGenericCsvPlugin.create({} as never);

describe("generic CSV, English headers, comma separated", () => {
  test("every type word is classified with the ledger's signs; unsigned amounts signed by type; a fee column becomes a FEE row; a missing amount is quantity × price", async () => {
    expect(pinAll(await (await importer()).parse(en))).toEqual([
      "2 DEPOSIT 2024-01-02 q=0 1000 EUR -",
      "3 BUY 2024-01-03 q=5 -552.5 EUR IE00BK5BQT80/VWCE",
      "3 FEE 2024-01-03 q=0 -1.5 EUR IE00BK5BQT80/VWCE",
      "4 DIVIDEND 2024-02-01 q=0 3.2 EUR IE00B3RBWM25",
      "5 TAX 2024-02-01 q=0 -0.48 EUR IE00B3RBWM25",
      "6 SELL 2024-03-04 q=-2 230 EUR IE00BK5BQT80/VWCE",
      "6 FEE 2024-03-04 q=0 -1.5 EUR IE00BK5BQT80/VWCE",
      "7 INTEREST 2024-03-31 q=0 0.8 EUR -",
      "8 FEE 2024-04-02 q=0 -2 EUR -",
      "9 WITHDRAWAL 2024-04-05 q=0 -100 EUR -",
    ]);
  });
});

describe("generic CSV, Italian headers, Windows-1252, semicolons, decimal commas, day-first dates", () => {
  test("every row is classified and thousands separators are read", async () => {
    expect(pinAll(await (await importer()).parse(it))).toEqual([
      "2 DEPOSIT 2024-01-02 q=0 7000 EUR -",
      "3 BUY 2024-01-15 q=1000 -6512 EUR IT0003128367",
      "3 FEE 2024-01-15 q=0 -2.95 EUR IT0003128367",
      "4 DIVIDEND 2024-01-31 q=0 215 EUR IT0003128367",
      "5 TAX 2024-01-31 q=0 -55.9 EUR IT0003128367",
      "6 SELL 2024-02-20 q=-500 3400 EUR IT0003128367",
      "6 FEE 2024-02-20 q=0 -2.95 EUR IT0003128367",
      "7 INTEREST 2024-02-29 q=0 1.25 EUR -",
      "8 WITHDRAWAL 2024-03-01 q=0 -1000 EUR -",
    ]);
  });
});

describe("generic CSV, other languages and a configurable mapping", () => {
  const text = (s: string) => new TextEncoder().encode(s);
  test.each([
    ["DE", "Datum;Typ;ISIN;Stück;Betrag;Währung\n03.01.2024;Kauf;DE0007164600;2;-250,00;EUR\n"],
    ["FR", "Date;Type;ISIN;Quantité;Montant;Devise\n03/01/2024;Achat;DE0007164600;2;250,00;EUR\n"],
    ["ES", "Fecha;Tipo;ISIN;Cantidad;Importe;Divisa\n03/01/2024;Compra;DE0007164600;2;250,00;EUR\n"],
    ["NL", "Datum;Type;ISIN;Aantal;Bedrag;Valuta\n03-01-2024;Aankoop;DE0007164600;2;250,00;EUR\n"],
  ])("%s headers and type words", async (_lang, csv) => {
    const bytes = text(csv);
    expect(pinAll(await (await importer()).parse({ bytes, file: describeFile(bytes, "x.csv") }))).toEqual([
      "2 BUY 2024-01-03 q=2 -250 EUR DE0007164600",
    ]);
  });

  test("column_mapping names the columns of an unknown layout, and type_mapping its words", async () => {
    const bytes = text("When,What,Paper,Units,Money,Ccy\n2024-01-03,purchase,DE0007164600,2,250.00,EUR\n");
    const result = await (await importer()).parse({
      bytes, file: describeFile(bytes, "x.csv"),
      options: { column_mapping: { date: "When", type: "What", isin: "Paper", quantity: "Units", amount: "Money", currency: "Ccy" }, type_mapping: { purchase: "BUY" } },
    });
    expect(pinAll(result)).toEqual(["2 BUY 2024-01-03 q=2 -250 EUR DE0007164600"]);
  });

  test("a row with an unknown type word or no date is skipped with a warning naming the row", async () => {
    const bytes = text("Date,Type,Amount,Currency\n2024-01-03,Lottery,5,EUR\n,Deposit,5,EUR\n2024-01-04,Deposit,5,EUR\n");
    const result = await (await importer()).parse({ bytes, file: describeFile(bytes, "x.csv") });
    expect(pinAll(result)).toEqual(["4 DEPOSIT 2024-01-04 q=0 5 EUR -"]);
    expect(result.warnings.map((w) => [w.code, w.row])).toEqual([["unknownType", 2], ["badDate", 3]]);
  });

  test("a file without a date and a type column is refused with the columns it needs", async () => {
    const bytes = text("a,b\n1,2\n");
    await expect((await importer()).parse({ bytes, file: describeFile(bytes, "x.csv") })).rejects.toThrow(/date.*type/i);
  });
});

describe("generic CSV, a 'Unit Price' layout whose trades have no amount", () => {
  const sample = fixture("generic", "generic-unit-price.csv");
  runImportPluginContract(brokerGenericCsvPlugin, { sample });

  test("each trade is quantity × unit price (an empty or zero amount), its fee a FEE row; a trade without amount and price is listed as skipped", async () => {
    const r = await (await importer()).parse(sample);
    expect(r.detectedFormat).toBe("generic-csv");
    expect(pinAll(r)).toEqual([
      "2 DEPOSIT 2024-01-02 q=0 2000 EUR -",
      "3 BUY 2024-01-03 q=10 -1053.2 EUR IE00BK5BQT80/VWCE",
      "3 FEE 2024-01-03 q=0 -2 EUR IE00BK5BQT80/VWCE",
      "4 BUY 2024-01-10 q=2 -902.2 EUR IE00B5BMR087/SXR8",
      "4 FEE 2024-01-10 q=0 -1 EUR IE00B5BMR087/SXR8",
      "5 DIVIDEND 2024-02-15 q=0 4.1 EUR IE00B3RBWM25",
      "6 SELL 2024-03-04 q=-4 451.2 EUR IE00BK5BQT80/VWCE",
      "6 FEE 2024-03-04 q=0 -2 EUR IE00BK5BQT80/VWCE",
      "8 SELL 2024-03-06 q=-1 460 EUR IE00B5BMR087/SXR8",
      "8 FEE 2024-03-06 q=0 -1 EUR IE00B5BMR087/SXR8",
      "9 INTEREST 2024-03-31 q=0 0.85 EUR -",
      "10 WITHDRAWAL 2024-04-02 q=0 -150 EUR -",
    ]);
    expect(r.skippedRows).toEqual([{
      line: 7,
      reason: 'Line 7: "Buy" (SXR8, 2024-03-05) is a BUY of 1 without an amount, and no price in its row to compute it; not imported, fill in its amount or price and upload again, or enter it by hand as a BUY',
    }]);
    expect(r.warnings.filter((w) => w.code === "amountComputed").map((w) => w.row)).toEqual([3, 4, 6, 8]);
    expectEveryLineAccounted("generic", "generic-unit-price.csv", r, 1);
  });

  test("without a price column the reason says how to name it", async () => {
    const bytes = new TextEncoder().encode("Date,Type,ISIN,Quantity,Cost each,Amount,Currency\n2024-01-03,Buy,DE0007164600,2,125.00,,EUR\n");
    const r = await (await importer()).parse({ bytes, file: describeFile(bytes, "x.csv") });
    expect(r.transactions).toEqual([]);
    expect(r.skippedRows).toEqual([{ line: 2, reason: expect.stringContaining("column_mapping.price") }]);
    const mapped = await (await importer()).parse({ bytes, file: describeFile(bytes, "x.csv"), options: { column_mapping: { price: "Cost each" } } });
    expect(pinAll(mapped)).toEqual(["2 BUY 2024-01-03 q=2 -250 EUR DE0007164600"]);
  });

  test("the other samples' lines are all accounted for", async () => {
    expectEveryLineAccounted("generic", "generic-en.csv", await (await importer()).parse(en), 1);
    expectEveryLineAccounted("generic", "generic-it.csv", await (await importer()).parse(it), 1);
  });
});
