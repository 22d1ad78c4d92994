import {
  type Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, PluginError,
} from "../../sdk/index.ts";
import { assetTypeOfName, type CsvFormat, csvFormat, type CsvFormatTable, detectDecimalMark, parseDate, parseDecimal } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Nordnet "transactions and notes" export (Transaktioner och notor > Exportera;
// transactions-and-notes-export.csv): UTF-16 LE with a BOM, tab separated, dates YYYY-MM-DD, decimal
// commas (Danish and Norwegian files group thousands with points, "1.877,03"), newest line first.
// One header per site language, the same thirty columns, "Valuta" repeated after each money column:
//   sv: Id, Bokföringsdag, Affärsdag, Likviddag, Depå, Transaktionstyp, Värdepapper, ISIN, Antal,
//       Kurs, Ränta, Total Avgift, Valuta, Belopp, Valuta, Inköpsvärde, Valuta, Resultat, Valuta,
//       Totalt antal, Saldo, Växlingskurs, Transaktionstext, Makuleringsdatum, Notanummer,
//       Verifikationsnummer, Courtage, Valuta, Referensvalutakurs, Initial låneränta
//   no: Bokføringsdag, Handelsdag, Oppgjørsdag, Portefølje, Transaksjonstype, Verdipapir, Antall,
//       Totale Avgifter, Beløp, Kjøpsverdi, Transaksjonstekst, Makuleringsdato, Sluttseddelnummer, Kurtasje
//   da: Bogføringsdag, Handelsdag, Valørdag, Depot, Transaktionstype, Værdipapirer, Samlede afgifter,
//       Beløb, Indkøbsværdi, Transaktionstekst, Makuleringsdato, Kurtage
//   fi: Kirjauspäivä, Kauppapäivä, Maksupäivä, Salkku, Tapahtumatyyppi, Arvopaperi, Määrä, Kurssi,
//       Kokonaiskulut, Valuutta, Summa, Hankinta-arvo, Tapahtumateksti, Mitätöintipäivä, Vahvistusnumero
// (older files have an Instrumenttyp column after the security). Belopp is the signed settlement in
// the currency of the Valuta column after it (the account's currency; a US share bought from a SEK
// account is paid in SEK at Växlingskurs) and includes the fees of Total Avgift, which are in the
// currency of the Valuta column after them. Antal is unsigned. Transaction types are words of the
// site's language (KÖPT/KJØPT/KØBT/OSTO, SÅLT/SALG/MYYNTI, UTDELNING/UTBYTTE/UDBYTTE/OSINKO, ...).

interface Language {
  readonly code: "sv" | "no" | "da" | "fi";
  readonly format: CsvFormat;
  readonly names: {
    amount: string; cancelled: string; date: string; bookDate: string; fees: string; isin: string; qty: string; price: string;
    security: string; text: string; type: string; note: string;
  };
}

const lang = (code: Language["code"], names: Language["names"]): Language => ({
  code, names,
  format: csvFormat({
    notFound: "This is not a Nordnet transactions export",
    required: ["id", names.bookDate, names.date, names.type, names.security, "isin", names.qty, names.amount],
    separators: ["\t"],
  }),
});

const LANGUAGES: readonly Language[] = [
  lang("sv", {
    amount: "Belopp", bookDate: "Bokföringsdag", cancelled: "Makuleringsdatum", date: "Affärsdag", fees: "Total Avgift", isin: "ISIN",
    note: "Notanummer", price: "Kurs", qty: "Antal", security: "Värdepapper", text: "Transaktionstext", type: "Transaktionstyp",
  }),
  lang("no", {
    amount: "Beløp", bookDate: "Bokføringsdag", cancelled: "Makuleringsdato", date: "Handelsdag", fees: "Totale Avgifter", isin: "ISIN",
    note: "Sluttseddelnummer", price: "Kurs", qty: "Antall", security: "Verdipapir", text: "Transaksjonstekst", type: "Transaksjonstype",
  }),
  lang("da", {
    amount: "Beløb", bookDate: "Bogføringsdag", cancelled: "Makuleringsdato", date: "Handelsdag", fees: "Samlede afgifter", isin: "ISIN",
    note: "Notanummer", price: "Kurs", qty: "Antal", security: "Værdipapirer", text: "Transaktionstekst", type: "Transaktionstype",
  }),
  lang("fi", {
    amount: "Summa", bookDate: "Kirjauspäivä", cancelled: "Mitätöintipäivä", date: "Kauppapäivä", fees: "Kokonaiskulut", isin: "ISIN",
    note: "Laskelma", price: "Kurssi", qty: "Määrä", security: "Arvopaperi", text: "Tapahtumateksti", type: "Tapahtumatyyppi",
  }),
];

/** 0.95 for the export's header row in any of the four languages, else 0. */
export function acceptsNordnet(file: ImportFileMeta): number {
  return Math.max(...LANGUAGES.map((l) => l.format.accepts(file)));
}

const ZERO = "0" as ImportedTransaction["quantity"];
const isCcy = (s: string) => /^[A-Z]{3}$/.test(s);

type Kind = "BUY" | "SELL" | "DIVIDEND" | "TAX" | "INTEREST" | "TRANSFER" | "FEE" | "UNITS" | "CANCELLED_TRADE";
/** Transaction type (upper case) → what it is; first match wins. Units moves before trades ("BYTE INLÄGG VP"). */
const RULES: [RegExp, Kind][] = [
  [/\bVP\b|VERDIPAPIR|VÆRDIPAPIR|ARVO-OSUUS|SPLIT|EMISSION|EMISJON|^BYTE|^BYTTE|INLÖSEN|INNLØSN|TILBAKEBETALING|TILDELING|FUSION/, "UNITS"],
  [/^MAK (KÖPT|SÅLT)|^MAK (KJØPT|SALG)|^MAK (KØBT|SOLGT)/, "CANCELLED_TRADE"],
  [/^(KÖPT|KJØPT|KØBT|OSTO)$/, "BUY"], [/^(SÅLT|SALG|SOLGT|MYYNTI)$/, "SELL"],
  [/KUPSKATT|KUPONGSKATT|KUPONSKAT|UDBYTTESKAT|KÄLLSKATT|KILDESKATT|AVKASTNINGSSKATT|LÄHDEVERO|ENNAKKOPIDÄTYS|SKATT|SKAT\b/, "TAX"],
  [/UTDELNING|UTBYTTE|UDBYTTE|OSINKO/, "DIVIDEND"],
  // Securities lending pays the lender: income like interest ("Utbetaling aksjelån").
  [/RÄNTA|RENTE|KORKO|AKSJELÅN|AKTIELÅN|AKTIEUDLÅN|VÄRDEPAPPERSLÅN/, "INTEREST"],
  [/INSÄTTNING|PREMIEINBETALNING|UTTAG|INNSKUDD|UTTAK|INDBETALING|HÆVNING|TALLETUS|NOSTO|ÖVERFÖRING|OVERFØRING|OVERFØRSEL/, "TRANSFER"],
  [/AVGIFT|\bAVG\b|GEBYR|KOSTNAD|PALKKIO|MAKSU/, "FEE"],
];

/** Reads the export in any of its languages; see the format notes at the top of this file. */
export function parseNordnet(params: ImportParseParams): ImportResult {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  let found: { l: Language; table: CsvFormatTable } | null = null;
  for (const l of LANGUAGES) {
    const table = l.format.match(params.bytes);
    if (table) { found = { l, table }; break; }
  }
  if (!found) throw new PluginError("invalid-input", "This is not a Nordnet transactions export (Id, Bokföringsdag, Affärsdag, Transaktionstyp, Värdepapper, ISIN, Antal, Belopp or their Norwegian, Danish or Finnish names expected)");
  const { l, table } = found;
  const n = l.names;
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: NonNullable<ImportResult["skippedRows"]>[number][] = [];
  const skip = (row: number, reason: string, severity: "info" | "warning") => {
    skippedRows.push({ line: row, reason });
    warnings.push({ code: severity === "warning" ? "unsupportedType" : "rowSkipped", message: reason, row, severity });
  };
  // The currency of a money column is the "Valuta" column right after it.
  const after = (name: string) => {
    const i = table.cols.index(name);
    return (cells: readonly string[]) => (i >= 0 ? (cells[i + 1] ?? "").trim().toUpperCase() : "");
  };
  const amountCcy = after(n.amount);
  const feeCcy = after(n.fees);
  const at = (name: string) => table.cols.index(name);
  const mark = detectDecimalMark(table.rows.slice(table.at + 1).flatMap((r) => [n.amount, n.price, n.qty, "Saldo"].map((c) => r[at(c)] ?? "")));
  const num = (s: string) => parseDecimal(s, mark);

  const records = l.format.walk(table, (record) => record);
  // A cancellation ("MAK UTDELNING", "MAK KÖPT", ...) and the line it cancels (same type without
  // "MAK ", same security, the opposite amount) cancel out: both are skipped, whether or not the
  // export also stamps them with a cancellation date.
  const pairedWith = new Map<number, number>();
  for (const mak of records) {
    const type = mak.get(n.type).toUpperCase();
    if (!type.startsWith("MAK ")) continue;
    const amount = num(mak.get(n.amount));
    const original = records.find((o) => !pairedWith.has(o.row) && o.row !== mak.row && o.get(n.type).toUpperCase() === type.slice(4)
      && o.get(n.isin).toUpperCase() === mak.get(n.isin).toUpperCase() && amount !== null && num(o.get(n.amount))?.eq(amount.neg()));
    if (original) { pairedWith.set(mak.row, original.row); pairedWith.set(original.row, mak.row); }
  }
  for (const { cells, get, row } of records) handle(cells, get, row);

  function handle(cells: readonly string[], get: (...names: string[]) => string, row: number): unknown {
    const type = get(n.type).toUpperCase();
    const date = parseDate(get(n.date), "YMD") ?? parseDate(get(n.bookDate), "YMD");
    // What the line was, for a skipped line's reason: its type, security, date and amount.
    const what = lineWas(get(n.type), get(n.security) || get(n.isin), get(n.date) || get(n.bookDate), get(n.amount) && `${get(n.amount)} ${amountCcy(cells)}`.trim());
    const left = (why: string, todo: string, severity: "info" | "warning") => skip(row, notImported(row, what, why, todo), severity);
    if (!date) return skip(row, unreadableLine(row, n.date, get(n.date), "a date (YYYY-MM-DD)", what), "warning");
    const partner = pairedWith.get(row);
    if (partner !== undefined) {
      const why = type.startsWith("MAK ") ? `cancels line ${partner}, and the two move nothing together` : `is cancelled by line ${partner}, and the two move nothing together`;
      return left(why, "nothing to enter: together they move no cash", "info");
    }
    const cancelled = get(n.cancelled);
    // A cancelled line stays in the export with its cancellation date; it no longer moves anything.
    if (cancelled) return left(`was cancelled on ${cancelled} and no longer moves anything`, "nothing to enter: it moves no cash", "info");
    const rule = RULES.find(([re]) => re.test(type));
    if (rule?.[1] === "UNITS") {
      return left("moves units without a price (a transfer, split, exchange or another corporate action)", "enter the units it moved by hand as an ADJUSTMENT (units received with their cost basis)", "warning");
    }
    if (rule?.[1] === "CANCELLED_TRADE") return left("reverses a trade that is not in this file", "check the trade and remove it by hand", "warning");
    const amount = num(get(n.amount));
    if (amount === null && get(n.amount) !== "") return skip(row, unreadableLine(row, n.amount, get(n.amount), "an amount", what), "warning");
    if (amount === null || amount.isZero()) return left("has no amount", "nothing to enter: it moves no cash", "info");
    const currency = amountCcy(cells);
    if (!isCcy(currency)) return left(`has no currency after ${n.amount}`, "enter it by hand with the currency it was paid in", "warning");
    if (!rule) return skip(row, unknownType(row, what, "cash"), "warning");
    const isin = get(n.isin).toUpperCase();
    const name = get(n.security);
    const text = get(n.text);
    const named = rule[1] === "BUY" || rule[1] === "SELL" || rule[1] === "DIVIDEND";
    const assetType = isin && named ? assetTypeOfName(name) : undefined;
    const asset = { ...(isin ? { isin } : {}), ...(isin && name && named ? { assetName: name } : {}), ...(assetType ? { assetType } : {}) };
    const base = { row, date, description: [get(n.type), name, text].filter(Boolean).join(": ") };
    const cash = (v: Decimal) => ({ amount: v.toFixed(), currency }) as ImportedTransaction["cash"];
    const positive = amount.gt(0);
    switch (rule[1]) {
      case "BUY": case "SELL": {
        const buy = rule[1] === "BUY";
        const qty = num(get(n.qty))?.abs();
        if (!qty || qty.isZero()) return left("is a trade without a quantity", `enter it by hand as a ${rule[1]} with the quantity from Nordnet's contract note`, "warning");
        if (buy === positive) return left(`is a ${buy ? "purchase" : "sale"} with an amount of the wrong sign`, "check the trade with Nordnet and enter it by hand as what it was", "warning");
        const fees = num(get(n.fees))?.abs();
        // Fees come out of Belopp only when they are in its currency.
        const fee = fees && !fees.isZero() && (feeCcy(cells) || currency) === currency ? fees : null;
        const gross = fee ? (buy ? amount.abs().minus(fee) : amount.abs().plus(fee)) : amount.abs();
        const note = get(n.note);
        const order = note ? { orderId: note } : {};
        transactions.push({ ...base, ...order, type: rule[1], ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash: cash(buy ? gross.neg() : gross) });
        if (fee) transactions.push({ ...base, ...order, type: "FEE", ...asset, quantity: ZERO, cash: cash(fee.neg()) });
        return;
      }
      case "DIVIDEND":
        // "MAK UTDELNING" (a cancelled dividend) is negative: a reversal, read as a fee on the security.
        if (!positive) warnings.push({ code: "dividendReversal", message: `Line ${row}: a negative dividend (a reversal) was read as a fee on the security`, row, severity: "info" });
        return transactions.push({ ...base, type: positive ? "DIVIDEND" : "FEE", ...asset, quantity: ZERO, cash: cash(amount) });
      case "TAX":
        if (positive) warnings.push({ code: "taxRefund", message: `Line ${row}: a tax refund was read as ${isin ? "a dividend" : "interest"}`, row, severity: "info" });
        return transactions.push({ ...base, type: positive ? (isin ? "DIVIDEND" : "INTEREST") : "TAX", ...asset, quantity: ZERO, cash: cash(amount) });
      case "INTEREST":
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: cash(amount) });
      case "TRANSFER":
        return transactions.push({ ...base, type: positive ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash: cash(amount) });
      case "FEE":
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", ...(isin ? { isin } : {}), quantity: ZERO, cash: cash(amount) });
    }
  }
  return { detectedFormat: `nordnet/transactions/${l.code}`, skippedRows, transactions, warnings };
}
