// ING Germany's PDF documents (ING-DiBa AG), one event each, read from the text `pdfText` extracts.
// German only:
//
// - "Wertpapierabrechnung Kauf" / "… Kauf aus Sparplan" (a savings plan execution, tagged
//   `savings-plan`) / "… Verkauf": "ISIN (WKN) <isin> (<wkn>)", "Wertpapierbezeichnung <name>" (a second
//   line with the share class, not read), "Nominale Stück <quantity>", "Kurs <ccy> <price>" (or
//   "Ausführungskurs"), "Ausführungstag / -zeit <date> um …" (or "Ausführungstag <date>", "Schlusstag"),
//   "Kurswert <ccy> <gross>", costs ("Provision", "Handelsplatzgebühr", "Börsengebühr", …), taxes
//   ("Kapitalertragsteuer 25,00 % <ccy> <amount>", "Solidaritätszuschlag", "Kirchensteuer"), and the
//   booking "Endbetrag zu Ihren Lasten|Gunsten <ccy> <amount>". A trade in a foreign currency shows
//   "Zwischensumme <ccy> <amount>" and "umger. zum Devisenkurs EUR <amount> (<ccy> = <rate>)".
// - "Dividendengutschrift" / "Ertragsgutschrift": the security as above, "Nominale <quantity> Stück",
//   "Brutto <ccy> <gross>", for a foreign currency the withholding tax "QuSt <percent> % (EUR <amount>)
//   <ccy> <amount>", "Zwischensumme <ccy> <net>" and "Umg. z. Dev.-Kurs (<rate>) EUR <net in euros>"
//   (the net after the withholding tax, converted; the gross in euros is the foreign gross at <rate>),
//   the domestic taxes, and the booking "Gesamtbetrag zu Ihren Gunsten <ccy> <amount>", then
//   "Abrechnungs-IBAN …" and "Valuta <date>"; the day is "Zahltag", else "Valuta".
//
// - "Kontoauszug": the statement of the account the depot settles through (statement.ts).
//
// Rows: a trade at its gross in the booked currency (quantity signed), a FEE and a TAX row beside it; a
// dividend at its gross in the booked currency with one TAX row (withholding and domestic taxes);
// each document's rows sum to the booked amount.
import { type CurrencyCode, Decimal, type ImportedTransaction, type ImportResult, PluginError } from "../../sdk/index.ts";
import { assetTypeOfName } from "../../sdk/import/asset-kind.ts";
import { pdfDocument } from "../../sdk/import/pdf-document.ts";
import { isIngStatement, parseIngStatement } from "./statement.ts";

const ZERO = "0";
const NUMBER = String.raw`[\d.]*\d(?:,\d+)?`;
const CCY = String.raw`[A-Z]{3}`;
const DATE = String.raw`\d{2}\.\d{2}\.\d{4}`;

const ISSUER = /\bING-DiBa\b/;
const TRADE_TITLE = /^Wertpapierabrechnung (Kauf aus Sparplan|Kauf|Verkauf)$/i;
const DIVIDEND_TITLE = /^(Dividendengutschrift|Ertragsgutschrift)$/i;

/** Confidence that `text` (a PDF's text) is an ING (ING-DiBa) contract note, dividend notice or account statement this importer reads. */
export function ingDocumentConfidence(text: string): number {
  if (!ISSUER.test(text)) return 0;
  const lines = text.split("\n").map((l) => l.trim());
  if (isIngStatement(lines.filter((l) => l !== ""))) return 0.95;
  if (!lines.some((l) => TRADE_TITLE.test(l) || DIVIDEND_TITLE.test(l))) return 0;
  return lines.some((l) => /^ISIN \(WKN\)/.test(l)) ? 0.95 : 0;
}

const FEE = /^(Provision|Handelsplatzgebühr|Börsengebühr|Handelsentgelt|Fremde Spesen|Transaktionsentgelt|Maklercourtage|Ausgabeaufschlag|Kurswertabhängige|Grundgebühr|Orderentgelt)/i;
const TAX = /^(Kapitalertrags?teuer|Solidaritätszuschlag|Kirchensteuer|KapSt|SolZ|KiSt)\b/i;

function money(amount: Decimal, currency: string): never {
  return { amount: amount.toFixed(), currency } as never;
}

