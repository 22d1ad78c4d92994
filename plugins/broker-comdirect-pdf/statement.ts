// comdirect's Finanzreport (the monthly statement of all accounts and the depot), read from the text `pdfText`
// extracts. Layout (2017–2025, unchanged in its table):
//
// - a letter page, "Finanzreport Nr. <n> per <date>";
// - "Kontoübersicht": one line per account, "<account>  <IBAN>  +1.863,95";
// - per account a section: its name ("Verrechnungskonto", "Girokonto", "Tagesgeld PLUS-Konto", "Visa-Karte",
//   "Währungsanlagekonto (USD)"), the column header "Buchungstag  Vorgang  Auftraggeber/Empfänger  Buchungstext
//   Ausgang" / "Valuta  Referenz  IBAN/BIC  Eingang", "Alter Saldo <date>  +2.150,00", the bookings, and "Neuer
//   Saldo <date>  +1.863,95". A booking's first line is "<booking day>  <Vorgang>  <party>  <text>  <signed
//   amount>"; the next line starts with the value day, and the Vorgang wraps there ("Übertrag /" "Überweisung",
//   "Lastschrift /" "Belastung", "Steuerverrechnu" "ng"). Further lines hold references, IBANs, mandates and, for
//   a securities booking ("Wertpapiere"), "WPKNR: <wkn> ISIN: <isin>". A section goes on over page breaks (the
//   page repeats the column header).
// - then the depot, the tax overview and notes, which are not bookings.
//
// Only the account the depot settles through is imported: the Verrechnungskonto, or the Girokonto when the
// report has none. The bookings of the other accounts are left out (one `skippedRows` entry each), as the
// money there is not the depot's cash. comdirect books its contract notes and dividend notices before German
// taxes and settles those taxes as a separate "Steuerverrechnung" booking, which names no security: it is a
// TAX row (a refund an INTEREST row) here, and no other comdirect document this importer reads carries it.
import { type CurrencyCode, Decimal, type ImportResult, PluginError } from "../../sdk/index.ts";
import { accountStatement, type StatementBooking, type StatementBookingKind } from "../../sdk/import/account-statement.ts";
import { pdfDocument } from "../../sdk/import/pdf-document.ts";

const DATE = String.raw`\d{2}\.\d{2}\.\d{4}`;
const AMOUNT = String.raw`[+-][\d.]*\d,\d{2}-?`;

/** The report's title line on its first page. */
export const FINANZREPORT_TITLE = new RegExp(`^Finanzreport\\s+Nr\\.\\s*\\d+\\s+per\\s+${DATE}`);
const OPENING = new RegExp(`^Alter Saldo\\s+(${DATE})\\s+(${AMOUNT})$`);
const CLOSING = new RegExp(`^Neuer Saldo\\s+(${DATE})\\s+(${AMOUNT})$`);
const BOOKING = new RegExp(`^A?(${DATE})\\s+(.+?)\\s+(${AMOUNT})$`);
const VALUE_DAY = new RegExp(`^A?${DATE}(?:\\s+(.*))?$`);
const HEADER = /^(Buchungstag\s+Vorgang|Valuta\s+Referenz)/;
const ACCOUNT = /^(\S.*?(?:konto|Konto|Karte)(?: \([A-Z]{3}\))?)(?:\s{2,}|$)/;
const SETTLEMENT = [/^Verrechnungskonto$/, /^Girokonto$/];

const KINDS: readonly [RegExp, StatementBookingKind][] = [
  [/^(Wertpapierkauf|Wertpapierverkauf)/i, "trade"],
  [/^(Kupons?|Dividende|Ertrag|Erträgnis|Ausschüttung)/i, "dividend"],
  [/^Wertpapier/i, "security"],
  [/^(Steuer|Kapitalertragsteuer)/i, "tax"],
  [/^(Kontoabschluss|Abschluss|Zinsen)/i, "interest"],
  [/^(Entgelte?|Gebühren|Gebühr|Auslandsentgelt|Depotentgelt|Kontoführung)/i, "fee"],
  [/^(Übertrag|Kontoübertrag|Überweisung|Lastschrift|Gutschrift|Bar|Auszahlung|Kartenverfügun|Visa-Umsatz|Visa-Kartenabre|Guthabenübertr|DTA-glt|Dauerauftrag|Echtzeit|Korrektur Barauszahlung)/i, "transfer"],
];

/** A signed amount as printed ("+1.500,00", "-12,34"; an old report prints a negative balance "+0,56-"). */
function amountOf(doc: ReturnType<typeof pdfDocument>, text: string): Decimal {
  const value = doc.num(text.replace(/^[+-]/, "").replace(/-$/, ""));
  return (text.startsWith("-") !== text.endsWith("-")) ? value.neg() : value;
}

