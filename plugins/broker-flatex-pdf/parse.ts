// flatex's and DEGIRO Germany's PDF documents (flatex Bank AG, since 2020 flatexDEGIRO Bank AG/SE), one
// event each, read from the text `pdfText` extracts. German only. The notes are laid out as pairs
// "<label> : <value>" in two columns, so each line is read cell by cell (cells are two spaces apart):
//
// - "Wertpapierabrechnung Kauf" / "… Verkauf" (also "Sammelabrechnung (Wertpapierkauf/-verkauf)"):
//   "Nr.<order>/<n> Kauf|Verkauf <name> (<isin>/<wkn>)", "Schlusstag : <date>[, <time> Uhr]",
//   "Ausgeführt : <quantity> St.", "Kurs : <price> <ccy>", "Kurswert : <gross> <ccy>", costs
//   ("Provision", "Eigene Spesen", "Fremde Spesen"), "**Einbeh. Steuer : <amount> EUR" (all taxes
//   withheld) and "Endbetrag : <signed amount> <ccy>", negative when charged. A note titled or marked
//   "Sparplan" is a savings plan execution (tagged `savings-plan`).
// - "Dividendengutschrift" / "Ertragsmitteilung - ausschüttender … Fonds": "Nr.<n> <name> (<isin>/<wkn>)",
//   "St. : <quantity>", "Bruttodividende|Bruttoausschüttung : <gross> <ccy>", "Valuta : <date>",
//   "*Einbeh. Steuer : <amount> EUR" (withholding and domestic taxes together, in euros),
//   "Devisenkurs : <rate>" (foreign units per euro) and "Endbetrag : <amount> EUR".
// - Notes of "FinTech Group Bank AG" (flatex's name 2017–2020): the same titles and position line, but the
//   contract note's figures have no colon: "Kurswert  EUR  800,00" (to 2018) or "Kurswert  52,50 EUR" (2019),
//   "Provision", "Eigene Spesen", "*Fremde Spesen" (blank when nothing was charged; the "Enthalten sind
//   folgende Gebühren" lines below are their parts, not read), "**Einbeh. Steuer", "Endbetrag", and the
//   Schlusstag in the letterhead beside the address ("Erika Beispiel  Schlusstag  13.03.2017"). Its
//   Kurswert, costs and taxes must make the Endbetrag, else the note is refused. The dividend notice keeps
//   the "label : value" cells, the colon set apart from both ("St.  :  80").
// - "Kontoauszug Nr: …": the account statement, many bookings (statement.ts).
// - "Storno Wertpapierabrechnung Kauf Fonds/Zertifikate", "Stornierung Wertpapierabrechnung …": a
//   cancellation repeating the cancelled note's figures; claimed and refused.
//
// Rows: a trade at its gross in the booked currency (quantity signed), a FEE and a TAX row beside it; a
// dividend at its gross in the booked currency (the credit plus the taxes withheld) with one TAX row;
// each document's rows sum to the booked amount.
import { type CurrencyCode, Decimal, type ImportedTransaction, type ImportResult, PluginError } from "../../sdk/index.ts";
import { assetTypeOfName } from "../../sdk/import/asset-kind.ts";
import { type PdfDocument, pdfDocument } from "../../sdk/import/pdf-document.ts";
import { isFlatexStatement, parseFlatexStatement } from "./statement.ts";

const ZERO = "0";
const NUMBER = String.raw`-?[\d.]*\d(?:,\d+)?`;
const CCY = String.raw`[A-Z]{3}`;
const DATE = String.raw`\d{2}\.\d{2}\.\d{4}`;

