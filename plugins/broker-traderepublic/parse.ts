import { type ImportSkippedRow, Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning } from "../../sdk/index.ts";
import { assetTypeOfName, csvFormat, type CsvFormatTable, parseDate, parseDecimal, skipper } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Trade Republic's own transaction export (app: Profile > Statements > Transaction export, since
// 2025): comma CSV (a semicolon variant exists), quoted, `datetime,date,account_type,category,type,
// asset_class,name,symbol,shares,price,amount,fee,tax,currency,original_amount,original_currency,
// fx_rate,description,transaction_id,counterparty_name,counterparty_iban,payment_reference,mcc_code`,
// points as decimals, the whole account: category CASH (TRANSFER_INBOUND/OUTBOUND, *_INBOUND,
// CUSTOMER_INBOUND, CARD_TRANSACTION, INTEREST_PAYMENT, DIVIDEND, STOCKPERK, TAX_OPTIMIZATION, ...),
// TRADING (BUY, SELL: shares signed, amount the gross value signed, fee and tax signed beside it),
// DELIVERY (FREE_RECEIPT: units received, saveback or gifts, at `price`; FREE_DELIVERY: units sent
// out; MIGRATION: internal pairs that change nothing), CORPORATE_ACTION. `symbol` is the ISIN, or a
// crypto ticker (BTC; a pseudo-ISIN "XF..." for long ones). Amount, fee and tax are taken as separate
// movements, so a trade is written gross with FEE and TAX rows, a dividend with its TAX row. Card
// payments are WITHDRAWALs (the cash left the account), bonuses (STOCKPERK, ...) and tax refunds
// INTEREST, with a note; corporate actions are skipped with a warning.
//
// The older de-facto format is the transactions CSV written by the community tool pytr (`pytr export_transactions`), German or
// English: `Datum;Typ;Wert;Notiz;ISIN;Stück;Gebühren;Steuern` / `Date;Type;Value;Note;ISIN;Shares;
// Fees;Taxes`. Semicolons; decimal commas in German files, points in English ones (sniffed);
// dates YYYY-MM-DD; the account is in EUR. Wert/Value is the net cash movement of the row (signed),
// Gebühren/Fees and Steuern/Taxes are the row's costs (negative), already inside Wert: the trade or
// gross income is Wert with the costs put back, and each cost is its own FEE or TAX row. Types:
// Kauf/Buy, Sparplan/Savings plan, Verkauf/Sell, Dividende/Dividend, Zinsen/Interest,
// Einlage/Deposit, Entnahme/Removal; gifts, saveback and round-up rows carry no price from the
// account and are skipped with a warning.

const NOT_TR = "This is not a Trade Republic transactions CSV (pytr export)";
/** The pytr export, German or English. */
const PYTR = [
  csvFormat({ confidence: 0.9, notFound: NOT_TR, required: ["datum", "typ", "wert", "isin", "stuck", "gebuhren", "steuern"], separators: [";"] }),
  csvFormat({ confidence: 0.9, notFound: NOT_TR, required: ["date", "type", "value", "isin", "shares", "fees", "taxes"], separators: [";"] }),
];
/** The app's own export, comma or semicolon separated (sniffed). */
/** The app export's `asset_class`, as the instrument type; its FUND covers ETFs too, so it stays a fund. */
const ASSET_CLASS: Record<string, ImportedTransaction["assetType"]> = { STOCK: "STOCK", FUND: "FUND", BOND: "BOND", CRYPTO: "CRYPTO" };

const APP = csvFormat({
  notFound: NOT_TR,
  required: ["datetime", "date", "account type", "category", "type", "asset class", "symbol", "shares", "amount", "fee", "tax", "currency", "transaction id"],
});
const TYPES: Record<string, ImportedTransaction["type"]> = {
  kauf: "BUY", buy: "BUY", sparplan: "BUY", "savings plan": "BUY", verkauf: "SELL", sell: "SELL", dividende: "DIVIDEND", dividend: "DIVIDEND",
  zinsen: "INTEREST", interest: "INTEREST", einlage: "DEPOSIT", deposit: "DEPOSIT", entnahme: "WITHDRAWAL", removal: "WITHDRAWAL", withdrawal: "WITHDRAWAL",
};

export function acceptsTraderepublic(file: ImportFileMeta): number {
  return Math.max(APP.accepts(file), ...PYTR.map((f) => f.accepts(file)));
}

const ISIN = /^(?!XF)[A-Z]{2}[A-Z0-9]{9}\d$/;