interface Section { readonly account: string; readonly from: number; readonly to: number; readonly opening: Decimal; readonly closing: Decimal }

/** The bookings of a comdirect Finanzreport's text (lines trimmed, blank ones and page breaks dropped) as ledger rows. */
export function parseComdirectStatement(lines: readonly string[], name: string): ImportResult {
  const doc = pdfDocument(name, lines, { decimalMark: "," });
  const sections: Section[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && (CLOSING.test(l) || OPENING.test(l)));
    const close = end < 0 ? null : CLOSING.exec(lines[end]!);
    if (!close) throw new PluginError("invalid-input", `${name}: line ${i + 1}: the account section has no closing balance (Neuer Saldo); the statement is not imported`);
    // The account's name is the nearest line above the column header.
    let account = "";
    for (let j = i - 1; j >= Math.max(0, i - 5) && account === ""; j--) {
      const m = HEADER.test(lines[j]!) ? null : ACCOUNT.exec(lines[j]!);
      if (m) account = m[1]!;
    }
    sections.push({ account: account || "an unnamed account", from: i + 1, to: end, opening: amountOf(doc, open[2]!), closing: amountOf(doc, close[2]!) });
    i = end;
  }
  const settled = SETTLEMENT.map((re) => sections.find((s) => re.test(s.account))).find((s) => s !== undefined);
  if (!settled) {
    throw new PluginError("invalid-input", `${name}: the Finanzreport has no Verrechnungskonto or Girokonto section (Alter Saldo … Neuer Saldo); ${sections.length === 0 ? "no account section was found" : `only ${sections.map((s) => s.account).join(", ")}`}`);
  }
  // The account overview prints each account's balance: it must be the section's closing balance.
  const overview = lines.slice(0, sections[0]!.from).map((l) => new RegExp(`^${settled.account}\\s{2,}.*\\s(${AMOUNT})$`).exec(l)).find((m) => m);
  if (overview && !amountOf(doc, overview[1]!).eq(settled.closing)) {
    throw new PluginError("invalid-input", `${name}: the ${settled.account} closes at ${settled.closing.toFixed(2)} EUR but the account overview prints ${amountOf(doc, overview[1]!).toFixed(2)} EUR; the statement is not imported`);
  }

  const bookings: StatementBooking[] = [];
  for (let i = settled.from; i < settled.to; i++) {
    const m = BOOKING.exec(lines[i]!);
    if (!m || OPENING.test(lines[i]!)) continue;
    const cells = m[2]!.split(/\s{2,}/);
    let type = cells.shift()!;
    // The next line starts with the value day; the Vorgang may wrap there ("Übertrag /" "Überweisung", "Steuerverrechnu" "ng").
    const next = i + 1 < settled.to ? VALUE_DAY.exec(lines[i + 1]!) : null;
    const rest = next?.[1]?.split(/\s{2,}/) ?? [];
    if (rest.length > 0 && (type.endsWith("/") || /^[a-zäöüß]{1,3}$/.test(rest[0]!))) type = type.endsWith("/") ? `${type} ${rest.shift()}` : `${type}${rest.shift()}`;
    // The lines up to the next booking hold references and, on a securities booking, the security's numbers.
    let security = "";
    for (let j = i + 1; j < settled.to && !BOOKING.test(lines[j]!) && security === ""; j++) security = /\b(?:WPKNR|WKN|ISIN)\b.*$/.exec(lines[j]!)?.[0].replace(/,$/, "") ?? "";
    const kind = KINDS.find(([re]) => re.test(type))?.[1] ?? "unknown";
    bookings.push({
      line: i + 1, date: doc.date(m[1]!), amount: amountOf(doc, m[3]!), kind, type,
      // The security's numbers stay in the text, so a transfer or tax naming a security is left to its document.
      text: [...cells, security].filter((c) => c !== "").join(" ").trim(),
    });
  }
  const rows = accountStatement({
    name, bank: "comdirect", currency: "EUR" as CurrencyCode, opening: settled.opening, closing: settled.closing, bookings,
    documents: { trade: "Wertpapierkauf / Wertpapierverkauf", dividend: "Dividendengutschrift / Ertragsgutschrift" },
  });
  for (const other of sections.filter((s) => s !== settled)) {
    const count = lines.slice(other.from, other.to).filter((l) => BOOKING.test(l)).length;
    rows.skippedRows.push({ line: other.from, reason: `Line ${other.from}: the ${other.account} (${count} booking${count === 1 ? "" : "s"}, closing balance ${other.closing.toFixed(2)}) is another account of the Finanzreport; only the ${settled.account}, the account the depot settles through, is imported` });
  }
  return { ...rows, detectedFormat: "comdirect/pdf/statement" };
}
