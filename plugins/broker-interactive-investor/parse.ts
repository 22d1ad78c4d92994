import {
  type Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning,
} from "../../sdk/index.ts";
import { assetTypeOfName, csvFormat, decodeText, parseDate, parseDecimal } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// interactive investor (ii) transaction history (Accounts > History > Export), one CSV per account
// and currency, comma separated, sometimes several byte order marks before the header: `Date,
// Settlement Date,Symbol,Sedol,Quantity,Price,Description,Reference,Debit,Credit,Running Balance`.
// Dates DD/MM/YYYY; money with its symbol and thousands commas ("£1,982.02", in quotes); empty
// cells written "n/a". Debit is money out, Credit money in. A trade has Symbol, Sedol, Quantity
// (a sale negative) and Price, its Description "30 VANGUARD FTSE AW  Del   98.45 S Date 08/01/25",
// and its Debit or Credit includes the dealing charge and stamp duty (ii does not show them apart).
// A currency exchange in the sterling file has no Symbol, the amount of foreign currency bought as
// Quantity and its price in pounds: "500 U.S. DOLLARS  .79 S Date 17/01/25". Other lines by their
// Description: "Div 165   IMPERIAL BRANDS PLC   GBP0.10" (a dividend), "GROSS INTEREST", "Total
// Monthly Fee", "Fee Transfer", "Debit Card Payment", "SUBSCRIPTION", "2026/27 ISA Subscription re
// ...", transfers and withdrawals; a stock transfer moves shares without cash.

const FORMAT = csvFormat({
  notFound: "This is not an interactive investor transaction history (Date, Settlement Date, Symbol, Sedol, Debit, Credit expected)",
  required: ["date", "settlement date", "symbol", "sedol", "quantity", "price", "description", "debit", "credit", "running balance"],
  separators: [","],
});

/** 0.95 for the history's header row (byte order marks before it allowed), else 0. */
export function acceptsInteractiveInvestor(file: ImportFileMeta): number {
  return FORMAT.accepts({ ...file, head: file.head.replace(/^\uFEFF+/, "") });
}

const ZERO = "0" as ImportedTransaction["quantity"];
const SYMBOLS: Record<string, string> = { "£": "GBP", "€": "EUR", "$": "USD" };
/** Currency names in an exchange line's description. */
const CURRENCY_NAMES: [RegExp, string][] = [
  [/\bU\.?S\.? DOLLARS?\b/, "USD"], [/\bEUROS?\b/, "EUR"], [/\bAUSTRALIAN DOLLARS?\b/, "AUD"], [/\bCANADIAN DOLLARS?\b/, "CAD"],
  [/\bHONG KONG DOLLARS?\b/, "HKD"], [/\bSINGAPORE DOLLARS?\b/, "SGD"], [/\bNEW ZEALAND DOLLARS?\b/, "NZD"], [/\bSWISS FRANCS?\b/, "CHF"],
  [/\bJAPANESE YEN\b/, "JPY"], [/\bDANISH KRON[EA]R?\b/, "DKK"], [/\bSWEDISH KRON[AO]R?\b/, "SEK"], [/\bNORWEGIAN KRON[EA]R?\b/, "NOK"],
  [/\b(STERLING|POUNDS?)\b/, "GBP"],
];
const EXCHANGE_LINE = /^[\d.,]+\s+.+\bS Date\b/i;
const na = (s: string) => (/^n\/a$/i.test(s) ? "" : s);