const ISSUER = /\bflatex(DEGIRO)?\b.*\bBank\b|\bFinTech Group Bank AG\b/i;
/** flatex's name 2017–2020, whose contract notes print their figures without colons. */
const FINTECH = /\bFinTech Group Bank AG\b/;
const TRADE_TITLE = /^(?:Storno |Stornierung )?(Wertpapierabrechnung (Kauf|Verkauf)\b|Sammelabrechnung \(Wertpapierkauf\/-verkauf\))/i;
const DIVIDEND_TITLE = /^(?:Storno |Stornierung )?(Dividendengutschrift|Ertragsmitteilung - aussch[üu]ttender)/i;
const POSITION = /^Nr\.\s?(\S+)\s+(?:(Kauf|Verkauf)(?: aus Sparplan)?\s+)?(.+?)\s+\(([A-Z]{2}[A-Z0-9]{9}\d)\/([A-Z0-9]{6})\)$/i;

/** Confidence that `text` (a PDF's text) is a flatex / flatexDEGIRO contract note or dividend notice this importer reads. */
export function flatexDocumentConfidence(text: string): number {
  if (!ISSUER.test(text)) return 0;
  const lines = text.split("\n").map((l) => l.trim().replace(/\s+/g, " "));
  if (isFlatexStatement(lines)) return 0.95;
  if (!lines.some((l) => TRADE_TITLE.test(l) || DIVIDEND_TITLE.test(l))) return 0;
  return lines.some((l) => POSITION.test(l)) ? 0.95 : 0;
}

interface Doc extends PdfDocument {
  /** Every "<label> : <value>" cell of the document, by label (the first one wins). */
  readonly fields: ReadonlyMap<string, string>;
}

/** The field `label` (without its asterisks) as `<number> <ccy>`, or null when absent. */
function amountOf(doc: Doc, label: string): { value: Decimal; currency: string } | null {
  const raw = doc.fields.get(label);
  if (raw === undefined) return null;
  const m = new RegExp(`^(${NUMBER}) (${CCY})$`).exec(raw);
  if (!m) throw new PluginError("invalid-input", `${doc.name}: "${label} : ${raw}" is not an amount`);
  return { value: doc.num(m[1]), currency: m[2]! };
}

/**
 * A figure of the FinTech Group contract note: `label` then "<ccy> <amount>" or "<amount> <ccy>" (no
 * colon), anywhere on a line; null when the label stands without one (nothing charged).
 */
function figureOf(doc: Doc, label: string): { value: Decimal; currency: string } | null {
  const m = doc.find(new RegExp(`(?:^|\\s)\\**${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} (?:(${CCY}) (${NUMBER})|(${NUMBER}) (${CCY}))(?=\\s|$)`));
  return m ? { value: doc.num(m[2] ?? m[3]), currency: (m[1] ?? m[4])! } : null;
}

/** The FinTech Group note's Kurswert must be the gross its Endbetrag, costs and taxes give: a figure not read would otherwise go unnoticed. */
function checkKurswert(doc: Doc, gross: Decimal, currency: string, parts: { booked: Decimal; fees: Decimal; taxes: Decimal }): void {
  const kurswert = figureOf(doc, "Kurswert");
  if (!kurswert) throw new PluginError("invalid-input", `${doc.name}: the gross (Kurswert) was not found`);
  if (kurswert.currency !== currency) throw new PluginError("invalid-input", `${doc.name}: a note whose Kurswert (${kurswert.currency}) is in another currency than its Endbetrag (${currency}) is not read`);
  if (!kurswert.value.eq(gross)) {
    throw new PluginError("invalid-input", `${doc.name}: the Kurswert ${kurswert.value.toFixed(2)} ${currency}, costs ${parts.fees.toFixed(2)} and taxes ${parts.taxes.toFixed(2)} do not make the Endbetrag ${parts.booked.toFixed(2)} ${currency}; the note is not imported`);
  }
}

function needField(doc: Doc, label: string): string {
  const value = doc.fields.get(label);
  if (value === undefined) throw new PluginError("invalid-input", `${doc.name}: "${label}" was not found`);
  return value;
}

function money(amount: Decimal, currency: string): never {
  return { amount: amount.toFixed(), currency } as never;
}

