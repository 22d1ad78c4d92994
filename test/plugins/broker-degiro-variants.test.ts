import { describe, expect, test } from "bun:test";
import { brokerDegiroPlugin } from "../../plugins/broker-degiro/index.ts";
import { describeFile } from "../../sdk/import/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { expectEveryLineAccounted } from "./brim-accounting.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// The real DEGIRO exports in each language and layout (structures learnt from public converters'
// test files; values invented). Each line's classification was written down by hand from the
// sample before the parser was changed to read it.
const generic = fixture("generic", "generic-en.csv");
const parse = async (name: string) => (await brokerDegiroPlugin.create({} as never)).parse(fixture("degiro", name));
const skippedLines = (r: Awaited<ReturnType<typeof parse>>) => (r.skippedRows ?? []).map((s) => s.line);

for (const name of ["Account-nl.csv", "Account-de.csv", "Account-it.csv", "Account-fr.csv", "Account-es.csv", "Account-pt.csv", "Account-en-gbp.csv", "Transactions-nl.csv"]) {
  runImportPluginContract(brokerDegiroPlugin, { sample: { ...fixture("degiro", name), foreign: generic.file, foreignBytes: generic.bytes } });
}

describe("DEGIRO account statement, Dutch (older descriptions 'Koop 2 @ 189,5 USD', decimal commas)", () => {
  test("trades with their quantity, fills, fees, the AutoFX legs of a USD buy, a dividend with its tax and its exchange, interest, a withdrawal with the right sign", async () => {
    const r = await parse("Account-nl.csv");
    expect(r.detectedFormat).toBe("degiro/account-statement/nl");
    expect(pinAll(r)).toEqual([
      "2 INTEREST 2024-01-02 q=0 0.12 EUR -",
      "4 WITHDRAWAL 2023-12-28 q=0 -100 EUR -",
      "7 FEE 2023-10-20 q=0 -2 EUR IE00B3RBWM25 order=7d6e5f4a",
      "8 SELL 2023-10-20 q=-2 202.8 EUR IE00B3RBWM25 order=7d6e5f4a",
      "10 FEE 2023-09-01 q=0 -2.5 EUR -",
      "11 FX_CONVERSION 2023-08-18 q=0 0.38 EUR - pair",
      "12 FX_CONVERSION 2023-08-18 q=0 -0.41 USD - pair",
      "13 DIVIDEND 2023-08-17 q=0 0.48 USD US0378331005",
      "14 TAX 2023-08-17 q=0 -0.07 USD US0378331005",
      "15 FX_CONVERSION 2023-07-12 q=0 379 USD - order=5f1c2a9e pair",
      "17 FX_CONVERSION 2023-07-12 q=0 -342.86 EUR - order=5f1c2a9e pair",
      "18 FEE 2023-07-12 q=0 -1 EUR US0378331005 order=5f1c2a9e",
      "19 BUY 2023-07-12 q=2 -379 USD US0378331005 order=5f1c2a9e",
      "20 FEE 2023-07-05 q=0 -2 EUR IE00B3RBWM25 order=0a1b2c3d",
      "21 BUY 2023-07-05 q=1 -98.12 EUR IE00B3RBWM25 order=0a1b2c3d",
      "22 BUY 2023-07-05 q=3 -294.36 EUR IE00B3RBWM25 order=0a1b2c3d",
      "25 DEPOSIT 2023-07-04 q=0 1000 EUR -",
    ]);
    // The Order Id cut over lines 15-16 is read whole, so the AutoFX legs pair with the trade's.
    expect(r.transactions.find((t) => t.row === 15)?.orderId).toBe("5f1c2a9e-77b3-4d0e-9a41-0c2b3d4e5f60");
    const legs = r.transactions.filter((t) => t.type === "FX_CONVERSION");
    expect(legs[0]!.pairKey).toBe(legs[1]!.pairKey!);
    expect(legs[2]!.pairKey).toBe(legs[3]!.pairKey!);
    expect(legs[0]!.pairKey).not.toBe(legs[2]!.pairKey!);
  });

  test("the rest is accounted for: the continuation line, the flatex payout, zero interest, the sweep and its note, the reservations, a product change that cancels out", async () => {
    const r = await parse("Account-nl.csv");
    const why = [
      [3, "is the flatex cash account paying out a withdrawal"],
      [5, "is a corporate action that cancels out with line 6"],
      [6, "is a corporate action that cancels out with line 5"],
      [9, "has an amount of zero; not imported, nothing to enter"],
      [16, "Line 16: the rest of line 15's text"],
      [23, "is a transfer between the statement and your flatexDEGIRO Bank cash account"],
      [24, "is a transfer between the statement and your flatexDEGIRO Bank cash account"],
      [26, "is a deposit reservation or its release"],
      [27, "is a deposit reservation or its release"],
    ] as const;
    expect(r.skippedRows?.map((s) => s.line)).toEqual(why.map(([line]) => line));
    for (const [line, text] of why) expect(r.skippedRows!.find((s) => s.line === line)!.reason).toContain(text);
    expect(r.skippedRows!.find((s) => s.line === 16)!.reason).toContain("merged into line 15");
    expectEveryLineAccounted("degiro", "Account-nl.csv", r, 1);
  });
});

