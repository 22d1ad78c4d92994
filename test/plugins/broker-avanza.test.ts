import { describe, expect, test } from "bun:test";
import { brokerAvanzaPlugin } from "../../plugins/broker-avanza/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { expectEveryLineAccounted } from "./brim-accounting.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// The Avanza export as it circulates in public converters' test suites (UTF-8 BOM, semicolons,
// decimal commas, newest line first; "Courtage (SEK)", Transaktionsvaluta, Valutakurs and
// Instrumentvaluta since 2023; the older layout with "-" in empty cells), values invented. Each
// line's classification written down by hand before the parser.
const sample = fixture("avanza", "transaktioner.csv");
const degiro = fixture("degiro", "Account.csv");
runImportPluginContract(brokerAvanzaPlugin, { sample: { ...sample, foreign: degiro.file, foreignBytes: degiro.bytes } });

const parse = async (name: string) => (await brokerAvanzaPlugin.create({} as never)).parse(fixture("avanza", name));

describe("Avanza transactions export", () => {
  test("every line: trades split from their courtage, dividends and foreign withholding, interest, yield tax, ADR fee, fee rebate, deposits and withdrawals", async () => {
    const r = await parse("transaktioner.csv");
    expect(r.detectedFormat).toBe("avanza/transactions");
    expect(pinAll(r)).toEqual([
      "2 WITHDRAWAL 2024-06-28 q=0 -1500 SEK -",
      "3 TAX 2024-06-03 q=0 -42 SEK -",
      "4 INTEREST 2024-05-31 q=0 1.37 SEK -",
      "5 SELL 2024-05-20 q=-20 1290 SEK SE0000108656",
      "5 FEE 2024-05-20 q=0 -19 SEK SE0000108656",
      "6 TAX 2024-05-17 q=0 -1.21 SEK US0378331005",
      "7 DIVIDEND 2024-05-17 q=0 8.06 SEK US0378331005",
      "8 FEE 2024-04-15 q=0 -0.9 SEK -",
      "9 DIVIDEND 2024-04-04 q=0 94.5 SEK SE0000108656",
      "10 INTEREST 2024-03-28 q=0 2.15 SEK -",
      "13 BUY 2024-02-14 q=3 -5748.75 SEK US0378331005",
      "13 FEE 2024-02-14 q=0 -1 SEK US0378331005",
      "14 BUY 2024-02-01 q=70 -4074 SEK SE0000108656",
      "14 FEE 2024-02-01 q=0 -19 SEK SE0000108656",
      "15 DEPOSIT 2024-01-25 q=0 1000 SEK -",
      "16 DEPOSIT 2024-01-10 q=0 10000 SEK -",
    ]);
    expectEveryLineAccounted("avanza", "transaktioner.csv", r, 1);
  });

  test("a buy of a US share from the SEK account: the SEK paid less the courtage, the courtage a FEE, the instrument's currency a hint", async () => {
    const r = await parse("transaktioner.csv");
    expect(r.transactions.filter((t) => t.row === 13)).toEqual([
      {
        row: 13, date: "2024-02-14", description: "Köp: Apple Inc", type: "BUY", isin: "US0378331005", assetName: "Apple Inc", assetCurrency: "USD",
        quantity: "3", cash: { amount: "-5748.75", currency: "SEK" },
      },
      {
        row: 13, date: "2024-02-14", description: "Köp: Apple Inc", type: "FEE", isin: "US0378331005", assetName: "Apple Inc", assetCurrency: "USD",
        quantity: "0", cash: { amount: "-1", currency: "SEK" },
      },
    ] as never);
  });

  test("a sale (negative Antal) gets its courtage back in the proceeds; dividend and withholding carry the security", async () => {
    const r = await parse("transaktioner.csv");
    const at = (row: number) => r.transactions.filter((t) => t.row === row);
    expect(at(5)[0]).toEqual({
      row: 5, date: "2024-05-20", description: "Sälj: Telefonaktiebolaget LM Ericsson B", type: "SELL", isin: "SE0000108656",
      assetName: "Telefonaktiebolaget LM Ericsson B", assetCurrency: "SEK", quantity: "-20", cash: { amount: "1290", currency: "SEK" },
    } as never);
    expect(at(7)[0]).toEqual({
      row: 7, date: "2024-05-17", description: "Utdelning: Apple Inc", type: "DIVIDEND", isin: "US0378331005", assetName: "Apple Inc",
      assetCurrency: "USD", quantity: "0", cash: { amount: "8.06", currency: "SEK" },
    } as never);
    expect(at(6)[0]).toEqual({
      row: 6, date: "2024-05-17", description: "Utländsk källskatt: Utdelning AAPL 0.25 USD/aktie 15%", type: "TAX", isin: "US0378331005",
      quantity: "0", cash: { amount: "-1.21", currency: "SEK" },
    } as never);
  });

  test("cash lines carry no security: interest, yield tax (Övrigt: Avkastningsskatt), fee rebate, ADR fee, deposits, withdrawals", async () => {
    const r = await parse("transaktioner.csv");
    const one = (row: number) => r.transactions.find((t) => t.row === row);
    expect(one(4)).toEqual({ row: 4, date: "2024-05-31", description: "Ränta", type: "INTEREST", quantity: "0", cash: { amount: "1.37", currency: "SEK" } } as never);
    expect(one(3)).toEqual({ row: 3, date: "2024-06-03", description: "Övrigt: Avkastningsskatt", type: "TAX", quantity: "0", cash: { amount: "-42", currency: "SEK" } } as never);
    expect(one(10)?.description).toBe("Övrigt: Återbetalning Total avgift 2023 Avanza Zero");
    expect(one(8)).toEqual({ row: 8, date: "2024-04-15", description: "ADR-avgift: ADR TSM.N 2024-03-21", type: "FEE", quantity: "0", cash: { amount: "-0.9", currency: "SEK" } } as never);
    expect(one(15)).toEqual({ row: 15, date: "2024-01-25", description: "Autogiroinsättning: Autogiroinsättning", type: "DEPOSIT", quantity: "0", cash: { amount: "1000", currency: "SEK" } } as never);
    expect(one(2)).toEqual({ row: 2, date: "2024-06-28", description: "Uttag: Uttag till 9999-1234567", type: "WITHDRAWAL", quantity: "0", cash: { amount: "-1500", currency: "SEK" } } as never);
  });

  test("units moved without a price (a security conversion under Övrigt, Tillgångsinsättning) are skipped rows with the reason", async () => {
    const r = await parse("transaktioner.csv");
    expect(r.skippedRows).toEqual([
      { line: 11, reason: expect.stringContaining("converts a security") },
      { line: 12, reason: expect.stringContaining("Tillgångsinsättning") },
    ]);
  });

  test("the older layout (Courtage;Valuta;ISIN, '-' in empty cells, SEK only) is read too", async () => {
    const r = await parse("transaktioner-2021.csv");
    expect(r.detectedFormat).toBe("avanza/transactions-legacy");
    expect(pinAll(r)).toEqual([
      "2 SELL 2021-06-10 q=-5 1000.5 SEK SE0015811963",
      "2 FEE 2021-06-10 q=0 -5 SEK SE0015811963",
      "3 DIVIDEND 2021-05-12 q=0 52.5 SEK SE0015811963",
      "4 BUY 2021-04-20 q=15 -2869.5 SEK SE0015811963",
      "4 FEE 2021-04-20 q=0 -5 SEK SE0015811963",
      "5 DEPOSIT 2021-04-19 q=0 3000 SEK -",
    ]);
    expectEveryLineAccounted("avanza", "transaktioner-2021.csv", r, 1);
  });

  test("an amount that cannot be read is a skipped row with a warning, an empty one (or '-') an info: nothing is lost silently", async () => {
    const text = "Datum;Konto;Typ av transaktion;Värdepapper/beskrivning;Antal;Kurs;Belopp;Courtage;Valuta;ISIN;Resultat\n"
      + "2021-04-19;1234567;Insättning;Insättning;-;-;3 000 kr?;-;SEK;-;-\n2021-04-20;1234567;Övrigt;Info;-;-;-;-;SEK;-;-\n";
    const bytes = new TextEncoder().encode(text);
    const r = await (await brokerAvanzaPlugin.create({} as never)).parse({ bytes, file: { ...sample.file, head: text } });
    expect(r.transactions).toEqual([]);
    expect(r.skippedRows).toEqual([
      {
        line: 2,
        reason: 'Line 2: Belopp "3 000 kr?" is not an amount, so "Insättning" (Insättning, 2021-04-19, 3 000 kr? SEK) is not imported; correct the cell and upload the file again, or enter the row by hand',
      },
      { line: 3, reason: 'Line 3: "Övrigt" (Info, 2021-04-20) has no amount; not imported, nothing to enter: it moves no cash' },
    ]);
    expect(r.warnings.map((w) => [w.row, w.severity])).toEqual([[2, "warning"], [3, "info"]]);
  });

  test("detection claims both layouts by content and not a DEGIRO file", async () => {
    const plugin = await brokerAvanzaPlugin.create({} as never);
    expect(plugin.accepts({ ...sample.file, filename: "upload.csv" })).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(fixture("avanza", "transaktioner-2021.csv").file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});
