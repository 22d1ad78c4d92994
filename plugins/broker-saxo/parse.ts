import { type ImportSkippedRow, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, PluginError } from "../../sdk/index.ts";
import { assetTypeOfName, columns, eachRecord, findHeaderRow, parseDate, parseDecimal, readCsv, sniffFormat, sheetFormat, skipper } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Saxo Bank "Transactions" report (SaxoTraderGO > Account > Historic reports > Transactions >
// Export > Excel), sheet "Transactions": `Client ID, Trade Date, Value Date, Type, Instrument,
// Instrument ISIN, Instrument currency, Exchange, Instrument Symbol, Event, Amount, Order ID,
// Conversion Rate`. Amount is booked in the account's currency, signed; the account currency is
// not in the rows (option `currency`, default EUR). Type Trade carries the trade in Event
// ("Buy 5 @ 190.00 USD", "Sell -2 @ 172.10 USD") and its costs as separate Trade rows
// ("Commission", "Exchange fee"); a trade in another currency than the account's is written in
// the instrument's currency (quantity × price) with an FX_CONVERSION pair from the booked amount.
// Corporate action: "Cash dividend", "Dividend", "Withholding tax"; Cash amount: "Client interest",
// "Custody fee"; Cash transfer: "Deposit", "Withdrawal". Splits and other corporate actions are
// skipped. The same report also comes as CSV (Trade Date "16-Dec-2024", in Dutch "02-mrt-2025";
// amounts with a decimal comma, prices in Event with a point; "Exchange Description"), later with
// "Booked Amount" for Amount and "From Derivative", "Underlying asset type"; Dutch words Transactie
// (Trade), Koop (Buy), Verkoop (Sell). Without option `currency`, the account currency is the
// Instrument currency of the cash rows (Cash transfer, Cash amount), else of the trades converted at 1,
// else EUR with a warning.

const SHEET = "transactions";
const TRADE = /^(buy|sell|koop|verkoop)\s+(-?[\d.,]+)\s*@\s*([\d.,]+)\s*([A-Z]{3})?/i;
const REQUIRED = ["trade date", "value date", "type", "instrument isin", "instrument currency", "event", "conversion rate"];

/** The Transactions report as a workbook: its "Transactions" sheet. */
const WORKBOOK = sheetFormat({
  sheet: SHEET, required: REQUIRED, readRequired: ["trade date", "event"],
  sheetNotFound: 'No "Transactions" table with Trade Date, Event and Amount (is it a Saxo Transactions report?)',
  headerNotFound: 'No "Transactions" table with Trade Date, Event and Amount (is it a Saxo Transactions report?)',
});

export function acceptsSaxo(file: ImportFileMeta): number {
  if (file.format === "xlsx" || file.format === "xls") return WORKBOOK.accepts(file);
  if ((file.format !== undefined && file.format !== "text") || file.head === "") return 0;
  return findHeaderRow(readCsv(file.head.split(/\r?\n/, 1)[0] ?? "", { separator: "," }).rows, REQUIRED, 1) === 0 ? 0.95 : 0;
}

async function rowsOf(bytes: Uint8Array): Promise<string[][]> {
  const format = sniffFormat(bytes);
  if (format !== "xlsx" && format !== "xls") return readCsv(bytes, { separator: "," }).rows.map((r) => [...r]);
  return (await WORKBOOK.read(bytes)).rows.map((r) => [...r]);
}

/** The account currency: the option, else the Instrument currency of cash rows, else of rows converted at 1. */
function accountCurrency(rows: readonly string[][], option: unknown, warnings: ImportWarning[]): string {
  if (typeof option === "string" && /^[a-z]{3}$/i.test(option)) return option.toUpperCase();
  const cols = columns(rows[0] ?? []);
  const seen = (pick: (r: readonly string[]) => boolean) => new Set(rows.slice(1).filter(pick).map((r) => cols.get(r, "Instrument currency").toUpperCase()).filter((c) => /^[A-Z]{3}$/.test(c)));
  for (const found of [seen((r) => /^cash/i.test(cols.get(r, "Type"))), seen((r) => /^(trade|transactie)$/i.test(cols.get(r, "Type")) && (parseDecimal(cols.get(r, "Conversion Rate"), ".")?.eq(1) ?? false))]) {
    if (found.size === 1) return [...found][0]!;
  }
  warnings.push({ code: "currencyAssumed", message: "The report does not show the account currency: EUR assumed (parse with option currency to change it)", severity: "warning" });
  return "EUR";
}

const ZERO = "0" as ImportedTransaction["quantity"];

export async function parseSaxo(params: ImportParseParams): Promise<ImportResult> {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const rows = await rowsOf(params.bytes);
  const cols = columns(rows[0] ?? []);
  if (!cols.has("Event") || !cols.has("Amount", "Booked Amount") || !cols.has("Trade Date")) {
    throw new PluginError("invalid-input", 'No "Transactions" table with Trade Date, Event and Amount (is it a Saxo Transactions report?)');
  }
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  const account = accountCurrency(rows, params.options?.currency, warnings);
  eachRecord(rows, 0, cols, ({ get, row }) => {
    const date = parseDate(get("Trade Date"), "YMD");
    const amount = parseDecimal(get("Amount", "Booked Amount"), "auto");
    const event = get("Event");
    const rawAmount = get("Amount", "Booked Amount");
    // What the line was, for a skipped line's reason: its event, instrument, date and amount.
    const what = lineWas(event, get("Instrument Symbol") || get("Instrument"), get("Trade Date"), rawAmount && `${rawAmount} ${account}`);
    if (!date) return skip({ code: "rowSkipped", message: unreadableLine(row, "Trade Date", get("Trade Date"), "a date", what), row, severity: "warning" });
    if (rawAmount !== "" && !amount) return skip({ code: "rowSkipped", message: unreadableLine(row, "Amount", rawAmount, "an amount", what), row, severity: "warning" });
    const isin = get("Instrument ISIN").toUpperCase();
    const assetType = assetTypeOfName(get("Instrument"));
    const asset = isin || get("Instrument Symbol")
      ? { ...(isin ? { isin } : {}), ...(get("Instrument Symbol") ? { symbol: get("Instrument Symbol") } : {}), ...(get("Instrument") ? { assetName: get("Instrument") } : {}), ...(assetType ? { assetType } : {}) }
      : {};
    const order = get("Order ID");
    const base = { row, date, ...(order ? { orderId: order } : {}) };
    const money = (v: string, c: string) => ({ amount: v, currency: c }) as ImportedTransaction["cash"];
    const trade = TRADE.exec(event);
    if (trade && amount && !amount.isZero()) {
      const qty = parseDecimal(trade[2]!, ".")!.abs();
      const price = parseDecimal(trade[3]!, ".");
      const ccy = (trade[4] ?? get("Instrument currency") ?? account).toUpperCase();
      const buy = /^(buy|koop)$/i.test(trade[1]!);
      const foreign = ccy !== account && price !== null;
      const value = foreign ? qty.times(price!) : amount.abs();
      const valueCcy = foreign ? ccy : account;
      transactions.push({ ...base, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash: money((buy ? value.neg() : value).toFixed(), valueCcy) });
      if (foreign) {
        const pairKey = `fx-${row}`;
        const legs = buy ? [money(amount.abs().neg().toFixed(), account), money(value.toFixed(), ccy)] : [money(value.neg().toFixed(), ccy), money(amount.abs().toFixed(), account)];
        for (const cash of legs) transactions.push({ ...base, type: "FX_CONVERSION", quantity: ZERO, cash, pairKey });
      }
      return;
    }
    if (!amount || amount.isZero()) {
      const message = notImported(row, what, "moves no cash (a split or another change of units, with no price)", "enter the units it changed by hand as an ADJUSTMENT (units received with their cost basis)");
      return skip({ code: "unsupportedEvent", message, row, severity: "warning" });
    }
    const e = event.toLowerCase();
    const rules: [RegExp, ImportedTransaction["type"], ImportedTransaction["type"], boolean][] = [
      [/dividend/, "DIVIDEND", "FEE", true], [/withholding|tax/, "INTEREST", "TAX", true], [/interest/, "INTEREST", "FEE", false],
      [/commission|fee|cost/, "INTEREST", "FEE", true], [/deposit|withdrawal|transfer/, "DEPOSIT", "WITHDRAWAL", false],
    ];
    const rule = rules.find(([re]) => re.test(e));
    if (!rule) return skip({ code: "unsupportedEvent", message: unknownType(row, what, "cash"), row, severity: "warning" });
    const type = amount.gt(0) ? rule[1] : rule[2];
    const withAsset = rule[3] && (type !== "INTEREST" || rule[0].source.includes("withholding"));
    transactions.push({ ...base, type, ...(withAsset ? asset : {}), quantity: ZERO, cash: money(amount.toFixed(), account) });
  });
  return { transactions, warnings, skippedRows };
}
