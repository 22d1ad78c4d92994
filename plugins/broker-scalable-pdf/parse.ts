// Scalable Capital's PDF documents, one event each, read from the text `pdfText` extracts. Its own
// notes (Scalable Capital Bank) are described at `ownLayout` below; the notes Baader Bank (its former
// custodian) issued, German only (Baader prints no English notes):
//
// - "Wertpapierabrechnung: Kauf" / "Wertpapierabrechnung: Verkauf": "Nominale ISIN: <isin> WKN: <wkn> Kurs",
//   then "STK <quantity> <name> <ccy> <price>", "Kurswert <ccy> <gross>", costs ("Provision",
//   "Transaktionsentgelt", "Handelsentgelt", "Fremde Spesen": "<ccy> <amount>", a trailing "-" or not),
//   taxes ("Kapitalertragsteuer <ccy> <amount> -", Solidaritätszuschlag, Kirchensteuer; without the
//   trailing "-" a refund), and the booking "Zu Lasten|Zu Gunsten Konto <n> Valuta: <date> <ccy> <amount>".
//   The trade day is "Handelsdatum" of the execution details, else "Auftragsdatum". A savings plan
//   execution is the same note with "Sparplan" in it (tagged `savings-plan`).
// - "Dividendenabrechnung" / "Fondsausschüttung" / "Ausschüttung": "STK <quantity> <name> <ccy> <per share>
//   p.STK", "Zahltag: <date>", "Umrechnungskurs: EUR/<ccy> <rate>" for a foreign one, "Bruttobetrag <ccy>
//   <amount>" (in the dividend's currency, then converted), taxes as above, and the booking.
// - "Dividendenabrechnung STORNO": a cancellation repeating the cancelled note's figures; refused.
// Only the lines from the title to the booking are read: a second page lists the tax computation again.
// The monthly account statement (Kontoauszug, Scalable's own layout since 2025) is read in statement.ts.
//
// Rows: a trade at its gross in the booked currency (quantity signed), a FEE and a TAX row beside it; a
// dividend at its gross in the booked currency with a TAX row; each document's rows sum to the booked amount.
import { type CurrencyCode, Decimal, type ImportedTransaction, type ImportResult, PluginError } from "../../sdk/index.ts";
import { assetTypeOfName } from "../../sdk/import/asset-kind.ts";
import { type PdfDocument, pdfDocument } from "../../sdk/import/pdf-document.ts";
import { isScalableStatement, parseScalableStatement } from "./statement.ts";

const ZERO = "0";
const NUMBER = String.raw`[\d.]*\d(?:,\d+)?`;
const CCY = String.raw`[A-Z]{3}`;
const DATE = String.raw`\d{2}\.\d{2}\.\d{4}`;

const ISSUER = /Scalable Capital/i;
const CUSTODIAN = /Baader Bank/i;
const TRADE_TITLE = /^Wertpapierabrechnung:?\s+(Kauf|Verkauf)\b/i;
const DIVIDEND_TITLE = /^(Dividendenabrechnung|Fondsausschüttung|Ausschüttung)\b/i;

/** Confidence that `text` (a PDF's text) is a Scalable Capital document from Baader Bank this importer reads. */
export function scalableDocumentConfidence(text: string): number {
  if (!ISSUER.test(text)) return 0;
  const lines = text.split("\n").map((l) => l.trim().replace(/\s+/g, " "));
  if (ownLayout(lines) || (lines.some((l) => OWN_ISSUER.test(l)) && isScalableStatement(lines))) return 0.95;
  if (!CUSTODIAN.test(text)) return 0;
  return lines.some((l) => TRADE_TITLE.test(l) || DIVIDEND_TITLE.test(l)) ? 0.95 : 0;
}