/** The transactions of one ING (ING-DiBa) document's text; `name` (the file's name) goes into each row's description. */
export function parseIngText(text: string, name: string): ImportResult {
  const cells = text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && l !== "\f");
  if (isIngStatement(cells)) return parseIngStatement(cells, name);
  const lines = cells.map((l) => l.replace(/\s+/g, " "));
  if (!ISSUER.test(text)) throw new PluginError("invalid-input", `${name}: not an ING (ING-DiBa) document`);
  const doc = pdfDocument(name, lines, { decimalMark: "," });
  doc.refuseCancellation();
  const titleAt = lines.findIndex((l) => TRADE_TITLE.test(l) || DIVIDEND_TITLE.test(l));
  if (titleAt < 0) throw new PluginError("invalid-input", `${name}: an ING document of a kind this importer does not read (only Wertpapierabrechnung Kauf/Verkauf, Dividenden-/Ertragsgutschrift and the Kontoauszug)`);
  const bookingAt = lines.findIndex((l, i) => i > titleAt && /^(Endbetrag|Gesamtbetrag)( zu Ihren (Lasten|Gunsten))? /i.test(l));
  const booking = doc.need(bookingAt >= 0 ? new RegExp(`^(?:End|Gesamt)betrag(?: zu Ihren (Lasten|Gunsten))? (${CCY}) (-\\s?)?(${NUMBER})$`, "i").exec(lines[bookingAt]!) : null,
    "the booking (Endbetrag/Gesamtbetrag zu Ihren Lasten/Gunsten <currency> <amount>)");
  if (booking[3]) throw new PluginError("invalid-input", `${name}: a notice that charges the account (Gesamtbetrag zu Ihren Lasten) is not read`);
  const booked = doc.num(booking[4]);
  const currency = booking[2]!;
  const id = doc.need(doc.find(/^ISIN \(WKN\) ([A-Z]{2}[A-Z0-9]{9}\d)\b/, titleAt, bookingAt), "the ISIN (ISIN (WKN) …)");
  const assetName = doc.need(doc.find(/^Wertpapierbezeichnung (.+)$/, titleAt, bookingAt), "the security (Wertpapierbezeichnung)")[1]!;
  // The kind of security is printed on the line below the name ("Namens-Aktien o.N.", "Inhaber-Anteile").
  const nameAt = doc.indexOf(/^Wertpapierbezeichnung /, titleAt, bookingAt);
  const assetType = assetTypeOfName(/^Nominale\b/.test(lines[nameAt + 1] ?? "") ? assetName : `${assetName} ${lines[nameAt + 1]}`);
  const order = doc.find(/^Ordernummer (\S+)/, titleAt, bookingAt);
  const base = { row: 1, description: `ING ${name}`, ...(order ? { orderId: `ing:${order[1]}` } : {}) };
  let fees = new Decimal(0);
  let taxes = new Decimal(0);
  for (let i = titleAt + 1; i < bookingAt; i++) {
    const line = lines[i]!;
    const m = new RegExp(` (${CCY}) (-\\s?)?(${NUMBER})$`).exec(line);
    if (!m) continue;
    if (FEE.test(line)) fees = fees.plus(doc.num(m[3]));
    else if (TAX.test(line)) taxes = m[2] ? taxes.minus(doc.num(m[3])) : taxes.plus(doc.num(m[3]));
  }
  const rows: ImportedTransaction[] = [];
  const trade = TRADE_TITLE.exec(lines[titleAt]!);
  let kind: string;
  if (trade) {
    const sell = /verkauf/i.test(trade[1]!);
    const plan = /sparplan/i.test(trade[1]!);
    const quantity = doc.num(doc.need(doc.find(new RegExp(`^Nominale Stück (${NUMBER})$`), titleAt, bookingAt), "the quantity (Nominale Stück)")[1]);
    const price = doc.need(doc.find(new RegExp(`^(?:Ausführungs)?[Kk]urs (${CCY}) (${NUMBER})$`), titleAt, bookingAt), "the price (Kurs)");
    const date = doc.date(doc.need(doc.find(new RegExp(`^(?:Ausführungstag|Schlusstag)(?: / -zeit)? (${DATE})`), titleAt, bookingAt), "the trade day (Ausführungstag)")[1]!);
    const gross = sell ? booked.plus(fees).plus(taxes) : booked.minus(fees).minus(taxes);
    const asset = { isin: id[1]!, assetName, ...(assetType ? { assetType } : {}), assetCurrency: price[1] as CurrencyCode };
    const fx = doc.find(new RegExp(`Devisenkurs ${CCY} ${NUMBER} \\((${CCY}) = (${NUMBER})\\)$`), titleAt, bookingAt);
    kind = plan ? "plan" : "trade";
    rows.push({
      ...base, date, type: sell ? "SELL" : "BUY", ...asset, quantity: (sell ? quantity.neg() : quantity).toFixed() as never, cash: money(sell ? gross : gross.neg(), currency),
      description: `${base.description}: ${plan ? "savings plan" : sell ? "sell" : "buy"} ${quantity.toFixed()} at ${doc.num(price[2]).toFixed()} ${price[1]}${fx ? `; rate ${doc.num(fx[2]).toFixed()} ${fx[1]}/${currency}` : ""}`,
      ...(plan ? { tags: ["savings-plan"] } : {}),
    });
    if (!fees.isZero()) rows.push({ ...base, date, type: "FEE", ...asset, quantity: ZERO as never, cash: money(fees.neg(), currency) });
    if (!taxes.isZero()) rows.push({ ...base, date, type: taxes.gt(0) ? "TAX" : "INTEREST", ...asset, quantity: ZERO as never, cash: money(taxes.neg(), currency),
      description: `${base.description}: ${taxes.gt(0) ? "taxes withheld" : "tax refund"}` });
  } else {
    kind = "dividend";
    const quantity = doc.num(doc.need(doc.find(new RegExp(`^Nominale (${NUMBER}) Stück$`), titleAt, bookingAt), "the quantity (Nominale … Stück)")[1]);
    const paid = doc.find(new RegExp(`^Zahltag (${DATE})`), titleAt, bookingAt) ?? doc.find(new RegExp(`\\bValuta (${DATE})`), titleAt);
    const date = doc.date(doc.need(paid, "the payment day (Zahltag or Valuta)")[1]!);
    const brutto = doc.need(doc.find(new RegExp(`^Brutto (${CCY}) (${NUMBER})$`), titleAt, bookingAt), "the gross amount (Brutto)");
    let gross = doc.num(brutto[2]);
    let fx = "";
    if (brutto[1] !== currency) {
      // The notice converts what is left after the withholding tax ("Zwischensumme"), not the gross:
      // the gross in euros is the foreign gross at the notice's rate (foreign units per euro), which is
      // also the bank's own tax base ("KapSt-pflichtiger Kapitalertrag").
      const converted = doc.need(doc.find(new RegExp(`^Umg\\. z\\. Dev\\.-Kurs \\((${NUMBER})\\) (${CCY}) (${NUMBER})$`), titleAt, bookingAt),
        `the exchange rate (Umg. z. Dev.-Kurs) of the ${brutto[1]} dividend`);
      const rate = doc.num(converted[1]);
      if (rate.isZero()) throw new PluginError("invalid-input", `${name}: the exchange rate (Umg. z. Dev.-Kurs) is zero`);
      fx = `; ${gross.toFixed()} ${brutto[1]} at ${rate.toFixed()} ${brutto[1]}/${currency}`;
      gross = gross.div(rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    }
    // Withholding and domestic taxes together: what the bank kept of the gross.
    const kept = gross.minus(booked);
    const asset = { isin: id[1]!, assetName, ...(assetType ? { assetType } : {}), assetCurrency: brutto[1] as CurrencyCode };
    rows.push({ ...base, date, type: "DIVIDEND", ...asset, quantity: ZERO as never, cash: money(gross, currency), description: `${base.description}: dividend on ${quantity.toFixed()}${fx}` });
    if (!kept.isZero()) rows.push({ ...base, date, type: kept.gt(0) ? "TAX" : "INTEREST", ...asset, quantity: ZERO as never, cash: money(kept.neg(), currency), description: `${base.description}: taxes withheld` });
  }
  return { transactions: rows, warnings: [], detectedFormat: `ing/pdf/${kind}` };
}
