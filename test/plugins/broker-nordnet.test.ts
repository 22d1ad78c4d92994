import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "bun:test";
import { brokerNordnetPlugin } from "../../plugins/broker-nordnet/index.ts";
import type { ImportResult } from "../../sdk/index.ts";
import { decodeText } from "../../sdk/import/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// The Nordnet "transactions and notes" export as it circulates in public importers' test suites:
// UTF-16 LE with a BOM, tabs, thirty columns with "Valuta" after each money column, newest line
// first, a header and transaction words per site language (Swedish, Norwegian, Danish; the Finnish
// one with its Instrumenttityyppi column); values invented. Each line's classification written down
// by hand before the parser.
const SV = "transactions-and-notes-export.csv";
const sample = fixture("nordnet", SV);
const degiro = fixture("degiro", "Account.csv");
runImportPluginContract(brokerNordnetPlugin, { sample: { ...sample, foreign: degiro.file, foreignBytes: degiro.bytes } });

const parse = async (name: string) => (await brokerNordnetPlugin.create({} as never)).parse(fixture("nordnet", name));

/** Every data line of a UTF-16 sample gave rows or is a skipped row with a reason, never both. */
function expectEveryLineAccounted(name: string, result: ImportResult): void {
  const text = decodeText(new Uint8Array(readFileSync(join(import.meta.dir, "..", "fixtures", "brim", "nordnet", name)))).text;
  const data = text.split(/\r?\n/).map((l, i) => ({ l, n: i + 1 })).filter(({ l, n }) => n > 1 && l.trim() !== "").map(({ n }) => n);
  const rows = new Set(result.transactions.map((t) => t.row));
  const skipped = (result.skippedRows ?? []).map((s) => s.line);
  expect(skipped.filter((n) => rows.has(n))).toEqual([]);
  expect((result.skippedRows ?? []).filter((s) => s.reason.trim() === "")).toEqual([]);
  expect([...new Set([...rows, ...skipped])].sort((a, b) => a! - b!)).toEqual(data);
}

