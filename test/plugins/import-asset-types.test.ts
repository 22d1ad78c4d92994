import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseComdirectText } from "../../plugins/broker-comdirect-pdf/parse.ts";
import { parseConsorsbankText } from "../../plugins/broker-consorsbank-pdf/parse.ts";
import { parseFlatexText } from "../../plugins/broker-flatex-pdf/parse.ts";
import { brokerIbkrPlugin } from "../../plugins/broker-ibkr/index.ts";
import { parseIngText } from "../../plugins/broker-ing-pdf/parse.ts";
import { parseScalableText } from "../../plugins/broker-scalable-pdf/parse.ts";
import { parseTradeRepublicText } from "../../plugins/broker-traderepublic-pdf/parse.ts";
import { brokerDegiroPlugin } from "../../plugins/broker-degiro/index.ts";
import { brokerFidelityPlugin } from "../../plugins/broker-fidelity/index.ts";
import { brokerFinecoPlugin } from "../../plugins/broker-fineco/index.ts";
import { brokerVanguardUkPlugin } from "../../plugins/broker-vanguard-uk/index.ts";
import type { ImportedTransaction } from "../../sdk/index.ts";
import { fixture, workbookFixture } from "./brim-helpers.ts";

// An importer states an asset's type only when its report says it (docs/import.md "Asset types").
const csv = fixture("ibkr", "flex.csv");
const parse = async (bytes: Uint8Array) => (await brokerIbkrPlugin.create({} as never)).parse({ ...csv, bytes });

test("IBKR: STK says nothing (IBKR files ETFs under it too, like VWRA here); ETF and BOND classes are stated", async () => {
  const asIs = await parse(csv.bytes);
  const vwra = asIs.transactions.find((t) => t.symbol === "VWRA" && t.type === "BUY")!;
  expect(vwra.assetType).toBeUndefined();
  const text = new TextDecoder().decode(csv.bytes);
  const typed = await parse(new TextEncoder().encode(text.replace('"USD","STK","VWRA"', '"USD","ETF","VWRA"').replaceAll('"USD","STK","AAPL"', '"USD","BOND","AAPL"')));
  expect(typed.transactions.find((t) => t.symbol === "VWRA" && t.type === "BUY")!.assetType).toBe("ETF");
  expect(typed.transactions.filter((t) => t.symbol === "AAPL" && t.type === "BUY").map((t) => t.assetType)).toEqual(["BOND", "BOND"]);
});

/** Each asset's type as `name -> type` ("-" for none), once per asset. */
const typesOf = (transactions: readonly ImportedTransaction[]) =>
  [...new Set(transactions.filter((t) => t.assetName).map((t) => `${t.assetName} -> ${t.assetType ?? "-"}`))];
const pdfNote = (broker: string, name: string) => readFileSync(join(import.meta.dir, "..", "fixtures", "pdf", broker, name), "utf8");

test("an importer without a kind column types an asset by an unambiguous word of its name, and leaves a name that does not say untyped", async () => {
  const degiro = await (await brokerDegiroPlugin.create({} as never)).parse(fixture("degiro", "Account-it.csv"));
  expect(typesOf(degiro.transactions)).toEqual(["TESLA INC -> -", "BROADCOM INC -> -", "STST SPDR RUSSELL 2000 -> -"]);
  const degiroTrades = await (await brokerDegiroPlugin.create({} as never)).parse(fixture("degiro", "Transactions.csv"));
  expect(typesOf(degiroTrades.transactions)).toEqual(["VANGUARD FTSE ALL-WORLD UCITS ETF USD DIS -> ETF", "APPLE INC. - COMMON STOCK -> STOCK"]);
  const fineco = await (await brokerFinecoPlugin.create({} as never)).parse(await workbookFixture("fineco", "movimenti-titoli.xlsx"));
  expect(typesOf(fineco.transactions)).toEqual(expect.arrayContaining(["ETF WORLD -> ETF", "BTP VALORE SC MZ30 -> BOND", "APPLE INC -> -"]));
  const vanguard = await (await brokerVanguardUkPlugin.create({} as never)).parse(await workbookFixture("vanguard-uk", "transactions.xlsx"));
  expect(typesOf(vanguard.transactions)).toEqual(expect.arrayContaining(["LifeStrategy 80% Equity Fund - Accumulation -> FUND", "Vanguard FTSE All-World UCITS ETF (VWRL) -> ETF"]));
  const fidelity = await (await brokerFidelityPlugin.create({} as never)).parse(fixture("fidelity", "history.csv"));
  expect(typesOf(fidelity.transactions)).toEqual(expect.arrayContaining(["MICROSOFT CORP -> -", "VANGUARD INDEX FDS S&P 500 ETF USD -> ETF", "ASML HOLDING NV EUR0.09 NY REGISTRY SHS -> STOCK"]));
});

test("a German PDF note's kind is read from the security's class printed below its name; the name keeps its own line", () => {
  expect(typesOf(parseTradeRepublicText(pdfNote("traderepublic", "kauf-de.txt"), "kauf-de.pdf").transactions)).toEqual(["Beispiel Werke AG -> STOCK"]);
  expect(typesOf(parseTradeRepublicText(pdfNote("traderepublic", "buy-en.txt"), "buy-en.pdf").transactions)).toEqual(["Example Robotics Inc. -> -"]);
  expect(typesOf(parseIngText(pdfNote("ing", "ertrag.txt"), "ertrag.pdf").transactions)).toEqual(["Beispiel Rentenfonds -> FUND"]);
  expect(typesOf(parseIngText(pdfNote("ing", "dividende.txt"), "dividende.pdf").transactions)).toEqual(["Sample Food Corp. -> STOCK"]);
  expect(typesOf(parseComdirectText(pdfNote("comdirect", "dividende.txt"), "dividende.pdf").transactions)).toEqual(["Sample Software Corp. -> STOCK"]);
  expect(typesOf(parseComdirectText(pdfNote("comdirect", "sparplan.txt"), "sparplan.pdf").transactions)).toEqual(["Beispiel MSCI World UCITS ETF -> ETF"]);
  expect(typesOf(parseScalableText(pdfNote("scalable", "verkauf.txt"), "verkauf.pdf").transactions)).toEqual(["Muster Chemie AG -> STOCK"]);
  expect(typesOf(parseConsorsbankText(pdfNote("consorsbank", "ertrag.txt"), "ertrag.pdf").transactions)).toEqual(["BEISPIEL EURO RENTEN FONDS INHABER-ANTEILE A -> FUND"]);
  expect(typesOf(parseFlatexText(pdfNote("flatex", "dividende.txt"), "dividende.pdf").transactions)).toEqual(["SAMPLE PHARMA INC. REG. SHS -> STOCK"]);
  // "INH. O.N." abbreviates a bearer share and a bearer bond alike ("Inh.-Schv."): it says nothing.
  expect(typesOf(parseFlatexText(pdfNote("flatex", "kauf.txt"), "kauf.pdf").transactions)).toEqual(["BEISPIEL ENERGIE AG INH. O.N. -> -"]);
});