/** The transactions of one flatex / flatexDEGIRO document's text; `name` (the file's name) goes into each row's description. */
export function parseFlatexText(text: string, name: string): ImportResult {
  const raw = text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && l !== "\f");
  const lines = raw.map((l) => l.replace(/\s+/g, " "));
  if (!ISSUER.test(text)) throw new PluginError("invalid-input", `${name}: not a flatex / flatexDEGIRO document`);
  if (isFlatexStatement(raw)) return parseFlatexStatement(raw, name);
  const titleAt = lines.findIndex((l) => TRADE_TITLE.test(l) || DIVIDEND_TITLE.test(l));
  if (titleAt < 0) throw new PluginError("invalid-input", `${name}: a flatex document of a kind this importer does not read (only Wertpapierabrechnung Kauf/Verkauf, Dividendengutschrift, Ertragsmitteilung and Kontoauszug)`);
  const fields = new Map<string, string>();
  for (const line of raw.slice(titleAt + 1)) {
    // "St.  :  80": a colon set apart from its label and value is still the pair's.
    for (const cell of line.replace(/\s+:\s+/g, " : ").split(/\s{2,}/)) {
      const m = /^\**\s*([^:*][^:]*?)\s*:\s*(.+)$/.exec(cell.replace(/\s+/g, " "));
      if (m && !fields.has(m[1]!)) fields.set(m[1]!, m[2]!);
    }
  }
  const doc: Doc = { ...pdfDocument(name, lines, { decimalMark: "," }), fields };
  doc.refuseCancellation();
  const posAt = lines.findIndex((l, i) => i > titleAt && POSITION.test(l));
  const orders = lines.filter((l) => POSITION.test(l)).length;
  // Reading only the first of several orders would drop the others silently.
  if (orders > 1) throw new PluginError("invalid-input", `${name}: a collective statement (Sammelabrechnung) of ${orders} orders is not read; import each order's own note`);
  const pos = POSITION.exec(posAt >= 0 ? lines[posAt]! : "");
  if (!pos) throw new PluginError("invalid-input", `${name}: the position (Nr.… <name> (<ISIN>/<WKN>)) was not found`);
  const assetType = assetTypeOfName(pos[3]);
  const asset = { isin: pos[4]!, assetName: pos[3]!, ...(assetType ? { assetType } : {}) };
  const fintech = FINTECH.test(text);
  const trade = TRADE_TITLE.exec(lines[titleAt]!);
  // The FinTech Group contract note: figures without colons (the dividend notice keeps them).
  const unlabelled = trade !== null && !fields.has("Endbetrag") && fintech;
  const endbetrag = unlabelled ? figureOf(doc, "Endbetrag") : amountOf(doc, "Endbetrag");
  if (!endbetrag) throw new PluginError("invalid-input", `${name}: the booking (Endbetrag) was not found`);
  const currency = endbetrag.currency;
  const taxes = (unlabelled ? figureOf(doc, "Einbeh. Steuer") : amountOf(doc, "Einbeh. Steuer"))?.value ?? new Decimal(0);
  const rows: ImportedTransaction[] = [];
  let kind: string;
  if (trade) {
    const sell = pos[2] ? /verkauf/i.test(pos[2]) : /verkauf/i.test(trade[2] ?? "");
    const plan = lines.some((l) => /sparplan/i.test(l));
    const day = unlabelled ? doc.find(new RegExp(`\\bSchlusstag (${DATE})`)) : new RegExp(`^(${DATE})`).exec(needField(doc, "Schlusstag"));
    if (!day) throw new PluginError("invalid-input", `${name}: the trade day (Schlusstag) ${unlabelled ? "was not found" : "is not a date"}`);
    const date = doc.date(day[1]!);
    const qty = unlabelled ? doc.find(/\bAusgeführt ([\d.,]+) St\./) : /^([\d.,]+) St\.$/.exec(needField(doc, "Ausgeführt"));
    if (!qty) throw new PluginError("invalid-input", `${name}: the quantity (Ausgeführt : … St.) was not found`);
    const quantity = doc.num(qty[1]);
    const price = unlabelled ? figureOf(doc, "Kurs") : amountOf(doc, "Kurs");
    if (!price) throw new PluginError("invalid-input", `${name}: the price (Kurs) was not found`);
    const fees = ["Provision", "Eigene Spesen", "Fremde Spesen", "Transaktionsentgelt", "Börsenentgelt"]
      .reduce((acc, label) => acc.plus((unlabelled ? figureOf(doc, label) : amountOf(doc, label))?.value ?? 0), new Decimal(0));
    const booked = endbetrag.value.abs();
    const gross = sell ? booked.plus(fees).plus(taxes) : booked.minus(fees).minus(taxes);
    if (unlabelled) checkKurswert(doc, gross, currency, { fees, taxes, booked: endbetrag.value });
    const base = { row: 1, description: `flatex ${name}`, orderId: `flatex:${pos[1]}` };
    const held = { ...asset, assetCurrency: price.currency as CurrencyCode };
    const rate = doc.fields.get("Devisenkurs");
    const fx = price.currency !== currency && rate ? `; rate ${doc.num(rate).toFixed()} ${price.currency}/${currency}` : "";
    kind = `${fintech ? "fintech/" : ""}${plan ? "plan" : "trade"}`;
    rows.push({
      ...base, date, type: sell ? "SELL" : "BUY", ...held, quantity: (sell ? quantity.neg() : quantity).toFixed() as never, cash: money(sell ? gross : gross.neg(), currency),
      description: `${base.description}: ${plan ? "savings plan" : sell ? "sell" : "buy"} ${quantity.toFixed()} at ${price.value.toFixed()} ${price.currency}${fx}`,
      ...(plan ? { tags: ["savings-plan"] } : {}),
    });
    if (!fees.isZero()) rows.push({ ...base, date, type: "FEE", ...held, quantity: ZERO as never, cash: money(fees.neg(), currency) });
    if (!taxes.isZero()) rows.push({ ...base, date, type: taxes.gt(0) ? "TAX" : "INTEREST", ...held, quantity: ZERO as never, cash: money(taxes.neg(), currency),
      description: `${base.description}: ${taxes.gt(0) ? "taxes withheld" : "tax refund"}` });
  } else {
    kind = `${fintech ? "fintech/" : ""}dividend`;
    const valuta = new RegExp(`^(${DATE})`).exec(needField(doc, "Valuta"));
    if (!valuta) throw new PluginError("invalid-input", `${name}: the payment day (Valuta) is not a date`);
    const date = doc.date(valuta[1]!);
    const quantity = doc.num(/^([\d.,]+)/.exec(needField(doc, "St."))?.[1]);
    const brutto = amountOf(doc, "Bruttodividende") ?? amountOf(doc, "Bruttoausschüttung");
    if (!brutto) throw new PluginError("invalid-input", `${name}: the gross amount (Bruttodividende / Bruttoausschüttung) was not found`);
    const gross = endbetrag.value.plus(taxes);
    const rate = doc.fields.get("Devisenkurs");
    const fx = brutto.currency !== currency ? `; ${brutto.value.toFixed()} ${brutto.currency}${rate ? ` at ${doc.num(rate).toFixed()} ${brutto.currency}/${currency}` : ""}` : "";
    const base = { row: 1, description: `flatex ${name}` };
    const held = { ...asset, assetCurrency: brutto.currency as CurrencyCode };
    rows.push({ ...base, date, type: "DIVIDEND", ...held, quantity: ZERO as never, cash: money(gross, currency), description: `${base.description}: dividend on ${quantity.toFixed()}${fx}` });
    if (!taxes.isZero()) rows.push({ ...base, date, type: taxes.gt(0) ? "TAX" : "INTEREST", ...held, quantity: ZERO as never, cash: money(taxes.neg(), currency), description: `${base.description}: taxes withheld` });
  }
  return { transactions: rows, warnings: [], detectedFormat: `flatex/pdf/${kind}` };
}