describe("Nordnet transactions export, Swedish", () => {
  test("every line: trades split from their fees (the contract note their order), dividends, foreign withholding, interest, yield tax, fees, deposits, withdrawals", async () => {
    const r = await parse(SV);
    expect(r.detectedFormat).toBe("nordnet/transactions/sv");
    expect(pinAll(r)).toEqual([
      "2 FEE 2024-06-28 q=0 -1.5 SEK -",
      "3 WITHDRAWAL 2024-06-10 q=0 -1000 SEK -",
      "5 SELL 2024-05-02 q=-15 4050 SEK SE0000115446 order=98765000",
      "5 FEE 2024-05-02 q=0 -39 SEK SE0000115446 order=98765000",
      "6 DIVIDEND 2024-04-05 q=0 280 SEK SE0000115446",
      "8 TAX 2024-03-14 q=0 -2.39 SEK US5949181045",
      "9 DIVIDEND 2024-03-14 q=0 15.9 SEK US5949181045",
      "10 INTEREST 2024-02-01 q=0 3.12 SEK -",
      "11 TAX 2024-01-31 q=0 -55 SEK -",
      "12 BUY 2024-01-15 q=2 -8077.14 SEK US5949181045 order=98765000",
      "12 FEE 2024-01-15 q=0 -15 SEK US5949181045 order=98765000",
      "13 BUY 2024-01-10 q=40 -10020 SEK SE0000115446 order=98765000",
      "13 FEE 2024-01-10 q=0 -39 SEK SE0000115446 order=98765000",
      "14 DEPOSIT 2024-01-08 q=0 20000 SEK -",
    ]);
    expectEveryLineAccounted(SV, r);
  });

  test("a US share bought from the SEK account: Belopp (SEK, at Växlingskurs) less Total Avgift, the fee a FEE, both with the note number", async () => {
    const r = await parse(SV);
    expect(r.transactions.filter((t) => t.row === 12)).toEqual([
      {
        row: 12, date: "2024-01-15", description: "KÖPT: Microsoft", orderId: "987650002", type: "BUY", isin: "US5949181045", assetName: "Microsoft",
        quantity: "2", cash: { amount: "-8077.14", currency: "SEK" },
      },
      { row: 12, date: "2024-01-15", description: "KÖPT: Microsoft", orderId: "987650002", type: "FEE", isin: "US5949181045", assetName: "Microsoft", quantity: "0", cash: { amount: "-15", currency: "SEK" } },
    ] as never);
  });

  test("a sale's unsigned Antal becomes negative units; dividend and withholding keep the security; cash lines none", async () => {
    const r = await parse(SV);
    const one = (row: number) => r.transactions.find((t) => t.row === row);
    expect(one(5)).toEqual({
      row: 5, date: "2024-05-02", description: "SÅLT: Volvo B", orderId: "987650003", type: "SELL", isin: "SE0000115446", assetName: "Volvo B",
      quantity: "-15", cash: { amount: "4050", currency: "SEK" },
    } as never);
    expect(one(9)).toEqual({
      row: 9, date: "2024-03-14", description: "UTDELNING: Microsoft: UTDELNING MSFT 0,75 USD/AKTIE", type: "DIVIDEND", isin: "US5949181045",
      assetName: "Microsoft", quantity: "0", cash: { amount: "15.9", currency: "SEK" },
    } as never);
    expect(one(8)).toEqual({
      row: 8, date: "2024-03-14", description: "UTL KUPSKATT: Microsoft: UTL KUPSKATT 15% MSFT", type: "TAX", isin: "US5949181045", quantity: "0",
      cash: { amount: "-2.39", currency: "SEK" },
    } as never);
    expect(one(10)).toEqual({ row: 10, date: "2024-02-01", description: "RÄNTA: Ränta januari", type: "INTEREST", quantity: "0", cash: { amount: "3.12", currency: "SEK" } } as never);
    expect(one(11)).toEqual({ row: 11, date: "2024-01-31", description: "AVKASTNINGSSKATT: Avkastningsskatt ISK 2023", type: "TAX", quantity: "0", cash: { amount: "-55", currency: "SEK" } } as never);
    expect(one(14)).toEqual({ row: 14, date: "2024-01-08", description: "INSÄTTNING: Från bankkonto 1234-567890", type: "DEPOSIT", quantity: "0", cash: { amount: "20000", currency: "SEK" } } as never);
    expect(one(3)).toEqual({ row: 3, date: "2024-06-10", description: "UTTAG: Till bankkonto 1234-567890", type: "WITHDRAWAL", quantity: "0", cash: { amount: "-1000", currency: "SEK" } } as never);
    expect(one(2)).toEqual({ row: 2, date: "2024-06-28", description: "AVGIFT: ADR-avgift", type: "FEE", quantity: "0", cash: { amount: "-1.5", currency: "SEK" } } as never);
  });

  test("a cancelled line (Makuleringsdatum) and units moved without a price (BYTE INLÄGG VP) are skipped rows with the reason", async () => {
    const r = await parse(SV);
    expect(r.skippedRows).toEqual([
      { line: 4, reason: expect.stringContaining("BYTE INLÄGG VP") },
      { line: 7, reason: 'Line 7: "UTDELNING" (Volvo B, 2024-04-04, 280 SEK) was cancelled on 2024-04-05 and no longer moves anything; not imported, nothing to enter: it moves no cash' },
    ]);
  });
});

