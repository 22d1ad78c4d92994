import {
  type Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning,
} from "../../sdk/index.ts";
import { assetTypeOfName, csvFormat, parseDate, parseDecimal } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Avanza (Sweden) transactions export (Min ekonomi > Transaktioner > Exportera, CSV): semicolons,
// decimal commas ("-16772,74"), dates YYYY-MM-DD, newest line first, often a UTF-8 BOM.
// Since 2023 (currency accounts): `Datum;Konto;Typ av transaktion;Värdepapper/beskrivning;Antal;
// Kurs;Belopp;Transaktionsvaluta;Courtage (SEK);Valutakurs;Instrumentvaluta;ISIN;Resultat`
// (some files say `Courtage` without the currency). Belopp is the signed cash movement in
// Transaktionsvaluta and includes the courtage; Kurs is in Instrumentvaluta (a USD share bought from
// a SEK account: Belopp = −(Antal × Kurs × Valutakurs + Courtage)). Sälj rows have a negative Antal.
// The older layout `Datum;Konto;Typ av transaktion;Värdepapper/beskrivning;Antal;Kurs;Belopp;
// Courtage;Valuta;ISIN;Resultat` (accounts in SEK only; Valuta is the instrument's currency) writes
// "-" in empty cells. Kinds (Typ av transaktion): Köp, Sälj, Utdelning, Utländsk källskatt,
// Preliminärskatt/Prelskatt, Ränta/Räntor/Inlåningsränta, Insättning, Autogiroinsättning, Uttag,
// Intern överföring, ADR-avgift, Övrigt (yield tax "Avkastningsskatt", fee rebates "Återbetalning
// ... avgift", and security conversions that move units without cash), Tillgångsinsättning,
// Värdepappersöverföring, Byte (units in or out without a price).

const FORMAT = csvFormat({
  notFound: "This is not an Avanza transactions export (Datum, Konto, Typ av transaktion, Värdepapper/beskrivning, Antal, Kurs, Belopp expected)",
  required: ["datum", "konto", "typ av transaktion", "värdepapper/beskrivning", "antal", "kurs", "belopp"],
  separators: [";"],
});

