// comdirect's PDF documents (comdirect bank AG, now a brand of Commerzbank), one event each, read from
// the text `pdfText` extracts. German only:
//
// - "Wertpapierkauf" / "Wertpapierverkauf": "Geschäftstag : <date>", under "Wertpapier-Bezeichnung
//   WPKNR/ISIN" the name with its WKN, then a line ending in the ISIN, "St. <quantity> <ccy> <price>",
//   "Kurswert : <ccy> <gross>", costs ("Provision", "Börsenplatzabhäng. Entgelt", "Fremde Spesen", …,
//   summed again in "Summe Entgelte", which is not read), then the booking under "IBAN Valuta Zu Ihren
//   Lasten|Gunsten vor Steuern": "<iban> <ccy> <value date> <ccy> <amount>". A note whose
//   "Ausführungsplatz" or text says "Sparplan" is a savings plan execution (tagged `savings-plan`).
// - "Dividendengutschrift" / "Ertragsgutschrift": under "Depotbestand Wertpapier-Bezeichnung WKN/ISIN"
//   the line "per <record date> <name> <WKN>", "STK <quantity> … <isin>", "zahlbar ab <date>" (the
//   payment day), "Bruttobetrag: <ccy> <gross>" in the dividend's currency, "<percent> % Quellensteuer
//   <ccy> <amount> -", and for a foreign currency "Ausmachender Betrag <ccy> <net>" and "zum
//   Devisenkurs: EUR/<ccy> <rate> EUR <amount>" (foreign units per euro), then the booking as above.
// - "Finanzreport Nr. <n> per <date>": the monthly statement of the accounts; the bookings of the account the
//   depot settles through (statement.ts).
// comdirect books its notes before German taxes ("vor Steuern"): capital gains tax, solidarity
// surcharge and church tax come in a separate tax notice (Steuermitteilung), which is not read.
//
// Rows: a trade at its gross in the booked currency (quantity signed) with a FEE row; a dividend at
// its gross converted at the document's rate with the withholding tax as a TAX row; each document's
// rows sum to the booked amount.
import { type CurrencyCode, Decimal, type ImportedTransaction, type ImportResult, PluginError } from "../../sdk/index.ts";
import { assetTypeOfName } from "../../sdk/import/asset-kind.ts";
import { pdfDocument } from "../../sdk/import/pdf-document.ts";
import { FINANZREPORT_TITLE, parseComdirectStatement } from "./statement.ts";

const ZERO = "0";
const NUMBER = String.raw`[\d.]*\d(?:,\d+)?`;
const CCY = String.raw`[A-Z]{3}`;
const DATE = String.raw`\d{2}\.\d{2}\.\d{4}`;
const ISIN = String.raw`[A-Z]{2}[A-Z0-9]{9}\d`;

const ISSUER = /\bcomdirect\b/i;
const TRADE_TITLE = /^Wertpapier(kauf|verkauf)\b/i;
const DIVIDEND_TITLE = /^(Dividendengutschrift|Ertragsgutschrift)\b/i;
// Another bank's document that mentions comdirect (a transfer, an onvista note) is not claimed.
const OTHER_ISSUER = /onvista|Trade Republic|Baader Bank|ING-DiBa|Consorsbank|flatex/i;

/**
 * A Finanzreport: comdirect's name in the letterhead (the first line) and the report's title. Its bookings may name
 * any other bank (a transfer to or from it), so the other banks' names are not looked for in it.
 */
function isFinanzreport(lines: readonly string[]): boolean {
  return ISSUER.test(lines[0] ?? "") && lines.some((l) => FINANZREPORT_TITLE.test(l));
}