/** Reads the history; see the format notes at the top of this file. */
export function parseInteractiveInvestor(params: ImportParseParams): ImportResult {
  // Some exports repeat the byte order mark; the decoder drops only the first.
  const table = FORMAT.read(decodeText(params.bytes).text.replace(/^\uFEFF+/, ""));
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: { line: number; reason: string }[] = [];
  const skip = (row: number, reason: string, severity: "info" | "warning" = "warning", code = "rowSkipped") => {
    skippedRows.push({ line: row, reason });
    warnings.push({ code, message: reason, row, severity });
  };
  const currency = accountCurrency(table.rows.slice(table.at + 1), table.cols, params.options, warnings);
  const money = (v: Decimal, ccy = currency) => ({ amount: v.toFixed(), currency: ccy }) as ImportedTransaction["cash"];
  FORMAT.walk(table, ({ get, row }) => {
    const date = parseDate(get("Date"), "DMY");
    const text = get("Description").replace(/\s+/g, " ");
    // What the line was, for a skipped line's reason: its description, symbol, date, quantity and debit or credit.
    const what = lineWas(text, na(get("Symbol")), get("Date"), na(get("Quantity")), na(get("Debit")) || na(get("Credit")));
    const left = (why: string, todo: string, severity: "info" | "warning", code: string) => skip(row, notImported(row, what, why, todo), severity, code);
    if (!date) return skip(row, unreadableLine(row, "Date", get("Date"), "a date (DD/MM/YYYY)", what));
    const words = text.toLowerCase();
    const debit = parseDecimal(na(get("Debit")), ".")?.abs();
    const credit = parseDecimal(na(get("Credit")), ".")?.abs();
    const quantity = parseDecimal(na(get("Quantity")), ".");
    const symbol = na(get("Symbol"));
    const sedol = na(get("Sedol"));
    const reference = na(get("Reference"));
    const base = { row, date, description: [text, sedol ? `SEDOL ${sedol}` : "", reference ? `ref ${reference}` : ""].filter(Boolean).join(" · ") };
    const out = debit && !debit.isZero() ? debit : null;
    const into = credit && !credit.isZero() ? credit : null;
    const cash = into ?? out?.neg() ?? null;
    if (!cash) {
      return quantity && !quantity.isZero()
        ? left("moves shares without cash (a transfer or corporate action)", "enter the shares it moved by hand as an ADJUSTMENT (shares received with their cost basis)", "warning", "noCashMovement")
        : left("has neither a debit nor a credit nor a quantity", "nothing to enter: it moves no cash or shares", "info", "rowSkipped");
    }
    const name = assetName(text);
    const assetType = assetTypeOfName(name);
    const asset = { ...(symbol ? { symbol } : {}), ...(name ? { assetName: name } : {}), ...(assetType ? { assetType } : {}) };

    const exchanged = !symbol && EXCHANGE_LINE.test(text) ? CURRENCY_NAMES.find(([re]) => re.test(text.toUpperCase()))?.[1] : undefined;
    if (exchanged && quantity && !quantity.isZero()) {
      if (currency !== "GBP") {
        const why = `is the exchange with ${exchanged}, which is read from the sterling account's file (importing it from both would count it twice)`;
        return left(why, "import the sterling account's file for it", "info", "exchangeElsewhere");
      }
      const foreign = quantity.abs();
      const pairKey = `fx-${row}`;
      // Debit: pounds paid for the foreign currency; credit: foreign currency sold for pounds.
      const [from, to] = out ? [money(out.neg()), money(foreign, exchanged)] : [money(foreign.neg(), exchanged), money(into!)];
      transactions.push({ ...base, type: "FX_CONVERSION", quantity: ZERO, cash: from, pairKey }, { ...base, type: "FX_CONVERSION", quantity: ZERO, cash: to, pairKey });
      return;
    }
    if (symbol && quantity && !quantity.isZero() && !/^div\b/.test(words)) {
      const buy = out !== null;
      const orderId = reference || undefined;
      return transactions.push({
        ...base, ...(orderId ? { orderId } : {}), type: buy ? "BUY" : "SELL", ...asset,
        quantity: (buy ? quantity.abs() : quantity.abs().neg()).toFixed() as never, cash: money(cash),
      });
    }
    const positive = into !== null;
    const note = (code: string, message: string) => warnings.push({ code, message: `Line ${row}: ${message}`, row, severity: "info" });
    if (/^div\b|dividend/.test(words)) {
      if (!positive) note("dividendReversal", "a dividend paid back was read as a fee");
      return transactions.push({ ...base, type: positive ? "DIVIDEND" : "FEE", ...asset, quantity: ZERO, cash: money(cash) });
    }
    if (/interest/.test(words)) return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: money(cash) });
    if (/\btax\b|withholding/.test(words)) {
      if (positive) note("taxRefund", "a tax refund was read as interest");
      return transactions.push({ ...base, type: positive ? "INTEREST" : "TAX", ...asset, quantity: ZERO, cash: money(cash) });
    }
    if (/\bfees?\b|charge/.test(words)) {
      if (positive) note("feeRefund", "a fee refund was read as interest");
      return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: money(cash) });
    }
    if (/card payment|subscription|cash received|\btrf\b|transfer|withdrawal|payment|deposit|faster|bacs|cheque|receipt|contribution|lump sum/.test(words)) {
      return transactions.push({ ...base, type: positive ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash: money(cash) });
    }
    return skip(row, unknownType(row, what, "cash"), "warning", "unsupportedType");
  });
  return { detectedFormat: "interactive-investor/transactions", skippedRows, transactions, warnings };
}

/** The security's name in a trade ("30 VANGUARD FTSE AW  Del ...") or dividend ("Div 30   NAME   USD0.50") line. */
function assetName(text: string): string | undefined {
  const trade = /^[\d.,]+\s+(.+?)\s+Del\b/i.exec(text);
  if (trade) return trade[1]!.trim();
  const div = /^Div\s+[\d.,]+\s+(.+?)\s+[A-Z]{3}[\d.]+$/i.exec(text);
  return div ? div[1]!.trim() : undefined;
}

/** The currency of the file's money cells (£, €, $), else option `currency`, else GBP with a warning. */
function accountCurrency(rows: readonly (readonly string[])[], cols: { index(...n: string[]): number }, options: ImportParseParams["options"], warnings: ImportWarning[]): string {
  const at = ["Debit", "Credit", "Running Balance"].map((n) => cols.index(n)).filter((i) => i >= 0);
  for (const r of rows) {
    for (const i of at) {
      const symbol = /[£€$]/.exec(r[i] ?? "")?.[0];
      if (symbol) return SYMBOLS[symbol]!;
    }
  }
  const option = typeof options?.currency === "string" && /^[A-Z]{3}$/i.test(options.currency) ? options.currency.toUpperCase() : null;
  if (option) return option;
  warnings.push({ code: "currencyAssumed", message: "No currency symbol in the amounts: read as pounds (GBP); pass option currency for another account", severity: "warning" });
  return "GBP";
}