// Scalable Capital's own notes (as a bank since 2025: "Scalable Capital GmbH" / "Scalable Capital Bank
// GmbH" in the letterhead, no Baader Bank), German:
// - "Wertpapierabrechnung" then "für Kundenauftrag|Sparplanausführung", "Ausführung <date> <time>", the
//   table "Typ Wertpapier Anzahl Kurs Betrag" with the row "Kauf|Verkauf <name> <quantity> Stk. <price>
//   <ccy> <amount> <ccy>" and the ISIN alone below it, then signed lines ("Steuern +366,75 EUR": a
//   refund; costs) and the booking "Belastung|Gutschrift <amount> <ccy>".
// - "Dividende" / "Ausschüttung": "Berechtigtes Wertpapier <name>", "ISIN <isin>", "Berechtigte Anzahl
//   <quantity>", the movement "<booking day> <value day> Gutschrift <per share> <ccy> <quantity> <gross>
//   <booked ccy>", for a foreign currency "<ccy> / EUR <rate>", taxes ("Ausländische Quellensteuer
//   -0,01 EUR", …) and "Gesamtbetrag <amount> <ccy>".
// - In English, the same contract note: "Contract note" then "for client order|savings plan order",
//   "Execution <date> <time>", the table "Type Security Quantity Price Amount" with the row "Buy|Sell <name>
//   <quantity> pc. <price> <ccy> <amount> <ccy>" (decimal points, commas for thousands), signed lines
//   ("Order fees +0.99 EUR") and the booking "Debit|Credit <amount> <ccy>".
// Every figure between the position and the booking is read, and the rows must sum to the booking, so
// a line this reader does not know stops the document instead of being lost.
const OWN_ISSUER = /^Scalable Capital (Bank )?GmbH\b/i;
const OWN_TRADE_HEAD = /^Typ Wertpapier Anzahl Kurs Betrag$/i;
const OWN_TRADE_HEAD_EN = /^Type Security Quantity Price Amount$/i;

/** The words and number format of the own contract note, German or English. */
const OWN_TRADE_WORDS = {
  de: { head: OWN_TRADE_HEAD, side: "Kauf|Verkauf", unit: String.raw`Stk\.`, booking: "Belastung|Gutschrift", execution: "Ausführung", number: NUMBER, signed: String.raw`[+-]?[\d.]*\d(?:,\d+)?` },
  en: { head: OWN_TRADE_HEAD_EN, side: "Buy|Sell", unit: String.raw`pc\.`, booking: "Debit|Credit", execution: "Execution", number: String.raw`[\d,]*\d(?:\.\d+)?`, signed: String.raw`[+-]?[\d,]*\d(?:\.\d+)?` },
} as const;
const OWN_DIVIDEND_TITLE = /^(Dividende|Ausschüttung)$/i;

function ownLayout(lines: readonly string[]): "trade" | "trade-en" | "dividend" | null {
  if (!lines.some((l) => OWN_ISSUER.test(l))) return null;
  if (lines.some((l) => /^Wertpapierabrechnung$/i.test(l)) && lines.some((l) => OWN_TRADE_HEAD.test(l))) return "trade";
  if (lines.some((l) => /^Contract note$/i.test(l)) && lines.some((l) => OWN_TRADE_HEAD_EN.test(l))) return "trade-en";
  if (lines.some((l) => OWN_DIVIDEND_TITLE.test(l)) && lines.some((l) => /^Berechtigtes Wertpapier\s/i.test(l))) return "dividend";
  return null;
}

