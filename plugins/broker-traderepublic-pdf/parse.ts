// Trade Republic's PDF documents, one event each, read from the text `pdfText` extracts (lines in
// reading order, table cells apart by two spaces or more). German and English layouts:
//
// - WERTPAPIERABRECHNUNG / SECURITIES SETTLEMENT (a buy or sell: "Market-Order Kauf am 12.03.2025, um
//   10:41 Uhr", "Limit-Order Sell on 02.05.2025 at 15:10"), with SPARPLAN / SAVINGS PLAN, SAVEBACK or
//   ROUND UP after the title for a savings plan execution ("Sparplanausführung am 03.02.2025", "Savings
//   plan execution on ..."). Table POSITION ANZAHL|QUANTITY PREIS|KURS|PRICE|DURCHSCHNITTSKURS BETRAG|AMOUNT:
//   "<name> <quantity> Stk.|Pcs. <price> <ccy> <amount> <ccy>", the ISIN on its own line ("ISIN: ...").
//   ABRECHNUNG / BILLING lists costs (Fremdkostenzuschlag, Ordergebühr, External cost surcharge, Order
//   fee) and taxes (Kapitalertragsteuer, Solidaritätszuschlag, Kirchensteuer and their English names;
//   "... Optimierung" is a refund, positive); BUCHUNG / BOOKING the account, value date and the amount booked.
// - DIVIDENDE / CASH DIVIDEND / AUSSCHÜTTUNG / DISTRIBUTION: "<name> <quantity> Stk.|Pcs. <per share> <ccy>
//   <gross> <ccy>" (the figures may be split over lines), withholding tax (Quellensteuer, Withholding tax)
//   in the dividend's currency, a conversion line "Zwischensumme|Sub Total <rate> USD/EUR <amount> EUR",
//   domestic taxes, and the booking (payment date and net amount).
// - ZINSABRECHNUNG / INTEREST INVOICE: interest lines and the booking (date and net amount); taxes if listed.
// - UMSATZÜBERSICHT / ACCOUNT TRANSACTIONS (since 2024) or KONTOAUSZUG (2020–2023): the monthly account
//   statement, many events (statement.ts).
// - STORNO before a title ("STORNO DIVIDENDE", "Storno der Dividende mit dem Ex-Tag …"): a cancellation
//   repeating the cancelled document's figures; claimed, so the user learns why, and refused.
//
// Rows: a trade is written at its gross (quantity signed) with a FEE row and a TAX row beside it, a
// dividend at its gross in the booked currency with a TAX row, interest likewise; the rows of one document
// always sum to the amount booked. The document's date is the execution day (trades) or the booking day.
import { type CurrencyCode, Decimal, type ImportedTransaction, type IsoDate, type ImportResult, type ImportWarning, PluginError } from "../../sdk/index.ts";
import { detectDecimalMark } from "../../sdk/import/numbers.ts";
import { assetTypeOfName } from "../../sdk/import/asset-kind.ts";
import { type PdfDocument, pdfDocument } from "../../sdk/import/pdf-document.ts";
import { parseTradeRepublicStatement, STATEMENT_TITLE } from "./statement.ts";

const ZERO = "0";
const NUMBER = String.raw`-?[\d.,]*\d`;
const CCY = String.raw`[A-Z]{3}`;
const DATE = String.raw`\d{2}\.\d{2}\.\d{4}|\d{4}-\d{2}-\d{2}`;

/** The words that make a text a Trade Republic document (the bank's name in its letterhead). */
const BANK = /TRADE REPUBLIC BANK GMBH/i;
const TITLES: readonly [RegExp, Kind][] = [
  [/^(?:STORNO\s+)?(WERTPAPIERABRECHNUNG|SECURITIES SETTLEMENT)\s*(SPARPLAN|SAVINGS PLAN|SAVEBACK|ROUND ?UP)$/i, "plan"],
  [/^(?:STORNO\s+)?(WERTPAPIERABRECHNUNG|SECURITIES SETTLEMENT)$/i, "trade"],
  [/^(?:STORNO\s+)?(DIVIDENDE|CASH DIVIDEND|DIVIDEND|AUSSCHÜTTUNG|DISTRIBUTION)$/i, "dividend"],
  [/^(ZINSABRECHNUNG|INTEREST INVOICE|ZINSEN|INTEREST)$/i, "interest"],
  [STATEMENT_TITLE, "statement"],
];

type Kind = "dividend" | "interest" | "plan" | "statement" | "trade";