/** Confidence that `text` (a PDF's text) is a comdirect contract note, dividend notice or Finanzreport this importer reads. */
export function comdirectDocumentConfidence(text: string): number {
  const lines = text.split("\n").map((l) => l.trim());
  if (isFinanzreport(lines.filter((l) => l !== ""))) return 0.95;
  if (!ISSUER.test(text) || OTHER_ISSUER.test(text)) return 0;
  if (!lines.some((l) => TRADE_TITLE.test(l) || DIVIDEND_TITLE.test(l))) return 0;
  return lines.some((l) => /Zu Ihren (Lasten|Gunsten)/i.test(l)) ? 0.95 : 0;
}

const FEE = /^(Provision|Gesamtprovision|Börsenplatzabhäng|Abwickl|Fremde Spesen|Maklercourtage|Übertragungs|Handelsplatzentgelt|Variable Börsenspesen|Transaktionsentgelt|Kurswertabhängige Provision|Grundentgelt)/i;

function money(amount: Decimal, currency: string): never {
  return { amount: amount.toFixed(), currency } as never;
}

/** The transactions of one comdirect document's text; `name` (the file's name) goes into each row's description. */
export function parseComdirectText(text: string, name: string): ImportResult {
  const cells = text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && l !== "\f");
  if (isFinanzreport(cells)) return parseComdirectStatement(cells, name);
  const lines = cells.map((l) => l.replace(/\s+/g, " "));
  if (!ISSUER.test(text) || OTHER_ISSUER.test(text)) throw new PluginError("invalid-input", `${name}: not a comdirect document`);
  const doc = pdfDocument(name, lines, { decimalMark: "," });
  doc.refuseCancellation();
  const titleAt = lines.findIndex((l) => TRADE_TITLE.test(l) || DIVIDEND_TITLE.test(l));
  if (titleAt < 0) throw new PluginError("invalid-input", `${name}: a comdirect document of a kind this importer does not read (only Wertpapierkauf/-verkauf, Dividenden-/Ertragsgutschrift and the Finanzreport)`);
  const headAt = lines.findIndex((l, i) => i > titleAt && /Zu Ihren (Lasten|Gunsten)/i.test(l));
  const booking = doc.need(headAt >= 0 ? doc.find(new RegExp(`\\s(${CCY}) (${DATE}) (${CCY}) (${NUMBER})$`), headAt + 1, headAt + 3) : null,
    "the booking (IBAN Valuta Zu Ihren Lasten/Gunsten … <currency> <amount>)");
  const booked = doc.num(booking[4]);
  const currency = booking[3]!;
  // A dividend notice heads the table "Depotbestand Wertpapier-Bezeichnung WKN/ISIN".
  const secAt = lines.findIndex((l, i) => i > titleAt && /^(?:Depotbestand )?Wertpapier-Bezeichnung\b/i.test(l));
  if (secAt < 0) throw new PluginError("invalid-input", `${name}: the security (Wertpapier-Bezeichnung) was not found`);
  const isinAt = lines.findIndex((l, i) => i > secAt && i < headAt && new RegExp(`\\s${ISIN}$`).test(l));
  const isin = doc.need(isinAt >= 0 ? new RegExp(`(${ISIN})$`).exec(lines[isinAt]!) : null, "the ISIN")[1]!;
  // The name is the line below the heading without its WKN (and, on a dividend notice, without "Per <date>").
  const assetName = lines[secAt + 1]!.replace(/\s+\S+$/, "").replace(new RegExp(`^Per ${DATE}\\s+`, "i"), "");
  // The kind of security is printed below the name, on the ISIN's line ("Inhaber-Aktien o.N.  DE…", "STK 60,000  Registered Shares …").
  const assetType = assetTypeOfName(lines.slice(secAt + 1, isinAt + 1).join(" "));
  const rows: ImportedTransaction[] = [];
  const base = { row: 1, description: `comdirect ${name}` };
  const trade = TRADE_TITLE.exec(lines[titleAt]!);
  let kind: string;
  if (trade) {
    const sell = /verkauf/i.test(trade[1]!);
    const pos = doc.need(doc.find(new RegExp(`^(?:Summe )?St\\. (${NUMBER}) (${CCY}) (${NUMBER})`), secAt, headAt), "the position (St. <quantity> <currency> <price>)");
    const quantity = doc.num(pos[1]);
    const date = doc.date(doc.need(doc.find(new RegExp(`^Geschäftstag :? ?(${DATE})`), titleAt, headAt), "the trade day (Geschäftstag)")[1]!);
    let fees = new Decimal(0);
    for (let i = isinAt + 1; i < headAt; i++) {
      const m = new RegExp(`:? (${CCY}) (${NUMBER})(-)?$`).exec(lines[i]!);
      if (m && FEE.test(lines[i]!)) fees = m[3] ? fees.minus(doc.num(m[2])) : fees.plus(doc.num(m[2]));
    }
    const plan = lines.some((l) => /sparplan/i.test(l));
    const gross = sell ? booked.plus(fees) : booked.minus(fees);
    const asset = { isin, assetName, ...(assetType ? { assetType } : {}), assetCurrency: pos[2] as CurrencyCode };
    kind = plan ? "plan" : "trade";
    rows.push({
      ...base, date, type: sell ? "SELL" : "BUY", ...asset, quantity: (sell ? quantity.neg() : quantity).toFixed() as never, cash: money(sell ? gross : gross.neg(), currency),
      description: `${base.description}: ${plan ? "savings plan" : sell ? "sell" : "buy"} ${quantity.toFixed()} at ${doc.num(pos[3]).toFixed()} ${pos[2]}`,
      ...(plan ? { tags: ["savings-plan"] } : {}),
    });
    if (!fees.isZero()) rows.push({ ...base, date, type: "FEE", ...asset, quantity: ZERO as never, cash: money(fees.neg(), currency) });
  } else {
    kind = "dividend";
    const pos = doc.need(doc.find(new RegExp(`^STK (${NUMBER})\\b`), secAt, headAt), "the position (STK <quantity>)");
    const quantity = doc.num(pos[1]);
    const paid = doc.find(new RegExp(`^(?:Zahltag:?|zahlbar ab) (${DATE})`, "i"), titleAt, headAt);
    const date = doc.date(paid ? paid[1]! : booking[2]!);
    const grossLine = doc.need(doc.find(new RegExp(`^Bruttobetrag:? (${CCY}) (${NUMBER})`), titleAt, headAt), "the gross amount (Bruttobetrag)");
    const foreign = grossLine[1]!;
    const foreignGross = doc.num(grossLine[2]);
    // "zum Devisenkurs: EUR/USD 1,166100 EUR 27,33" (or "… Devisenkurs USD 1,125000 …"): foreign units per euro.
    const rate = doc.find(new RegExp(`Devisenkurs:? (?:${CCY}/)?(${CCY}) (${NUMBER})`), titleAt, headAt);
    let gross: Decimal;
    let fx = "";
    if (foreign === currency) gross = foreignGross;
    else {
      const r = doc.num(doc.need(rate, `the exchange rate (umger. zum Devisenkurs) of the ${foreign} dividend`)[2]);
      gross = foreignGross.div(r).toDecimalPlaces(2);
      fx = `; ${foreignGross.toFixed()} ${foreign} at ${r.toFixed()} ${foreign}/${currency}`;
    }
    const asset = { isin, assetName, ...(assetType ? { assetType } : {}), assetCurrency: foreign as CurrencyCode };
    // What the bank kept before booking is the withholding tax (converted at the note's rate).
    const taxes = gross.minus(booked);
    rows.push({ ...base, date, type: "DIVIDEND", ...asset, quantity: ZERO as never, cash: money(gross, currency), description: `${base.description}: dividend on ${quantity.toFixed()}${fx}` });
    if (!taxes.isZero()) rows.push({ ...base, date, type: taxes.gt(0) ? "TAX" : "INTEREST", ...asset, quantity: ZERO as never, cash: money(taxes.neg(), currency), description: `${base.description}: withholding tax` });
  }
  return { transactions: rows, warnings: [], detectedFormat: `comdirect/pdf/${kind}` };
}