describe("DEGIRO account statement, German (CHF account, 'Kauf 40 zu je 28.15 EUR', Währungswechsel, decimal points)", () => {
  test("every line", async () => {
    const r = await parse("Account-de.csv");
    expect(r.detectedFormat).toBe("degiro/account-statement/de");
    expect(pinAll(r)).toEqual([
      "2 WITHDRAWAL 2024-04-30 q=0 -500 CHF -",
      "4 FX_CONVERSION 2024-04-15 q=0 277.83 CHF - order=c3d4e5f6 pair",
      "5 FX_CONVERSION 2024-04-15 q=0 -294 EUR - order=c3d4e5f6 pair",
      "6 FEE 2024-04-15 q=0 -2 CHF IE00BKM4GZ66 order=c3d4e5f6",
      "7 SELL 2024-04-15 q=-10 294 EUR IE00BKM4GZ66 order=c3d4e5f6",
      "9 FEE 2024-04-02 q=0 -0.35 CHF -",
      "10 FEE 2024-04-01 q=0 -2.5 CHF -",
      "11 FX_CONVERSION 2024-03-21 q=0 1.76 CHF - pair",
      "12 FX_CONVERSION 2024-03-21 q=0 -2 USD - pair",
      "13 FEE 2024-03-20 q=0 -0.04 USD US88160R1014",
      "14 TAX 2024-03-20 q=0 -0.36 USD US88160R1014",
      "15 DIVIDEND 2024-03-20 q=0 2.4 USD US88160R1014",
      "16 ADJUSTMENT 2024-03-14 q=12 no-cash US88160R1014",
      "17 ADJUSTMENT 2024-03-14 q=-4 no-cash US88160R1014",
      "18 FX_CONVERSION 2024-02-06 q=0 662 USD - order=e5f6a7b8 pair",
      "19 FX_CONVERSION 2024-02-06 q=0 -583.21 CHF - order=e5f6a7b8 pair",
      "20 FEE 2024-02-06 q=0 -1.5 CHF US88160R1014 order=e5f6a7b8",
      "21 BUY 2024-02-06 q=4 -662 USD US88160R1014 order=e5f6a7b8",
      "22 FX_CONVERSION 2024-02-05 q=0 1126 EUR - order=b2c3d4e5 pair",
      "23 FX_CONVERSION 2024-02-05 q=0 -1058.27 CHF - order=b2c3d4e5 pair",
      "24 FEE 2024-02-05 q=0 -2 CHF IE00BKM4GZ66 order=b2c3d4e5",
      "25 BUY 2024-02-05 q=40 -1126 EUR IE00BKM4GZ66 order=b2c3d4e5",
      "26 DEPOSIT 2024-02-02 q=0 5000 CHF -",
    ]);
    expect(skippedLines(r)).toEqual([3, 8]);
    // The split's lines stay quantity adjustments, each named in a warning (the units received need a cost basis).
    expect(r.warnings.filter((w) => w.code === "corporateAction").map((w) => w.row)).toEqual([16, 17]);
    expectEveryLineAccounted("degiro", "Account-de.csv", r, 1);
  });
});