describe("Nordnet cancellations", () => {
  const HEADER = ["Id", "Bokföringsdag", "Affärsdag", "Likviddag", "Depå", "Transaktionstyp", "Värdepapper", "ISIN", "Antal", "Kurs", "Ränta", "Total Avgift",
    "Valuta", "Belopp", "Valuta", "Inköpsvärde", "Valuta", "Resultat", "Valuta", "Totalt antal", "Saldo", "Växlingskurs", "Transaktionstext",
    "Makuleringsdatum", "Notanummer", "Verifikationsnummer", "Courtage", "Valuta", "Referensvalutakurs", "Initial låneränta"];
  const line = (id: string, date: string, type: string, isin: string, amount: string, cancelled = "") => {
    const cells = Array<string>(HEADER.length).fill("");
    Object.assign(cells, { 0: id, 1: date, 2: date, 3: date, 4: "18345678", 5: type, 6: isin ? "Volvo B" : "", 7: isin, 13: amount, 14: "SEK", 23: cancelled });
    return cells.join("\t");
  };
  const utf16 = (text: string) => new Uint8Array([0xff, 0xfe, ...new Uint8Array(new Uint16Array([...text].map((c) => c.charCodeAt(0))).buffer)]);
  const parseLines = async (lines: string[]) => {
    const bytes = utf16([HEADER.join("\t"), ...lines].join("\r\n") + "\r\n");
    return (await brokerNordnetPlugin.create({} as never)).parse({ bytes, file: { ...sample.file, head: HEADER.join("\t") } });
  };

  test("a MAK line and the line it cancels (opposite amount, same security) are both skipped, with or without a cancellation date", async () => {
    const r = await parseLines([
      line("3", "2024-04-06", "MAK UTDELNING", "SE0000115446", "-280"),
      line("2", "2024-04-04", "UTDELNING", "SE0000115446", "280"),
      line("5", "2024-05-02", "MAK UTDELNING", "SE0000115446", "-70", "2024-05-02"),
      line("4", "2024-05-01", "UTDELNING", "SE0000115446", "70", "2024-05-02"),
      line("1", "2024-01-08", "INSÄTTNING", "", "1000"),
    ]);
    expect(pinAll(r)).toEqual(["6 DEPOSIT 2024-01-08 q=0 1000 SEK -"]);
    expect(r.skippedRows).toEqual([
      { line: 2, reason: 'Line 2: "MAK UTDELNING" (Volvo B, 2024-04-06, -280 SEK) cancels line 3, and the two move nothing together; not imported, nothing to enter: together they move no cash' },
      { line: 3, reason: 'Line 3: "UTDELNING" (Volvo B, 2024-04-04, 280 SEK) is cancelled by line 2, and the two move nothing together; not imported, nothing to enter: together they move no cash' },
      { line: 4, reason: 'Line 4: "MAK UTDELNING" (Volvo B, 2024-05-02, -70 SEK) cancels line 5, and the two move nothing together; not imported, nothing to enter: together they move no cash' },
      { line: 5, reason: 'Line 5: "UTDELNING" (Volvo B, 2024-05-01, 70 SEK) is cancelled by line 4, and the two move nothing together; not imported, nothing to enter: together they move no cash' },
    ]);
  });

  test("a MAK line whose original is not in the file: a cancelled dividend is read as a reversal (a fee, info), a cancelled trade skipped with a warning", async () => {
    const r = await parseLines([
      line("3", "2024-04-06", "MAK UTDELNING", "SE0000115446", "-280"),
      line("2", "2024-03-06", "MAK KÖPT", "SE0000115446", "10059"),
      line("1", "2024-01-08", "INSÄTTNING", "", "1000"),
    ]);
    expect(pinAll(r)).toEqual(["2 FEE 2024-04-06 q=0 -280 SEK SE0000115446", "4 DEPOSIT 2024-01-08 q=0 1000 SEK -"]);
    expect(r.skippedRows).toEqual([{
      line: 3,
      reason: 'Line 3: "MAK KÖPT" (Volvo B, 2024-03-06, 10059 SEK) reverses a trade that is not in this file; not imported, check the trade and remove it by hand',
    }]);
    expect(r.warnings.find((w) => w.row === 2)).toEqual(expect.objectContaining({ code: "dividendReversal", severity: "info" }));
  });
});

