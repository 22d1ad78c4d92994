// Consorsbank's PDF documents (a brand of BNP Paribas in Germany), one event each, read from the text
// `pdfText` extracts. German only:
//
// - Contract notes: "KAUF|VERKAUF AM <date> UM <time> <venue> NR. <order>" (a savings plan execution
//   reads "KAUF AM <date> IN SPARPLAN NR. …" and is tagged `savings-plan`), under "Wertpapier WKN ISIN"
//   the line "<name> <wkn> <isin>", "ST <quantity>", "Kurs <price> <ccy> P.ST. …" or "Preis pro Anteil
//   <price> <ccy>", "Kurswert <ccy> <gross>", costs ("Provision", "Handelsentgelt", "Consorsbank
//   Ausgabegebühr", "Grundgebühr", "Fremde Spesen", …: "<ccy> <amount>"), taxes ("Kapitalertragsteuer",
//   "Solidaritätszuschlag", "Kirchensteuer"), and the booking "Wert <value date> <ccy> <amount>".
// - "Dividendengutschrift" / "Ertragsgutschrift": under "Wertpapierbezeichnung WKN ISIN" the line
//   "<name> <wkn> <isin>", "Bestand <quantity> Stück", "Zahltag <date>", "Brutto <amount> <ccy>" or, for
//   a foreign currency, "Brutto in <ccy> …", "Devisenkurs <rate> <ccy> / EUR" and "Brutto in EUR <amount>
//   EUR", the withholding tax "Quellensteuer … <amount> EUR" and domestic taxes, and the booking
//   "Netto zugunsten IBAN … <amount> <ccy>", then "Valuta <date>". The notices since 2025 print
//   "Bestand" above "<quantity> Stück", and the figures of "Netto in USD", "Brutto in EUR",
//   "Quellensteuer in EUR" and "Netto zugunsten IBAN …" alone on the line above their label; they have
//   no Zahltag (the day is the Valuta).
//
// - "Kontoauszug" of the Verrechnungskonto: its bookings (statement.ts).
//
// Rows: a trade at its gross in the booked currency (quantity signed), a FEE and a TAX row beside it; a
// dividend at its gross in the booked currency with one TAX row (withholding and domestic taxes);
// each document's rows sum to the booked amount.
import { type CurrencyCode, Decimal, type ImportedTransaction, type ImportResult, PluginError } from "../../sdk/index.ts";
import { assetTypeOfName } from "../../sdk/import/asset-kind.ts";
import { pdfDocument } from "../../sdk/import/pdf-document.ts";
import { isConsorsbankStatement, parseConsorsbankStatement } from "./statement.ts";

const ZERO = "0";
const NUMBER = String.raw`[\d.]*\d(?:,\d+)?`;
const CCY = String.raw`[A-Z]{3}`;
const DATE = String.raw`\d{2}\.\d{2}\.\d{4}`;
const SECURITY = /^(.+) ([A-Z0-9]{6}) ([A-Z]{2}[A-Z0-9]{9}\d)$/;

const ISSUER = /\bConsorsbank\b|\bCortal Consors\b/i;
const TRADE_TITLE = new RegExp(`^(KAUF|VERKAUF) AM (${DATE})\\b(.*)$`, "i");
const DIVIDEND_TITLE = /^(Dividendengutschrift|Ertragsgutschrift)$/i;
// comdirect, ING and the others name Consorsbank only in a transfer; their own titles differ anyway.
const OTHER_ISSUER = /\bcomdirect\b|ING-DiBa|Trade Republic|Baader Bank|flatex/i;

/** Confidence that `text` (a PDF's text) is a Consorsbank contract note, dividend notice or account statement this importer reads. */
export function consorsbankDocumentConfidence(text: string): number {
  // A statement's bookings may name any other bank (a transfer), so only its letterhead is looked at.
  if (isConsorsbankStatement(text.split("\n").map((l) => l.trim()).filter((l) => l !== ""))) return 0.95;
  if (!ISSUER.test(text) || OTHER_ISSUER.test(text)) return 0;
  const lines = text.split("\n").map((l) => l.trim().replace(/\s+/g, " "));
  return lines.some((l) => TRADE_TITLE.test(l) || DIVIDEND_TITLE.test(l)) && lines.some((l) => SECURITY.test(l)) ? 0.95 : 0;
}

