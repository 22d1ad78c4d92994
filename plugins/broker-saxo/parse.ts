import { type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, isPluginError, PluginError } from "../../sdk/index.ts";
import { columns, eachRecord, parseDate, parseDecimal, readWorkbook } from "../../sdk/import/index.ts";

// Saxo Bank "Transactions" report (SaxoTraderGO > Account > Historic reports > Transactions >
// Export > Excel), sheet "Transactions": `Client ID, Trade Date, Value Date, Type, Instrument,
// Instrument ISIN, Instrument currency, Exchange, Instrument Symbol, Event, Amount, Order ID,
// Conversion Rate`. Amount is booked in the account's currency, signed; the account currency is
// not in the rows (option `currency`, default EUR). Type Trade carries the trade in Event
// ("Buy 5 @ 190.00 USD", "Sell -2 @ 172.10 USD") and its costs as separate Trade rows
// ("Commission", "Exchange fee"); a trade in another currency than the account's is written in
// the instrument's currency (quantity × price) with an FX_CONVERSION pair from the booked amount.
// Corporate action: "Cash dividend", "Withholding tax"; Cash amount: "Client interest", "Custody
// fee"; Cash transfer: "Deposit", "Withdrawal". Splits and other corporate actions are skipped.

const SHEET = "transactions";
const TRADE = /^(buy|sell)\s+(-?[\d.,]+)\s*@\s*([\d.,]+)\s*([A-Z]{3})?/i;

export function acceptsSaxo(file: ImportFileMeta): number {
  if (file.format !== "xlsx" && file.format !== "xls") return 0;
  return /saxo/i.test(file.filename) ? 0.6 : 0.1;
}

const ZERO = "0" as ImportedTransaction["quantity"];

export async function parseSaxo(params: ImportParseParams): Promise<ImportResult> {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const option = params.options?.currency;
  const account = typeof option === "string" && /^[a-z]{3}$/i.test(option) ? option.toUpperCase() : "EUR";
  let sheets;
  try {
    sheets = await readWorkbook(params.bytes);
  } catch (error) {
    if (isPluginError(error)) throw error; // a workbook beyond the reader's limits: its message names the limit
    throw new PluginError("invalid-input", "This is not a spreadsheet (Saxo's report is XLSX)");
  }
  const sheet = sheets.find((s) => s.name.toLowerCase() === SHEET);
  const rows = (sheet?.rows ?? []).map((r) => r.map((c) => c ?? ""));
  const cols = columns(rows[0] ?? []);
  if (!sheet || !cols.has("Event") || !cols.has("Amount") || !cols.has("Trade Date")) {
    throw new PluginError("invalid-input", 'No "Transactions" sheet with Trade Date, Event and Amount (is it a Saxo Transactions report?)');
  }
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  eachRecord(rows, 0, cols, ({ get, row }) => {
    const date = parseDate(get("Trade Date"), "YMD");
    const amount = parseDecimal(get("Amount"), ".");
    const event = get("Event");
    if (!date) return warnings.push({ code: "rowSkipped", message: `Row ${row} has no date`, row, severity: "warning" });
    const isin = get("Instrument ISIN").toUpperCase();
    const asset = isin || get("Instrument Symbol")
      ? { ...(isin ? { isin } : {}), ...(get("Instrument Symbol") ? { symbol: get("Instrument Symbol") } : {}), ...(get("Instrument") ? { assetName: get("Instrument") } : {}) }
      : {};
    const order = get("Order ID");
    const base = { row, date, ...(order ? { orderId: order } : {}) };
    const money = (v: string, c: string) => ({ amount: v, currency: c }) as ImportedTransaction["cash"];
    const trade = TRADE.exec(event);
    if (trade && amount && !amount.isZero()) {
      const qty = parseDecimal(trade[2]!, ".")!.abs();
      const price = parseDecimal(trade[3]!, ".");
      const ccy = (trade[4] ?? get("Instrument currency") ?? account).toUpperCase();
      const buy = trade[1]!.toLowerCase() === "buy";
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
    if (!amount || amount.isZero()) return warnings.push({ code: "unsupportedEvent", message: `"${event}" rows are not imported`, row, severity: "warning" });
    const e = event.toLowerCase();
    const rules: [RegExp, ImportedTransaction["type"], ImportedTransaction["type"], boolean][] = [
      [/dividend/, "DIVIDEND", "FEE", true], [/withholding|tax/, "INTEREST", "TAX", true], [/interest/, "INTEREST", "FEE", false],
      [/commission|fee|cost/, "INTEREST", "FEE", true], [/deposit|withdrawal|transfer/, "DEPOSIT", "WITHDRAWAL", false],
    ];
    const rule = rules.find(([re]) => re.test(e));
    if (!rule) return warnings.push({ code: "unsupportedEvent", message: `"${event}" rows are not imported`, row, severity: "warning" });
    const type = amount.gt(0) ? rule[1] : rule[2];
    const withAsset = rule[3] && (type !== "INTEREST" || rule[0].source.includes("withholding"));
    transactions.push({ ...base, type, ...(withAsset ? asset : {}), quantity: ZERO, cash: money(amount.toFixed(), account) });
  });
  return { transactions, warnings };
}