describe("Nordnet transactions export in the other site languages", () => {
  test("Norwegian: KJØPT, SALG, UTBYTTE, KUPONGSKATT, PLATTFORMAVGIFT, DEBETRENTE (a charge), INNSKUDD, UTTAK INTERNET, Utbetaling aksjelån, TILBAKEBET. FOND AVG; '10.000' grouped by points", async () => {
    const r = await parse("transactions-and-notes-export-no.csv");
    expect(r.detectedFormat).toBe("nordnet/transactions/no");
    expect(pinAll(r)).toEqual([
      "2 INTEREST 2024-07-31 q=0 0.37 NOK -",
      "3 INTEREST 2024-07-15 q=0 1.25 NOK -",
      "4 WITHDRAWAL 2024-07-10 q=0 -500 NOK -",
      "5 SELL 2024-07-02 q=-4 1160 NOK NO0010096985 order=55503",
      "5 FEE 2024-07-02 q=0 -29 NOK NO0010096985 order=55503",
      "6 FEE 2024-06-30 q=0 -0.42 NOK -",
      "7 TAX 2024-06-13 q=0 -1.21 NOK US5949181045",
      "8 DIVIDEND 2024-06-13 q=0 8.05 NOK US5949181045",
      "9 DIVIDEND 2024-05-28 q=0 38.8 NOK NO0010096985",
      "10 FEE 2024-02-28 q=0 -9 NOK -",
      "11 BUY 2024-02-06 q=1 -4351.3 NOK US5949181045 order=55502",
      "11 FEE 2024-02-06 q=0 -29 NOK US5949181045 order=55502",
      "12 BUY 2024-02-05 q=10 -2805 NOK NO0010096985 order=55501",
      "12 FEE 2024-02-05 q=0 -29 NOK NO0010096985 order=55501",
      "13 DEPOSIT 2024-02-01 q=0 10000 NOK -",
    ]);
    // A securities lending payout and a fund fee paid back are income.
    expect(r.transactions.slice(0, 2).map((t) => t.description)).toEqual([
      "TILBAKEBET. FOND AVG: Tilbakebetaling forvaltningsavgift", "Utbetaling aksjelån: Equinor: Aksjeutlån juni",
    ]);
    expectEveryLineAccounted("transactions-and-notes-export-no.csv", r);
  });

  test("Danish: KØBT, SOLGT, UDBYTTE, UDBYTTESKAT, GEBYR MÅNEDSOPSPARING, INDBETALING, HÆVNING", async () => {
    const r = await parse("transactions-and-notes-export-da.csv");
    expect(r.detectedFormat).toBe("nordnet/transactions/da");
    expect(pinAll(r)).toEqual([
      "2 WITHDRAWAL 2024-05-10 q=0 -1000 DKK -",
      "3 SELL 2024-05-06 q=-2 1980 DKK DK0062498333 order=66602",
      "3 FEE 2024-05-06 q=0 -29 DKK DK0062498333 order=66602",
      "4 FEE 2024-04-01 q=0 -10 DKK -",
      "5 TAX 2024-03-25 q=0 -7.29 DKK DK0062498333",
      "6 DIVIDEND 2024-03-25 q=0 27 DKK DK0062498333",
      "7 BUY 2024-03-04 q=5 -4751 DKK DK0062498333 order=66601",
      "7 FEE 2024-03-04 q=0 -29 DKK DK0062498333 order=66601",
      "8 DEPOSIT 2024-03-01 q=0 10000 DKK -",
    ]);
    expectEveryLineAccounted("transactions-and-notes-export-da.csv", r);
  });

  test("Finnish (with Instrumenttityyppi): OSTO, MYYNTI, OSINKO, TALLETUS, NOSTO", async () => {
    const r = await parse("transactions-and-notes-export-fi.csv");
    expect(r.detectedFormat).toBe("nordnet/transactions/fi");
    expect(pinAll(r)).toEqual([
      "2 WITHDRAWAL 2024-06-10 q=0 -300 EUR -",
      "3 SELL 2024-06-03 q=-100 360 EUR FI0009000681 order=77702",
      "3 FEE 2024-06-03 q=0 -9 EUR FI0009000681 order=77702",
      "4 DIVIDEND 2024-04-16 q=0 15 EUR FI0009000681",
      "5 BUY 2024-01-03 q=300 -1020 EUR FI0009000681 order=77701",
      "5 FEE 2024-01-03 q=0 -9 EUR FI0009000681 order=77701",
      "6 DEPOSIT 2024-01-02 q=0 2000 EUR -",
    ]);
    expectEveryLineAccounted("transactions-and-notes-export-fi.csv", r);
  });

  test("detection claims each language by content (UTF-16 decoded) and not a DEGIRO file", async () => {
    const plugin = await brokerNordnetPlugin.create({} as never);
    for (const name of [SV, "transactions-and-notes-export-no.csv", "transactions-and-notes-export-da.csv", "transactions-and-notes-export-fi.csv"]) {
      expect(plugin.accepts({ ...fixture("nordnet", name).file, filename: "upload.csv" })).toBeGreaterThanOrEqual(0.9);
    }
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});