/** The app's own export; see the format notes at the top of this file. */
function parseApp(table: CsvFormatTable): ImportResult {
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  const note = (code: string, message: string, row: number, severity: "info" | "warning" = "info") => warnings.push({ code, message, row, severity });
  APP.walk(table, ({ get, row }) => {
    const category = get("category").toUpperCase();
    const type = get("type").toUpperCase();
    const date = parseDate(get("date") || get("datetime"), "YMD");
    const currency = get("currency").toUpperCase();
    const amount = parseDecimal(get("amount"), ".");
    const fee = parseDecimal(get("fee"), ".")?.abs();
    const tax = parseDecimal(get("tax"), ".");
    const symbol = get("symbol").toUpperCase();
    const assetType = ASSET_CLASS[get("asset class").toUpperCase()];
    const asset = symbol ? { ...(ISIN.test(symbol) ? { isin: symbol } : { symbol }), ...(get("name") ? { assetName: get("name") } : {}), ...(assetType ? { assetType } : {}) } : {};
    const money = (v: Decimal) => ({ amount: v.toFixed(), currency }) as ImportedTransaction["cash"];
    // What the line was, for a skipped line's reason: its category and type, name or symbol, date and amount.
    const what = lineWas(`${get("category")} ${get("type")}`, get("name") || symbol, get("date") || get("datetime"), get("amount") && `${get("amount")} ${currency}`.trim());
    const left = (code: string, why: string, todo: string, severity: "info" | "warning" = "warning") => skip({ code, message: notImported(row, what, why, todo), row, severity });
    if (!date) return skip({ code: "rowSkipped", message: unreadableLine(row, "date", get("date") || get("datetime"), "a date (YYYY-MM-DD)", what), row, severity: "warning" });
    if (!/^[A-Z]{3}$/.test(currency)) return skip({ code: "rowSkipped", message: unreadableLine(row, "currency", get("currency"), "a currency code", what), row, severity: "warning" });
    const costs = () => {
      if (fee && !fee.isZero()) transactions.push({ row, date, type: "FEE", ...asset, quantity: ZERO, cash: money(fee.neg()) });
      if (tax && !tax.isZero()) transactions.push({ row, date, type: tax.lt(0) ? "TAX" : "INTEREST", ...asset, quantity: ZERO, cash: money(tax) });
    };
    if (category === "TRADING" && (type === "BUY" || type === "SELL")) {
      const shares = parseDecimal(get("shares"), ".")?.abs();
      if (!shares || shares.isZero() || !amount || amount.isZero()) {
        return left("rowSkipped", "is a trade without its shares or its amount", `enter it by hand as a ${type} from Trade Republic's trade confirmation`);
      }
      const buy = type === "BUY";
      transactions.push({ row, date, type, ...asset, quantity: (buy ? shares : shares.neg()).toFixed() as never, cash: money(buy ? amount.abs().neg() : amount.abs()) });
      return costs();
    }
    if (category === "DELIVERY") {
      if (type === "MIGRATION") return left("migrationSkipped", "is an internal migration that moves units out and back in", "nothing to enter: your holding does not change", "info");
      const shares = parseDecimal(get("shares"), ".");
      if (!shares || shares.isZero() || !symbol) return left("rowSkipped", "is a delivery of shares without its shares or its asset", "enter the shares it moved by hand as an ADJUSTMENT");
      const inbound = type === "FREE_RECEIPT" ? true : type === "FREE_DELIVERY" ? false : shares.gt(0);
      const units = inbound ? shares.abs() : shares.abs().neg();
      const price = parseDecimal(get("price"), ".")?.abs();
      if (inbound) note("deliveryIn", `${units.toFixed()} units received without cash (saveback, gift or transfer in), at ${price?.toFixed() ?? "no"} price`, row);
      transactions.push({ row, date, type: "ADJUSTMENT", ...asset, quantity: units.toFixed() as never, ...(inbound && price ? { costBasis: money(price) as never } : {}) });
      return;
    }
    if (category !== "CASH") {
      const why = "is neither a trade, a delivery nor a cash movement, the kinds the importer reads (a corporate action such as a split carries no price)";
      return left("unsupportedType", why, "enter the shares it changed by hand as an ADJUSTMENT");
    }
    if (!amount || amount.isZero()) return skip({ code: "rowSkipped", message: unreadableLine(row, "amount", get("amount"), "an amount other than zero", what), row, severity: "warning" });
    const positive = amount.gt(0);
    if (type === "DIVIDEND") {
      transactions.push({ row, date, type: positive ? "DIVIDEND" : "FEE", ...asset, quantity: ZERO, cash: money(amount) });
      return costs();
    }
    if (type.includes("INTEREST")) {
      transactions.push({ row, date, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: money(amount) });
      return costs();
    }
    if (type.includes("TAX")) {
      if (positive) note("taxRefund", "A tax refund was read as interest", row);
      return transactions.push({ row, date, type: positive ? "INTEREST" : "TAX", quantity: ZERO, cash: money(amount) });
    }
    if (type.includes("CARD") || type === "PAYMENT") {
      note("cardPayment", "A card payment from the account is a withdrawal", row);
      return transactions.push({ row, date, type: positive ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash: money(amount) });
    }
    if (/TRANSFER|INBOUND|OUTBOUND/.test(type)) return transactions.push({ row, date, type: positive ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash: money(amount) });
    if (positive && /PERK|SAVEBACK|BONUS|REWARD|REFERRAL/.test(type)) {
      note("bonusAsIncome", `A ${type} bonus credited in cash was read as interest`, row);
      return transactions.push({ row, date, type: "INTEREST", quantity: ZERO, cash: money(amount) });
    }
    skip({ code: "unsupportedType", message: unknownType(row, what, "cash"), row, severity: "warning" });
  });
  return { transactions, warnings, skippedRows };
}