describe("DEGIRO account statement, Italian ('Acquisto 1 Broadcom Inc@1.314,97 USD', Credito/Prelievo FX)", () => {
  test("every line", async () => {
    const r = await parse("Account-it.csv");
    expect(r.detectedFormat).toBe("degiro/account-statement/it");
    expect(pinAll(r)).toEqual([
      "2 FX_CONVERSION 2024-07-02 q=0 0.79 EUR - pair",
      "3 FX_CONVERSION 2024-07-02 q=0 -0.85 USD - pair",
      "4 DIVIDEND 2024-07-01 q=0 1 USD US88160R1014",
      "5 TAX 2024-07-01 q=0 -0.15 USD US88160R1014",
      "6 ADJUSTMENT 2024-06-10 q=6 no-cash US88160R1014",
      "7 ADJUSTMENT 2024-06-10 q=-2 no-cash US88160R1014",
      "8 FEE 2024-05-05 q=0 -2.5 EUR -",
      "9 FX_CONVERSION 2024-04-02 q=0 1314.97 USD - order=d4e5f6a7 pair",
      "10 FX_CONVERSION 2024-04-02 q=0 -1224.82 EUR - order=d4e5f6a7 pair",
      "11 FEE 2024-04-02 q=0 -2 EUR US11135F1012 order=d4e5f6a7",
      "12 BUY 2024-04-02 q=1 -1314.97 USD US11135F1012 order=d4e5f6a7",
      "13 INTEREST 2024-01-23 q=0 3 EUR -",
      "15 WITHDRAWAL 2023-08-02 q=0 -250 EUR -",
      "18 FEE 2023-08-01 q=0 -3 EUR IE00BJ38QD84 order=f6a7b8c9",
      "19 SELL 2023-08-01 q=-6 309.84 EUR IE00BJ38QD84 order=f6a7b8c9",
      "22 FEE 2023-07-11 q=0 -3 EUR IE00BJ38QD84 order=a7b8c9d0",
      "23 BUY 2023-07-11 q=6 -293.28 EUR IE00BJ38QD84 order=a7b8c9d0",
      "24 FX_CONVERSION 2023-05-25 q=0 367.44 USD - order=b8c9d0e1 pair",
      "25 FX_CONVERSION 2023-05-25 q=0 -343.88 EUR - order=b8c9d0e1 pair",
      "26 FEE 2023-05-25 q=0 -2 EUR US88160R1014 order=b8c9d0e1",
      "27 BUY 2023-05-25 q=2 -367.44 USD US88160R1014 order=b8c9d0e1",
      "28 DEPOSIT 2023-05-23 q=0 3000 EUR -",
    ]);
    // Processed Flatex Withdrawal, the sweep and its note, the refused withdrawal and its reversal.
    expect(skippedLines(r)).toEqual([14, 16, 17, 20, 21]);
    expectEveryLineAccounted("degiro", "Account-it.csv", r, 1);
  });
});