/** 0.95 for the export's header row, else 0. */
export function acceptsAvanza(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const ZERO = "0" as ImportedTransaction["quantity"];
const isCcy = (s: string) => /^[A-Z]{3}$/.test(s);
const num = (s: string) => parseDecimal(s, ",");

type Kind = "BUY" | "SELL" | "DIVIDEND" | "TAX" | "INTEREST" | "TRANSFER" | "WITHDRAWAL" | "FEE" | "OTHER" | "UNITS";
/** Typ av transaktion → what it is; first match wins. */
const RULES: [RegExp, Kind][] = [
  [/tillgångsinsättning|tillgångsuttag|värdepappersöverföring|värdepappersuttag|^byte|split|inlösen/, "UNITS"],
  [/^köp/, "BUY"], [/^sälj/, "SELL"], [/^utdelning/, "DIVIDEND"],
  [/källskatt|prelskatt|preliminärskatt|avkastningsskatt|kupongskatt/, "TAX"],
  [/ränta|räntor/, "INTEREST"], [/insättning$|^insättning|överföring$|^intern överföring/, "TRANSFER"], [/^uttag/, "WITHDRAWAL"],
  [/avgift/, "FEE"], [/^övrigt/, "OTHER"],
];

/** Reads the transactions export; see the format notes at the top of this file. */
export function parseAvanza(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const modern = table.cols.has("Transaktionsvaluta");
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: NonNullable<ImportResult["skippedRows"]>[number][] = [];
  const skip = (row: number, reason: string, severity: "info" | "warning") => {
    skippedRows.push({ line: row, reason });
    warnings.push({ code: severity === "warning" ? "unsupportedType" : "rowSkipped", message: reason, row, severity });
  };
  FORMAT.walk(table, ({ get, row }) => {
    const typ = get("Typ av transaktion");
    const text = get("Värdepapper/beskrivning");
    const date = parseDate(get("Datum"), "YMD");
    // What the line was, for a skipped line's reason: its type, security or description, date and amount.
    const belopp = get("Belopp").replace(/^-$/, "");
    const was = lineWas(typ, text, get("Datum"), belopp && `${belopp} ${modern ? get("Transaktionsvaluta") : "SEK"}`.trim());
    const left = (why: string, todo: string, severity: "info" | "warning" = "warning") => skip(row, notImported(row, was, why, todo), severity);
    if (!date) return skip(row, unreadableLine(row, "Datum", get("Datum"), "a date (YYYY-MM-DD)", was), "warning");
    const rule = RULES.find(([re]) => re.test(typ.toLowerCase()));
    // Units moved in or out without a price: the ledger needs their cost, which the export does not give.
    if (rule?.[1] === "UNITS") return left("moves units without a price", "enter the units it moved by hand as an ADJUSTMENT (units received with their cost basis)");
    const amount = num(get("Belopp"));
    const isin = get("ISIN").replace(/^-$/, "").toUpperCase();
    if (rule?.[1] === "OTHER" && (amount === null || amount.isZero()) && isin) {
      return left("converts a security, units moved without cash (a corporate action)", "enter the units it moved by hand as an ADJUSTMENT");
    }
    if (amount === null && belopp !== "") return skip(row, unreadableLine(row, "Belopp", get("Belopp"), "an amount", was), "warning");
    if (amount === null || amount.isZero()) return left("has no amount", "nothing to enter: it moves no cash", "info");
    const currency = (modern ? get("Transaktionsvaluta") : "SEK").toUpperCase();
    if (!isCcy(currency)) return skip(row, unreadableLine(row, "Transaktionsvaluta", get("Transaktionsvaluta"), "a currency code", was), "warning");
    if (!rule) return skip(row, unknownType(row, was, "cash"), "warning");
    const instrumentCcy = (modern ? get("Instrumentvaluta") : get("Valuta")).toUpperCase();
    // The text names the security on trades and dividends; on a withholding line it describes the dividend.
    const named = rule[1] === "BUY" || rule[1] === "SELL" || rule[1] === "DIVIDEND";
    const assetType = isin && named ? assetTypeOfName(text) : undefined;
    const asset = {
      ...(isin ? { isin } : {}), ...(isin && text && named ? { assetName: text } : {}), ...(assetType ? { assetType } : {}), ...(isin && isCcy(instrumentCcy) ? { assetCurrency: instrumentCcy as never } : {}),
    };
    const base = { row, date, ...(text ? { description: `${typ}: ${text}` } : { description: typ }) };
    const cash = (v: Decimal) => ({ amount: v.toFixed(), currency }) as ImportedTransaction["cash"];
    const positive = amount.gt(0);
    switch (rule[1]) {
      case "BUY": case "SELL": {
        const qty = num(get("Antal"))?.abs();
        const buy = rule[1] === "BUY";
        if (!qty || qty.isZero()) return left("is a trade without a quantity", `enter it by hand as a ${rule[1]} with the quantity from Avanza's contract note`);
        if (buy === positive) return left(`is a ${buy ? "purchase" : "sale"} with an amount of the wrong sign`, "check the trade with Avanza and enter it by hand as what it was");
        // The courtage is in SEK: split it from Belopp only when Belopp is in SEK too.
        const courtage = num(get("Courtage (SEK)", "Courtage"))?.abs();
        const fee = courtage && !courtage.isZero() && currency === "SEK" ? courtage : null;
        const gross = fee ? (buy ? amount.abs().minus(fee) : amount.abs().plus(fee)) : amount.abs();
        transactions.push({ ...base, type: rule[1], ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash: cash(buy ? gross.neg() : gross) });
        if (fee) transactions.push({ ...base, type: "FEE", ...asset, quantity: ZERO, cash: cash(fee.neg()) });
        return;
      }
      case "DIVIDEND":
        if (!positive) warnings.push({ code: "dividendReversal", message: `Line ${row}: a negative dividend (a reversal) was read as a fee on the security`, row, severity: "info" });
        return transactions.push({ ...base, type: positive ? "DIVIDEND" : "FEE", ...asset, quantity: ZERO, cash: cash(amount) });
      case "TAX":
        if (positive) warnings.push({ code: "taxRefund", message: `Line ${row}: a tax refund was read as ${isin ? "a dividend" : "interest"}`, row, severity: "info" });
        return transactions.push({ ...base, type: positive ? (isin ? "DIVIDEND" : "INTEREST") : "TAX", ...asset, quantity: ZERO, cash: cash(amount) });
      case "INTEREST":
        // Negative interest is what a credit account is charged.
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: cash(amount) });
      case "TRANSFER": case "WITHDRAWAL":
        return transactions.push({ ...base, type: positive ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash: cash(amount) });
      case "FEE":
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: cash(amount) });
      case "OTHER": {
        const what = text.toLowerCase();
        if (/skatt/.test(what)) return transactions.push({ ...base, type: positive ? "INTEREST" : "TAX", quantity: ZERO, cash: cash(amount) });
        // "Återbetalning Total avgift 2023 <fund>": the fund's fees paid back.
        if (/avgift|återbetalning/.test(what)) return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: cash(amount) });
        return left("is a line of other kinds whose description says neither a tax nor a fee, so what its cash is for cannot be told", "enter it by hand as what it was");
      }
    }
  });
  return { detectedFormat: modern ? "avanza/transactions" : "avanza/transactions-legacy", skippedRows, transactions, warnings };
}