/** A note of Scalable Capital's own layout (see above). */
function parseOwnLayout(doc: PdfDocument, layout: "trade" | "trade-en" | "dividend", name: string): ImportResult {
  const words = OWN_TRADE_WORDS[layout === "trade-en" ? "en" : "de"];
  const lines = doc.lines;
  const base = { row: 1, description: `Scalable Capital ${name}` };
  const rows: ImportedTransaction[] = [];
  /** The signed lines "<label> <amount> <ccy>" from `from` to `to`: taxes (as the account sees them: "-" withheld, "+" refunded) and costs. */
  const charges = (from: number, to: number, currency: string) => {
    let fees = new Decimal(0);
    let taxLines = new Decimal(0);
    for (let i = from; i < to; i++) {
      const m = new RegExp(`^(.+?) (${words.signed}) (${CCY})$`).exec(lines[i]!);
      if (!m) continue;
      if (m[3] !== currency) throw new PluginError("invalid-input", `${name}: "${lines[i]}" is not in the booked currency ${currency}`);
      const value = doc.num(m[2]!.replace(/^\+/, ""));
      if (/steuer|Solidaritätszuschlag|\btax|solidarity surcharge/i.test(m[1]!)) taxLines = taxLines.plus(value);
      else fees = fees.plus(value.abs());
    }
    return { fees, taxLines };
  };
  if (layout !== "dividend") {
    const { number: NUM, side, unit, booking: bookedAs } = words;
    const headAt = doc.indexOf(words.head);
    const pos = doc.need(doc.find(new RegExp(`^(${side}) (.+) (${NUM}) ${unit} (${NUM}) (${CCY}) (${NUM}) (${CCY})$`), headAt + 1, headAt + 3),
      `the position (${side} <name> <quantity> ${unit.replace("\\", "")} <price> <currency> <amount> <currency>)`);
    const posAt = doc.indexOf(new RegExp(`^(${side}) `), headAt + 1);
    const isinAt = doc.indexOf(/^[A-Z]{2}[A-Z0-9]{9}\d$/, posAt + 1, posAt + 3);
    const isin = doc.need(isinAt >= 0 ? lines[isinAt]! : null, "the ISIN");
    const bookingAt = doc.indexOf(new RegExp(`^(${bookedAs}) ${NUM} ${CCY}$`), posAt + 1);
    const booking = doc.need(bookingAt >= 0 ? new RegExp(`^(${bookedAs}) (${NUM}) (${CCY})$`).exec(lines[bookingAt]!) : null, `the booking (${bookedAs.replace("|", "/")} <amount> <currency>)`);
    const currency = booking[3]!;
    if (pos[7] !== currency) throw new PluginError("invalid-input", `${name}: a trade in ${pos[7]} booked in ${currency} is not read`);
    const sell = /^(verkauf|sell)$/i.test(pos[1]!);
    if (sell !== /^(gutschrift|credit)$/i.test(booking[1]!)) throw new PluginError("invalid-input", `${name}: a ${pos[1]} booked as ${booking[1]} is not read`);
    const booked = doc.num(booking[2]);
    const gross = doc.num(pos[6]);
    const quantity = doc.num(pos[3]);
    const date = doc.date(doc.need(doc.find(new RegExp(`^${words.execution} (${DATE})\\b`)), `the execution day (${words.execution} <date>)`)[1]!);
    const plan = doc.indexOf(/^(für Sparplan|for savings plan)/i) >= 0;
    const { fees, taxLines } = charges(isinAt + 1, bookingAt, currency);
    // Taxes withheld (a refund negative): what is left between the gross, the costs and the booking.
    const taxes = sell ? gross.minus(fees).minus(booked) : booked.minus(gross).minus(fees);
    if (!taxes.eq(taxLines.neg())) throw new PluginError("invalid-input", `${name}: the gross ${gross.toFixed()}, costs ${fees.toFixed()} and taxes ${taxLines.toFixed()} do not make the booked ${booked.toFixed()} ${currency}`);
    const order = doc.find(/^(?:Typ|Type) \S+ Order (?:ID )?(\S+)/);
    const tradeBase = { ...base, ...(order ? { orderId: `scalable:${order[1]}` } : {}) };
    const assetType = assetTypeOfName(pos[2]);
    const asset = { isin, assetName: pos[2]!, ...(assetType ? { assetType } : {}), assetCurrency: pos[5] as CurrencyCode };
    rows.push({
      ...tradeBase, date, type: sell ? "SELL" : "BUY", ...asset, quantity: (sell ? quantity.neg() : quantity).toFixed() as never, cash: money(sell ? gross : gross.neg(), currency),
      description: `${base.description}: ${plan ? "savings plan" : sell ? "sell" : "buy"} ${quantity.toFixed()} at ${doc.num(pos[4]).toFixed()} ${pos[5]}`,
      ...(plan ? { tags: ["savings-plan"] } : {}),
    });
    if (!fees.isZero()) rows.push({ ...tradeBase, date, type: "FEE", ...asset, quantity: ZERO as never, cash: money(fees.neg(), currency) });
    if (!taxes.isZero()) rows.push({ ...tradeBase, date, type: taxes.gt(0) ? "TAX" : "INTEREST", ...asset, quantity: ZERO as never, cash: money(taxes.neg(), currency),
      description: `${base.description}: ${taxes.gt(0) ? "taxes withheld" : "tax refund"}` });
    return { transactions: rows, warnings: [], detectedFormat: `scalable/pdf/${plan ? "plan" : "trade"}` };
  }
  const assetName = doc.need(doc.find(/^Berechtigtes Wertpapier (.+)$/), "the security (Berechtigtes Wertpapier)")[1]!;
  const isin = doc.need(doc.find(/^ISIN ([A-Z]{2}[A-Z0-9]{9}\d)$/), "the ISIN")[1]!;
  const quantity = doc.num(doc.need(doc.find(new RegExp(`^Berechtigte Anzahl (${NUMBER})$`)), "the quantity (Berechtigte Anzahl)")[1]);
  const moveAt = doc.indexOf(new RegExp(`^${DATE} ${DATE} Gutschrift `));
  const move = doc.need(moveAt >= 0 ? new RegExp(`^(${DATE}) (${DATE}) Gutschrift (${NUMBER}) (${CCY}) (${NUMBER}) (${NUMBER}) (${CCY})$`).exec(lines[moveAt]!) : null,
    "the movement (<booking day> <value day> Gutschrift <per share> <currency> <quantity> <total> <currency>)");
  const totalAt = doc.indexOf(new RegExp(`^Gesamtbetrag ${NUMBER} ${CCY}$`), moveAt + 1);
  const total = doc.need(totalAt >= 0 ? new RegExp(`^Gesamtbetrag (${NUMBER}) (${CCY})$`).exec(lines[totalAt]!) : null, "the booking (Gesamtbetrag <amount> <currency>)");
  const currency = total[2]!;
  if (move[7] !== currency) throw new PluginError("invalid-input", `${name}: a dividend totalled in ${move[7]} and booked in ${currency} is not read`);
  const gross = doc.num(move[6]);
  const booked = doc.num(total[1]);
  const rate = doc.find(new RegExp(`^(${CCY}) / ${currency} (${NUMBER})$`), moveAt + 1, totalAt);
  const { fees, taxLines } = charges(rate ? moveAt + 2 : moveAt + 1, totalAt, currency);
  const taxes = gross.minus(fees).minus(booked);
  if (!taxes.eq(taxLines.neg())) throw new PluginError("invalid-input", `${name}: the gross ${gross.toFixed()}, costs ${fees.toFixed()} and taxes ${taxLines.toFixed()} do not make the booked ${booked.toFixed()} ${currency}`);
  const date = doc.date(move[2]!);
  const foreign = move[4]!;
  const fx = foreign !== currency && rate ? `; ${doc.num(move[3]).toFixed()} ${foreign} per share at ${doc.num(rate[2]).toFixed()} ${foreign}/${currency}` : "";
  const assetType = assetTypeOfName(assetName);
  const asset = { isin, assetName, ...(assetType ? { assetType } : {}), assetCurrency: foreign as CurrencyCode };
  rows.push({ ...base, date, type: "DIVIDEND", ...asset, quantity: ZERO as never, cash: money(gross, currency), description: `${base.description}: dividend on ${quantity.toFixed()}${fx}` });
  if (!taxes.isZero()) rows.push({ ...base, date, type: taxes.gt(0) ? "TAX" : "INTEREST", ...asset, quantity: ZERO as never, cash: money(taxes.neg(), currency), description: `${base.description}: taxes withheld` });
  if (!fees.isZero()) rows.push({ ...base, date, type: "FEE", ...asset, quantity: ZERO as never, cash: money(fees.neg(), currency) });
  return { transactions: rows, warnings: [], detectedFormat: "scalable/pdf/dividend" };
}