describe("DEGIRO account statement, French, Spanish and Portuguese headers", () => {
  test("French: 'Achat', 'Frais DEGIRO de courtage', 'Impôts sur dividende', 'Versement de fonds', 'Retrait de fonds', thousands with spaces", async () => {
    const r = await parse("Account-fr.csv");
    expect(r.detectedFormat).toBe("degiro/account-statement/fr");
    expect(pinAll(r)).toEqual([
      "2 WITHDRAWAL 2024-04-15 q=0 -200 EUR -",
      "3 DIVIDEND 2024-03-18 q=0 7.9 EUR FR0000120271",
      "4 TAX 2024-03-18 q=0 -2.37 EUR FR0000120271",
      "5 FEE 2024-03-11 q=0 -4.9 EUR FI4000198031 order=e9f0a1b2",
      "6 BUY 2024-03-11 q=6 -479.76 EUR FI4000198031 order=e9f0a1b2",
      "7 FEE 2024-03-04 q=0 -2.5 EUR -",
      "8 FEE 2024-02-20 q=0 -2 EUR FR0000120271 order=f0a1b2c3",
      "9 BUY 2024-02-20 q=10 -603.7 EUR FR0000120271 order=f0a1b2c3",
      "10 DEPOSIT 2024-02-19 q=0 2601.97 EUR -",
    ]);
    expectEveryLineAccounted("degiro", "Account-fr.csv", r, 1);
  });

  test("Spanish: 'Compra', 'Ingreso' (a deposit) against 'Ingreso/Retirada Cambio de Divisa' (exchange legs), 'Retención del dividendo'", async () => {
    const r = await parse("Account-es.csv");
    expect(r.detectedFormat).toBe("degiro/account-statement/es");
    expect(pinAll(r)).toEqual([
      "2 FX_CONVERSION 2024-06-19 q=0 5.12 EUR - pair",
      "3 FX_CONVERSION 2024-06-19 q=0 -5.51 USD - pair",
      "4 DIVIDEND 2024-06-18 q=0 6.48 USD US74144T1088",
      "5 TAX 2024-06-18 q=0 -0.97 USD US74144T1088",
      "6 FX_CONVERSION 2024-05-02 q=0 561 USD - order=a1b2c3d4 pair",
      "7 FX_CONVERSION 2024-05-02 q=0 -523.71 EUR - order=a1b2c3d4 pair",
      "8 FEE 2024-05-02 q=0 -2 EUR US74144T1088 order=a1b2c3d4",
      "9 BUY 2024-05-02 q=5 -561 USD US74144T1088 order=a1b2c3d4",
      "10 BUY 2024-04-15 q=5 -460.28 EUR IE00B4L5Y983 order=b2c3d4e5",
      "11 DEPOSIT 2024-04-12 q=0 1500.48 EUR -",
    ]);
    expectEveryLineAccounted("degiro", "Account-es.csv", r, 1);
  });

  test("Portuguese: 'Compra'/'Venda', 'Comissões de transação ... e/ou taxas de terceiros' is a fee (not a tax), 'Custo de Conectividade'", async () => {
    const r = await parse("Account-pt.csv");
    expect(r.detectedFormat).toBe("degiro/account-statement/pt");
    expect(pinAll(r)).toEqual([
      "2 INTEREST 2024-01-02 q=0 0.41 EUR -",
      "3 FEE 2023-10-03 q=0 -2.5 EUR -",
      "4 FEE 2023-09-14 q=0 -1 EUR IE00B3XXRP09 order=c3d4e5f6",
      "5 SELL 2023-09-14 q=-1 80.1 EUR IE00B3XXRP09 order=c3d4e5f6",
      "6 FEE 2023-07-06 q=0 -1 EUR IE00B3XXRP09 order=d4e5f6a7",
      "7 BUY 2023-07-06 q=2 -154.6 EUR IE00B3XXRP09 order=d4e5f6a7",
      "8 DEPOSIT 2023-07-05 q=0 397.32 EUR -",
    ]);
    expectEveryLineAccounted("degiro", "Account-pt.csv", r, 1);
  });
});