const FEE = /^(Provision|Handelsentgelt|Consorsbank Ausgabegebühr|Ausgabeaufschlag|Grundgebühr|Fremde Spesen|Börsenentgelt|Maklercourtage|Transaktionsentgelt|Handelsplatzgebühr)/i;
const TAX = /^(Kapitalertrags?s?teuer|Solidaritätszuschlag|Kirchensteuer|KAPST|SOLZ)\b/i;

function money(amount: Decimal, currency: string): never {
  return { amount: amount.toFixed(), currency } as never;
}

/**
 * The "<amount> <currency>" of the labelled line at `at`: at its end, or, where the notice prints the
 * figure a little above its label (the dividend notices since 2025), alone on the line before.
 */
function amountAt(lines: readonly string[], at: number, currency = CCY): RegExpExecArray | null {
  return new RegExp(` (${NUMBER}) (${currency})$`).exec(lines[at]!) ?? (at > 0 ? new RegExp(`^(${NUMBER}) (${currency})$`).exec(lines[at - 1]!) : null);
}

/** The transactions of one Consorsbank document's text; `name` (the file's name) goes into each row's description. */
export function parseConsorsbankText(text: string, name: string): ImportResult {
  const cells = text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && l !== "\f");
  if (isConsorsbankStatement(cells)) return parseConsorsbankStatement(cells, name);
  const lines = cells.map((l) => l.replace(/\s+/g, " "));
  if (!ISSUER.test(text) || OTHER_ISSUER.test(text)) throw new PluginError("invalid-input", `${name}: not a Consorsbank document`);
  const doc = pdfDocument(name, lines, { decimalMark: "," });
  doc.refuseCancellation();
  const titleAt = lines.findIndex((l) => TRADE_TITLE.test(l) || DIVIDEND_TITLE.test(l));
  if (titleAt < 0) throw new PluginError("invalid-input", `${name}: a Consorsbank document of a kind this importer does not read (only KAUF/VERKAUF contract notes, Dividenden-/Ertragsgutschrift and the Kontoauszug)`);
  const secAt = lines.findIndex((l, i) => i > titleAt && SECURITY.test(l) && !/^Wertpapier/i.test(l));
  const sec = doc.need(secAt >= 0 ? SECURITY.exec(lines[secAt]!) : null, "the security (<name> <WKN> <ISIN>)");
  const assetName = sec[1]!;
  const assetType = assetTypeOfName(assetName);
  const isin = sec[3]!;
  const rows: ImportedTransaction[] = [];
  const trade = TRADE_TITLE.exec(lines[titleAt]!);
  let kind: string;
  if (trade) {
    const bookingAt = lines.findIndex((l, i) => i > secAt && new RegExp(`^Wert ${DATE} ${CCY} ${NUMBER}$`, "i").test(l));
    const booking = doc.need(bookingAt >= 0 ? new RegExp(`^Wert (${DATE}) (${CCY}) (${NUMBER})$`, "i").exec(lines[bookingAt]!) : null, "the booking (Wert <date> <currency> <amount>)");
    const booked = doc.num(booking[3]);
    const currency = booking[2]!;
    const order = /\bNR\. ?(\S+)/i.exec(trade[3]!);
    const base = { row: 1, description: `Consorsbank ${name}`, ...(order ? { orderId: `consorsbank:${order[1]}` } : {}) };
    const sell = /^verkauf$/i.test(trade[1]!);
    // A savings plan's note says so in its title ("IN SPARPLAN") or names the plan ("Sparplanname: …").
    const plan = /sparplan/i.test(trade[3]!) || doc.indexOf(/^Sparplanname:/i, titleAt) >= 0;
    const date = doc.date(trade[2]!);
    const quantity = doc.num(doc.need(doc.find(new RegExp(`^ST (${NUMBER})\\b`), secAt, bookingAt), "the quantity (ST <quantity>)")[1]);
    const price = doc.need(doc.find(new RegExp(`^(?:Kurs|Preis pro Anteil) (${NUMBER}) (${CCY})\\b`, "i"), secAt, bookingAt), "the price (Kurs / Preis pro Anteil)");
    let fees = new Decimal(0);
    let taxes = new Decimal(0);
    for (let i = secAt + 1; i < bookingAt; i++) {
      const m = new RegExp(` (${CCY}) (${NUMBER})$`).exec(lines[i]!);
      if (!m) continue;
      if (FEE.test(lines[i]!)) fees = fees.plus(doc.num(m[2]));
      else if (TAX.test(lines[i]!)) taxes = taxes.plus(doc.num(m[2]));
    }
    const gross = sell ? booked.plus(fees).plus(taxes) : booked.minus(fees).minus(taxes);
    const asset = { isin, assetName, ...(assetType ? { assetType } : {}), assetCurrency: price[2] as CurrencyCode };
    kind = plan ? "plan" : "trade";
    rows.push({
      ...base, date, type: sell ? "SELL" : "BUY", ...asset, quantity: (sell ? quantity.neg() : quantity).toFixed() as never, cash: money(sell ? gross : gross.neg(), currency),
      description: `${base.description}: ${plan ? "savings plan" : sell ? "sell" : "buy"} ${quantity.toFixed()} at ${doc.num(price[1]).toFixed()} ${price[2]}`,
      ...(plan ? { tags: ["savings-plan"] } : {}),
    });
    if (!fees.isZero()) rows.push({ ...base, date, type: "FEE", ...asset, quantity: ZERO as never, cash: money(fees.neg(), currency) });
    if (!taxes.isZero()) rows.push({ ...base, date, type: "TAX", ...asset, quantity: ZERO as never, cash: money(taxes.neg(), currency), description: `${base.description}: taxes withheld` });
  } else {
    kind = "dividend";
    const bookingAt = lines.findIndex((l, i) => i > secAt && /^Netto( in [A-Z]{3})? zugunsten\b/i.test(l));
    const booking = doc.need(bookingAt >= 0 ? amountAt(lines, bookingAt) : null, "the booking (Netto zugunsten IBAN … <amount> <currency>)");
    const booked = doc.num(booking[1]);
    const currency = booking[2]!;
    const base = { row: 1, description: `Consorsbank ${name}` };
    const holdingAt = doc.indexOf(/^Bestand\b/, secAt, bookingAt);
    const holding = holdingAt < 0 ? null : new RegExp(`^(?:Bestand )?(${NUMBER}) Stück$`).exec(lines[holdingAt]!.replace(/^Bestand$/, "") || lines[holdingAt + 1]!);
    const quantity = doc.num(doc.need(holding, "the holding (Bestand … Stück)")[1]);
    const paid = doc.find(new RegExp(`^Zahltag (${DATE})`), titleAt, bookingAt) ?? doc.find(new RegExp(`^Valuta (${DATE})`), bookingAt);
    const date = doc.date(doc.need(paid, "the payment day (Zahltag or Valuta)")[1]!);
    const grossAt = doc.indexOf(new RegExp(`^Brutto(?: in ${currency})?(?: ${NUMBER} ${currency})?$`), secAt, bookingAt);
    const inBooked = grossAt < 0 ? null : amountAt(lines, grossAt, currency);
    const foreign = doc.find(new RegExp(`^Brutto in (${CCY}) (${NUMBER}) \\1$`), secAt, bookingAt);
    const gross = doc.num(doc.need(inBooked, `the gross amount in ${currency} (Brutto)`)[1]);
    const rate = doc.find(new RegExp(`^Devisenkurs (${NUMBER}) (${CCY}) / ${currency}$`), secAt, bookingAt);
    const fx = foreign && foreign[1] !== currency && rate ? `; ${doc.num(foreign[2]).toFixed()} ${foreign[1]} at ${doc.num(rate[1]).toFixed()} ${rate[2]}/${currency}` : "";
    const kept = gross.minus(booked);
    const asset = { isin, assetName, ...(assetType ? { assetType } : {}), assetCurrency: (foreign && foreign[1] !== currency ? foreign[1] : currency) as CurrencyCode };
    rows.push({ ...base, date, type: "DIVIDEND", ...asset, quantity: ZERO as never, cash: money(gross, currency), description: `${base.description}: dividend on ${quantity.toFixed()}${fx}` });
    if (!kept.isZero()) rows.push({ ...base, date, type: kept.gt(0) ? "TAX" : "INTEREST", ...asset, quantity: ZERO as never, cash: money(kept.neg(), currency), description: `${base.description}: taxes withheld` });
  }
  return { transactions: rows, warnings: [], detectedFormat: `consorsbank/pdf/${kind}` };
}