/** Confidence that `text` (a PDF's text) is a Trade Republic document this importer reads. */
export function trDocumentConfidence(text: string): number {
  if (!BANK.test(text)) return 0;
  const lines = text.split("\n").map((l) => l.trim());
  return lines.some((l) => TITLES.some(([re]) => re.test(l))) ? 0.95 : 0;
}

const ISIN = /\b([A-Z]{2}[A-Z0-9]{9}\d)\b/;
const FEE = /^(Fremdkostenzuschlag|Ordergebühr|Fremdkosten|Gebühr|External cost surcharge|Order fees?|Fee)\s{2,}/i;
const TAX = /^(Kapitalertrags?s?teuer|Solidaritätszuschlag|Kirchensteuer|Quellensteuer.*?|Withholding tax.*?|Capital gains tax|Capital income tax|Solidarity surcharge|Church tax)(\s+Optimierung|\s+optimi[sz]ation)?\s{2,}/i;

/** Costs and taxes of the billing block, in the booked currency (a foreign-currency line converted at the document's rate). */
function costs(doc: PdfDocument, from: number, to: number, booked: string, rate: Decimal | null): { fees: Decimal; taxes: Decimal } {
  let fees = new Decimal(0);
  let taxes = new Decimal(0);
  for (let i = from; i < to; i++) {
    const line = doc.lines[i]!;
    const m = new RegExp(`(${NUMBER}) (${CCY})$`).exec(line);
    if (!m) continue;
    let value = doc.num(m[1]);
    // "Quellensteuer ... 1,1071 USD/EUR -0,02 EUR": the amount is the last figure; a foreign one is converted.
    if (m[2] !== booked) {
      if (!rate) throw new PluginError("invalid-input", `${doc.name}: an amount in ${m[2]} without an exchange rate to ${booked}`);
      value = value.div(rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    }
    if (FEE.test(line)) fees = fees.plus(value.neg());
    else if (TAX.test(line)) taxes = taxes.plus(value.neg());
  }
  return { fees, taxes };
}

/** The booking block: the account line's date and amount (the last date and amount of the lines after the header). */
function booking(doc: PdfDocument): { amount: Decimal; currency: string; date: IsoDate } {
  const at = doc.indexOf(/^(BUCHUNG|BOOKING)$/i);
  const m = at >= 0 ? doc.find(new RegExp(`(${DATE})\\s+(${NUMBER}) (${CCY})$`), at) : null;
  if (!m) throw new PluginError("invalid-input", `${doc.name}: the booking (BUCHUNG/BOOKING: account, date, amount) was not found`);
  return { amount: doc.num(m[2]), currency: m[3]!, date: doc.date(m[1]!) };
}

/** The exchange rate the document converts with ("1,1071 USD/EUR": units of the foreign currency per booked one), if any. */
function rateOf(doc: PdfDocument): Decimal | null {
  const m = doc.find(new RegExp(`\\s(${NUMBER}) (${CCY})/(${CCY})\\s`));
  return m ? doc.num(m[1]) : null;
}

function position(doc: PdfDocument): { name: string; described: string; quantity: Decimal; price: Decimal | null; gross: Decimal; currency: string; at: number } {
  const header = doc.indexOf(/^POSITION\s+(ANZAHL|QUANTITY)/i);
  if (header < 0) throw new PluginError("invalid-input", `${doc.name}: the position table (POSITION ANZAHL/QUANTITY ...) was not found`);
  // The figures may sit on the name's line or on the lines below it (dividends split them).
  const block = doc.lines.slice(header + 1, header + 6).join("  ");
  const qty = new RegExp(`(${NUMBER})\\s+(?:Stk\\.|Stücke|Stück|Pcs\\.|Pcs)`).exec(block);
  if (!qty) throw new PluginError("invalid-input", `${doc.name}: the quantity (… Stk./Pcs.) was not found`);
  const after = block.slice(qty.index + qty[0].length);
  const figures = [...after.matchAll(new RegExp(`(${NUMBER}) (${CCY})(?![A-Z/])`, "g"))];
  const before = block.slice(0, qty.index).trim();
  const amounts = [...before.matchAll(new RegExp(`(${NUMBER}) (${CCY})`, "g"))];
  // Gross: the last money figure of the row (after the price), or one printed before the quantity.
  const grossFig = figures.length >= 2 ? figures[1]! : figures.length === 1 && amounts.length > 0 ? amounts[amounts.length - 1]! : figures[0];
  if (!grossFig) throw new PluginError("invalid-input", `${doc.name}: the position's amount was not found`);
  const priceFig = figures.length >= 2 ? figures[0]! : figures.length === 1 && amounts.length > 0 ? figures[0]! : null;
  const name = before.replace(new RegExp(`\\s*(${NUMBER}) (${CCY}).*$`), "").split(/\s{2,}/)[0]!.trim() || doc.lines[header + 1]!.split(/\s{2,}/)[0]!;
  // The kind of security is printed below its name ("Inhaber-Aktien o.N.", "Registered Shares"), above its ISIN.
  const isinAt = doc.indexOf(/^ISIN\b/i, header + 1, header + 6);
  const described = doc.lines.slice(header + 1, isinAt > header ? isinAt : header + 2).join(" ");
  return {
    name, described, quantity: doc.num(qty[1]), price: priceFig ? doc.num(priceFig[1]) : null,
    gross: doc.num(grossFig[1]), currency: grossFig[2]!, at: header,
  };
}

function isinOf(doc: PdfDocument, from: number): string {
  const m = doc.find(/^(?:ISIN:?\s*)?([A-Z]{2}[A-Z0-9]{9}\d)\b/, from) ?? doc.find(new RegExp(ISIN.source), from);
  if (!m) throw new PluginError("invalid-input", `${doc.name}: no ISIN found`);
  return m[1]!;
}

function money(amount: Decimal, currency: string): { amount: string; currency: string } {
  return { amount: amount.toFixed(), currency } as never;
}

function trade(doc: PdfDocument, kind: "plan" | "trade", rows: ImportedTransaction[], base: Partial<ImportedTransaction>): void {
  const exec = kind === "plan"
    ? doc.find(new RegExp(`(?:Sparplanausführung|Savings plan execution|Saveback|Round ?up)\\S*\\s+(?:am|on)\\s+(${DATE})`, "i"))
    : doc.find(new RegExp(`\\b(Kauf|Verkauf|Buy|Sell)\\s+(?:am|on)\\s+(${DATE})`, "i"));
  if (!exec) throw new PluginError("invalid-input", `${doc.name}: the execution line ("Kauf am …", "Sell on …") was not found`);
  const sell = kind === "trade" && /^(verkauf|sell)$/i.test(exec[1]!);
  const date = doc.date(kind === "plan" ? exec[1]! : exec[2]!);
  const pos = position(doc);
  const isin = isinOf(doc, pos.at);
  const book = booking(doc);
  const billing = doc.indexOf(/^(ABRECHNUNG|BILLING|INVOICE)$/i);
  const bookingAt = doc.indexOf(/^(BUCHUNG|BOOKING)$/i);
  const { fees, taxes } = billing >= 0 ? costs(doc, billing, bookingAt, book.currency, rateOf(doc)) : { fees: new Decimal(0), taxes: new Decimal(0) };
  // The gross in the booked currency: what was booked, costs put back (equal to the table's amount when both are in one currency).
  const gross = sell ? book.amount.plus(fees).plus(taxes) : book.amount.abs().minus(fees).minus(taxes);
  const assetType = assetTypeOfName(pos.described);
  const asset = { isin, assetName: pos.name, ...(assetType ? { assetType } : {}), assetCurrency: pos.currency as CurrencyCode };
  const fx = pos.currency !== book.currency ? `; ${pos.gross.toFixed()} ${pos.currency}` : "";
  const price = pos.price ? ` at ${pos.price.toFixed()} ${pos.currency}` : "";
  rows.push({
    ...base, date, type: sell ? "SELL" : "BUY", ...asset,
    quantity: (sell ? pos.quantity.neg() : pos.quantity).toFixed() as never,
    cash: money(sell ? gross : gross.neg(), book.currency) as never,
    description: `${base.description}: ${kind === "plan" ? "savings plan" : sell ? "sell" : "buy"} ${pos.quantity.toFixed()}${price}${fx}`,
    ...(kind === "plan" ? { tags: ["savings-plan"] } : {}),
  });
  if (!fees.isZero()) rows.push({ ...base, date, type: "FEE", ...asset, quantity: ZERO as never, cash: money(fees.neg(), book.currency) as never });
  if (!taxes.isZero()) rows.push({ ...base, date, type: taxes.gt(0) ? "TAX" : "INTEREST", ...asset, quantity: ZERO as never, cash: money(taxes.neg(), book.currency) as never,
    ...(taxes.lt(0) ? { description: `${base.description}: tax refund` } : {}) });
}

function dividend(doc: PdfDocument, rows: ImportedTransaction[], base: Partial<ImportedTransaction>): void {
  const pos = position(doc);
  const isin = isinOf(doc, pos.at);
  const book = booking(doc);
  const rate = rateOf(doc);
  const billing = doc.indexOf(/^(ABRECHNUNG|BILLING|INVOICE)$/i);
  const bookingAt = doc.indexOf(/^(BUCHUNG|BOOKING)$/i);
  const { fees, taxes } = billing >= 0 ? costs(doc, billing, bookingAt, book.currency, rate) : { fees: new Decimal(0), taxes: new Decimal(0) };
  const gross = book.amount.plus(taxes).plus(fees);
  const assetType = assetTypeOfName(pos.described);
  const asset = { isin, assetName: pos.name, ...(assetType ? { assetType } : {}), assetCurrency: pos.currency as CurrencyCode };
  const fx = pos.currency !== book.currency && rate ? `; ${pos.gross.toFixed()} ${pos.currency} at ${rate.toFixed()} ${pos.currency}/${book.currency}` : "";
  rows.push({ ...base, date: book.date, type: "DIVIDEND", ...asset, quantity: ZERO as never, cash: money(gross, book.currency) as never,
    description: `${base.description}: dividend on ${pos.quantity.toFixed()}${fx}` });
  if (!taxes.isZero()) rows.push({ ...base, date: book.date, type: "TAX", ...asset, quantity: ZERO as never, cash: money(taxes.neg(), book.currency) as never,
    description: `${base.description}: taxes withheld` });
  if (!fees.isZero()) rows.push({ ...base, date: book.date, type: "FEE", ...asset, quantity: ZERO as never, cash: money(fees.neg(), book.currency) as never });
}

function interest(doc: PdfDocument, rows: ImportedTransaction[], base: Partial<ImportedTransaction>): void {
  const book = booking(doc);
  const bookingAt = doc.indexOf(/^(BUCHUNG|BOOKING)$/i);
  const { taxes } = costs(doc, 0, bookingAt, book.currency, null);
  rows.push({ ...base, date: book.date, type: "INTEREST", quantity: ZERO as never, cash: money(book.amount.plus(taxes), book.currency) as never,
    description: `${base.description}: interest` });
  if (!taxes.isZero()) rows.push({ ...base, date: book.date, type: "TAX", quantity: ZERO as never, cash: money(taxes.neg(), book.currency) as never,
    description: `${base.description}: taxes withheld` });
}

/**
 * The transactions of one Trade Republic document's text. `name` (the file's name) goes into each
 * row's description, so a preview of many documents says which row came from which.
 */
export function parseTradeRepublicText(text: string, name: string): ImportResult {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && l !== "\f");
  if (!BANK.test(text)) throw new PluginError("invalid-input", `${name}: not a Trade Republic document`);
  const kind = lines.map((l) => TITLES.find(([re]) => re.test(l))?.[1]).find((k) => k !== undefined);
  if (!kind) throw new PluginError("invalid-input", `${name}: a Trade Republic document of a kind this importer does not read (only securities settlements, savings plans, dividends, interest and account statements)`);
  if (kind === "statement") return parseTradeRepublicStatement(lines, name);
  // The decimal mark of the first page, where every figure read is: the notices since 2026 print the
  // first page with decimal points and the tax computation of the second with decimal commas.
  const firstPage = text.split(/\n\s*\f\s*\n/)[0]!.split("\n");
  const amountsOf = (ls: readonly string[]) => ls.flatMap((l) => [...l.matchAll(new RegExp(`(${NUMBER}) ${CCY}\\b`, "g"))].map((m) => m[1]!));
  const amounts = amountsOf(firstPage).length > 0 ? amountsOf(firstPage) : amountsOf(lines);
  const doc = pdfDocument(name, lines, { decimalMark: detectDecimalMark(amounts) });
  doc.refuseCancellation();
  const order = doc.find(/\b(?:AUSFÜHRUNG|EXECUTION|ORDER)\s{2,}(\S+)/);
  const base: Partial<ImportedTransaction> = { row: 1, description: `Trade Republic ${name}`, ...(order ? { orderId: `tr:${order[1]}` } : {}) };
  const rows: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  if (kind === "trade" || kind === "plan") trade(doc, kind, rows, base);
  else if (kind === "dividend") dividend(doc, rows, base);
  else interest(doc, rows, base);
  return { transactions: rows, warnings, detectedFormat: `traderepublic/pdf/${kind}` };
}