describe("DEGIRO account statement, English (GBP account, a price in pence, two fee lines of one order, the money market fund)", () => {
  test("every line", async () => {
    const r = await parse("Account-en-gbp.csv");
    expect(r.detectedFormat).toBe("degiro/account-statement/en");
    expect(pinAll(r)).toEqual([
      "3 DIVIDEND 2024-08-08 q=0 0.5 GBP LU0904784781",
      "4 FEE 2024-08-01 q=0 -0.03 GBP -",
      "5 FEE 2024-04-02 q=0 -1 GBP GB00BPQY8M80 order=e5f6a7b8",
      "6 SELL 2024-04-02 q=-4 19.84 GBP GB00BPQY8M80 order=e5f6a7b8",
      "7 FX_CONVERSION 2023-11-06 q=0 106.55 USD - order=f6a7b8c9 pair",
      "8 FX_CONVERSION 2023-11-06 q=0 -82.8 GBP - order=f6a7b8c9 pair",
      "9 FEE 2023-11-06 q=0 -0.43 GBP US40434L1052 order=f6a7b8c9",
      "10 FEE 2023-11-06 q=0 -0.02 GBP US40434L1052 order=f6a7b8c9",
      "11 BUY 2023-11-06 q=5 -106.55 USD US40434L1052 order=f6a7b8c9",
      "12 FEE 2023-11-02 q=0 -1 GBP GB00BPQY8M80 order=a7b8c9d0",
      "13 BUY 2023-11-02 q=4 -19.2 GBP GB00BPQY8M80 order=a7b8c9d0",
      "14 DEPOSIT 2023-11-01 q=0 200.45 GBP -",
    ]);
    expect(skippedLines(r)).toEqual([2]);
    expect(r.warnings.filter((w) => w.code === "quantityUnchecked")).toEqual([]);
    expectEveryLineAccounted("degiro", "Account-en-gbp.csv", r, 1);
  });

  test("the English sample of the other tests: the zero cash sweep is listed as skipped", async () => {
    const r = await parse("Account.csv");
    expect(r.detectedFormat).toBe("degiro/account-statement/en");
    expect(skippedLines(r)).toEqual([7]);
    expectEveryLineAccounted("degiro", "Account.csv", r, 1);
  });
});

describe("DEGIRO transactions export, newer layout (Waarde EUR, AutoFX Kosten, the Order Id one cell right in newer lines)", () => {
  test("trades in the product's currency, an FX pair and both fees for the USD ones, older lines' Order Id under its header", async () => {
    const r = await parse("Transactions-nl.csv");
    expect(r.detectedFormat).toBe("degiro/transactions/nl");
    expect(pinAll(r)).toEqual([
      "2 SELL 2024-02-20 q=-8 240 USD US47215P1066 order=a1c2d3e4",
      "2 FX_CONVERSION 2024-02-20 q=0 -240 USD - order=a1c2d3e4 pair",
      "2 FX_CONVERSION 2024-02-20 q=0 221.4 EUR - order=a1c2d3e4 pair",
      "2 FEE 2024-02-20 q=0 -0.55 EUR US47215P1066 order=a1c2d3e4",
      "2 FEE 2024-02-20 q=0 -2 EUR US47215P1066 order=a1c2d3e4",
      "3 BUY 2024-01-07 q=9 -976.05 EUR IE00BK5BQT80 order=b2c2d3e4",
      "3 FEE 2024-01-07 q=0 -3 EUR IE00BK5BQT80 order=b2c2d3e4",
      "4 BUY 2023-09-15 q=18 -607.5 USD US47215P1066 order=c3c2d3e4",
      "4 FX_CONVERSION 2023-09-15 q=0 -516.32 EUR - order=c3c2d3e4 pair",
      "4 FX_CONVERSION 2023-09-15 q=0 607.5 USD - order=c3c2d3e4 pair",
      "4 FEE 2023-09-15 q=0 -1.29 EUR US47215P1066 order=c3c2d3e4",
      "4 FEE 2023-09-15 q=0 -2 EUR US47215P1066 order=c3c2d3e4",
      "5 BUY 2023-07-07 q=5 -506 EUR IE00BK5BQT80 order=d4c2d3e4",
      "5 FEE 2023-07-07 q=0 -1 EUR IE00BK5BQT80 order=d4c2d3e4",
    ]);
    expect(r.skippedRows).toEqual([]);
    expectEveryLineAccounted("degiro", "Transactions-nl.csv", r, 1);
  });

  test("the older English layout still reads the same", async () => {
    const r = await parse("Transactions.csv");
    expect(r.detectedFormat).toBe("degiro/transactions/en");
    expectEveryLineAccounted("degiro", "Transactions.csv", r, 1);
  });
});