const FEE = /^(Provision|Transaktionsentgelt|Handelsentgelt|Börsenentgelt|Fremde Spesen|Ordergebühr|Fremdkostenzuschlag)\b/i;
const TAX = /^(Kapitalertrags?teuer|Solidaritätszuschlag|Kirchensteuer|Quellensteuer)\b/i;

/** Costs and taxes between the position and the booking, as positive amounts withheld (a refund negative). */
function costs(doc: PdfDocument, from: number, to: number): { fees: Decimal; taxes: Decimal } {
  let fees = new Decimal(0);
  let taxes = new Decimal(0);
  for (let i = from; i < to; i++) {
    const line = doc.lines[i]!;
    const m = new RegExp(`\\s(${CCY})\\s+(${NUMBER})(\\s*-)?$`).exec(line);
    if (!m) continue;
    const value = doc.num(m[2]);
    if (FEE.test(line)) fees = fees.plus(value);
    else if (TAX.test(line)) taxes = m[3] ? taxes.plus(value) : taxes.minus(value);
  }
  return { fees, taxes };
}

function money(amount: Decimal, currency: string): never {
  return { amount: amount.toFixed(), currency } as never;
}

/** The transactions of one Scalable Capital (Baader Bank) document's text; `name` (the file's name) goes into each row's description. */
export function parseScalableText(text: string, name: string): ImportResult {
  const lines = text.split("\n").map((l) => l.trim().replace(/\s+/g, " ")).filter((l) => l !== "" && l !== "\f");
  if (ISSUER.test(text) && lines.some((l) => OWN_ISSUER.test(l)) && isScalableStatement(lines)) return parseScalableStatement(lines, name);
  const own = ISSUER.test(text) ? ownLayout(lines) : null;
  if (own) {
    const ownDoc = pdfDocument(name, lines, { decimalMark: own === "trade-en" ? "." : "," });
    ownDoc.refuseCancellation();
    return parseOwnLayout(ownDoc, own, name);
  }
  if (!ISSUER.test(text) || !CUSTODIAN.test(text)) throw new PluginError("invalid-input", `${name}: not a Scalable Capital document (from Scalable Capital Bank or Baader Bank)`);
  const doc = pdfDocument(name, lines, { decimalMark: "," });
  doc.refuseCancellation();
  const titleAt = lines.findIndex((l) => TRADE_TITLE.test(l) || DIVIDEND_TITLE.test(l));
  if (titleAt < 0) throw new PluginError("invalid-input", `${name}: a Scalable Capital document of a kind this importer does not read (only contract notes and dividend notes)`);
  const bookingAt = lines.findIndex((l, i) => i > titleAt && /^Zu (Lasten|Gunsten) Konto\b/i.test(l));
  const booking = doc.need(bookingAt >= 0 ? new RegExp(`Valuta:\\s*(${DATE})\\s+(${CCY})\\s+(${NUMBER})`).exec(lines[bookingAt]!) : null, "the booking (Zu Lasten/Zu Gunsten Konto … Valuta …)");
  const booked = doc.num(booking[3]);
  const currency = booking[2]!;
  const isin = doc.need(doc.find(/\bISIN:?\s*([A-Z]{2}[A-Z0-9]{9}\d)\b/, titleAt, bookingAt), "the ISIN")[1]!;
  const posAt = lines.findIndex((l, i) => i > titleAt && i < bookingAt && /^STK\s/.test(l));
  const pos = doc.need(posAt >= 0 ? new RegExp(`^STK (${NUMBER}) (.+?) (${CCY}) (${NUMBER})`).exec(lines[posAt]!) : null, "the position (STK <quantity> <name> <currency> <price>)");
  const quantity = doc.num(pos[1]);
  // The kind of security is printed on the line below the position ("Inhaber-Aktien o.N.", "Registered Shares …").
  const assetType = assetTypeOfName(`${pos[2]} ${lines[posAt + 1] ?? ""}`);
  const asset = { isin, assetName: pos[2]!, ...(assetType ? { assetType } : {}), assetCurrency: pos[3] as CurrencyCode };
  const order = doc.find(/\bReferenz-Nr\.:?\s*(\S+)/);
  const base = { row: 1, description: `Scalable Capital ${name}`, ...(order ? { orderId: `scalable:${order[1]}` } : {}) };
  const { fees, taxes } = costs(doc, posAt + 1, bookingAt);
  const rows: ImportedTransaction[] = [];
  const trade = TRADE_TITLE.exec(lines[titleAt]!);
  let kind: string;
  if (trade) {
    const sell = /verkauf/i.test(trade[1]!);
    const plan = lines.some((l) => /sparplan/i.test(l));
    const executed = lines.findIndex((l) => /^Handelsdatum\b/i.test(l));
    const day = (executed >= 0 ? doc.find(new RegExp(`^(${DATE})\\b`), executed + 1, executed + 3) : null)
      ?? doc.need(doc.find(new RegExp(`Auftragsdatum:?\\s*(${DATE})`)), "the trade date (Handelsdatum or Auftragsdatum)");
    const date = doc.date(day[1]!);
    const gross = sell ? booked.plus(fees).plus(taxes) : booked.minus(fees).minus(taxes);
    kind = plan ? "plan" : "trade";
    rows.push({
      ...base, date, type: sell ? "SELL" : "BUY", ...asset, quantity: (sell ? quantity.neg() : quantity).toFixed() as never, cash: money(sell ? gross : gross.neg(), currency),
      description: `${base.description}: ${plan ? "savings plan" : sell ? "sell" : "buy"} ${quantity.toFixed()} at ${doc.num(pos[4]).toFixed()} ${pos[3]}`,
      ...(plan ? { tags: ["savings-plan"] } : {}),
    });
    if (!fees.isZero()) rows.push({ ...base, date, type: "FEE", ...asset, quantity: ZERO as never, cash: money(fees.neg(), currency) });
    if (!taxes.isZero()) rows.push({ ...base, date, type: taxes.gt(0) ? "TAX" : "INTEREST", ...asset, quantity: ZERO as never, cash: money(taxes.neg(), currency),
      description: `${base.description}: ${taxes.gt(0) ? "taxes withheld" : "tax refund"}` });
  } else {
    kind = "dividend";
    const paid = doc.find(new RegExp(`^Zahltag:?\\s*(${DATE})`), titleAt, bookingAt);
    const date = doc.date(paid ? paid[1]! : booking[1]!);
    const rate = doc.find(new RegExp(`Umrechnungskurs:?\\s*${CCY}/(${CCY})\\s+(${NUMBER})`), titleAt, bookingAt);
    const foreign = doc.find(new RegExp(`^Bruttobetrag (${CCY}) (${NUMBER})`), titleAt, bookingAt);
    const gross = booked.plus(taxes).plus(fees);
    const fx = rate && foreign && foreign[1] !== currency ? `; ${doc.num(foreign[2]).toFixed()} ${foreign[1]} at ${doc.num(rate[2]).toFixed()} ${rate[1]}/${currency}` : "";
    rows.push({ ...base, date, type: "DIVIDEND", ...asset, quantity: ZERO as never, cash: money(gross, currency), description: `${base.description}: dividend on ${quantity.toFixed()}${fx}` });
    if (!taxes.isZero()) rows.push({ ...base, date, type: "TAX", ...asset, quantity: ZERO as never, cash: money(taxes.neg(), currency), description: `${base.description}: taxes withheld` });
    if (!fees.isZero()) rows.push({ ...base, date, type: "FEE", ...asset, quantity: ZERO as never, cash: money(fees.neg(), currency) });
  }
  return { transactions: rows, warnings: [], detectedFormat: `scalable/pdf/${kind}` };
}