const ZERO = "0" as ImportedTransaction["quantity"];

export function parseTraderepublic(params: ImportParseParams): ImportResult {
  const app = APP.match(params.bytes);
  if (app) return parseApp(app);
  const pytr = PYTR[0]!.match(params.bytes) ?? PYTR[1]!.read(params.bytes);
  const german = pytr.cols.has("Wert");
  const mark = german ? "," : ".";
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  PYTR[0]!.walk(pytr, ({ get, row }) => {
    const type = TYPES[get("Typ", "Type").toLowerCase()];
    const date = parseDate(get("Datum", "Date"), "YMD");
    const value = parseDecimal(get("Wert", "Value"), mark);
    // What the line was, for a skipped line's reason: its type, note, ISIN, date and value.
    const what = lineWas(get("Typ", "Type"), get("Notiz", "Note") || get("ISIN"), get("Datum", "Date"), get("Wert", "Value") && `${get("Wert", "Value")} EUR`);
    if (!type) return skip({ code: "unsupportedType", message: unknownType(row, what), row, severity: "warning" });
    if (!date) return skip({ code: "rowSkipped", message: unreadableLine(row, german ? "Datum" : "Date", get("Datum", "Date"), "a date (YYYY-MM-DD)", what), row, severity: "warning" });
    if (!value || value.isZero()) return skip({ code: "rowSkipped", message: unreadableLine(row, german ? "Wert" : "Value", get("Wert", "Value"), "an amount other than zero", what), row, severity: "warning" });
    const isin = get("ISIN").toUpperCase();
    // This export has no class column: the note (the security's name) may say what it is.
    const assetType = assetTypeOfName(get("Notiz", "Note"));
    const asset = isin ? { isin, ...(get("Notiz", "Note") ? { assetName: get("Notiz", "Note") } : {}), ...(assetType ? { assetType } : {}) } : {};
    const eur = (v: Decimal) => ({ amount: v.toFixed(), currency: "EUR" }) as ImportedTransaction["cash"];
    const fees = parseDecimal(get("Gebühren", "Fees"), mark)?.abs() ?? new Decimal(0);
    const taxes = parseDecimal(get("Steuern", "Taxes"), mark)?.abs() ?? new Decimal(0);
    const gross = value.plus(fees).plus(taxes);
    if (type === "BUY" || type === "SELL") {
      const shares = parseDecimal(get("Stück", "Shares"), mark)?.abs();
      if (!shares || shares.isZero()) {
        const message = notImported(row, what, "is a trade without its number of shares", `enter it by hand as a ${type} with the shares from Trade Republic's trade confirmation`);
        return skip({ code: "rowSkipped", message, row, severity: "warning" });
      }
      transactions.push({ row, date, type, ...asset, quantity: (type === "BUY" ? shares : shares.neg()).toFixed() as never, cash: eur(type === "BUY" ? gross.abs().neg() : gross.abs()) });
    } else {
      const negative = type === "WITHDRAWAL";
      transactions.push({ row, date, type, ...(type === "DIVIDEND" ? asset : {}), quantity: ZERO, cash: eur(negative ? gross.abs().neg() : gross.abs()) });
    }
    if (!fees.isZero()) transactions.push({ row, date, type: "FEE", ...asset, quantity: ZERO, cash: eur(fees.neg()) });
    if (!taxes.isZero()) transactions.push({ row, date, type: "TAX", ...asset, quantity: ZERO, cash: eur(taxes.neg()) });
  });
  return { transactions, warnings, skippedRows };
}