describe("DEGIRO lines that cannot be booked as written are listed, never dropped", () => {
  const header = "Date,Time,Value date,Product,ISIN,Description,FX,Change,,Balance,,Order Id\n";
  const run = async (lines: string) => {
    const bytes = new TextEncoder().encode(header + lines);
    return (await brokerDegiroPlugin.create({} as never)).parse({ bytes, file: describeFile(bytes, "Account.csv") });
  };

  test("a withdrawal with a positive amount, a deposit with a negative one and an unknown line are skipped with a warning each", async () => {
    const r = await run([
      "02-04-2024,11:00,02-04-2024,,,flatex Withdrawal,,EUR,200.00,EUR,685.44,",
      "02-04-2024,10:00,02-04-2024,,,iDEAL Deposit,,EUR,-50.00,EUR,485.44,",
      "01-04-2024,10:00,01-04-2024,,,Something new from DEGIRO,,EUR,-3.00,EUR,535.44,",
    ].join("\n"));
    expect(r.transactions).toEqual([]);
    expect(r.skippedRows?.map((s) => s.line)).toEqual([2, 3, 4]);
    expect(r.warnings.map((w) => [w.row, w.severity])).toEqual([[2, "warning"], [3, "warning"], [4, "warning"]]);
  });

  test("a dividend reversal, a tax refund and a fee refund keep the cash right in types the ledger accepts", async () => {
    const r = await run([
      "07-11-2022,09:59,02-11-2022,INDITEX,ES0148396007,Dividend,,EUR,-3.17,EUR,534.43,",
      "07-11-2022,09:59,02-11-2022,INDITEX,ES0148396007,Dividend Tax,,EUR,0.60,EUR,537.60,",
      "01-02-2019,16:31,31-01-2019,,,DEGIRO Exchange Connection Fee 2019 (NASDAQ - NDQ),,EUR,2.50,EUR,108.21,",
    ].join("\n"));
    expect(pinAll(r)).toEqual([
      "2 FEE 2022-11-07 q=0 -3.17 EUR ES0148396007",
      "3 DIVIDEND 2022-11-07 q=0 0.6 EUR ES0148396007",
      "4 INTEREST 2019-02-01 q=0 2.5 EUR -",
    ]);
    expect(r.warnings.map((w) => w.code)).toEqual(["dividendReversal", "taxRefund", "feeRefund"]);
  });

  test("a quantity whose digits could be thousands or a decimal is read as the one the amount confirms", async () => {
    const r = await run([
      '11-07-2023,09:33,11-07-2023,VANECK GLOBAL REAL ESTATE,NL0009690239,"Koop 29 @ 34,375 EUR",,EUR,-996.88,EUR,24.83,o1',
      '10-03-2021,10:00,10-03-2021,X,US4869171078,"Kauf 4.600 zu je 1,98 USD (US4869171078)",,USD,-9108.00,USD,0.00,o2',
    ].join("\n"));
    expect(pinAll(r)).toEqual(["2 BUY 2023-07-11 q=29 -996.88 EUR NL0009690239 order=o1", "3 BUY 2021-03-10 q=4600 -9108 USD US4869171078 order=o2"]);
  });
});

describe("DEGIRO detection", () => {
  test("every language and layout of both exports is claimed", async () => {
    const plugin = await brokerDegiroPlugin.create({} as never);
    for (const name of ["Account.csv", "Account-nl.csv", "Account-de.csv", "Account-it.csv", "Account-fr.csv", "Account-es.csv", "Account-pt.csv", "Account-en-gbp.csv", "Transactions.csv", "Transactions-nl.csv"]) {
      expect([name, plugin.accepts(fixture("degiro", name).file)]).toEqual([name, 0.95]);
    }
    expect(plugin.accepts(fixture("directa", "movimenti.csv").file)).toBe(0);
  });
});
