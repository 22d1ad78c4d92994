import { CurrencyCodeSchema, definePlugin, PluginError, toDecimalString, type ImportedTransaction, type ImportWarning } from "@portfolio-tracker/sdk";
import { columns, eachRecord, findHeaderRow, parseDate, parseDecimal, readCsv } from "@portfolio-tracker/sdk/import";

// "Tiny Broker" CSV: Date,Type,Symbol,Quantity,Amount,Currency with ISO dates and dot decimals;
// Amount is the cash movement as the account saw it (a BUY is negative), Quantity unsigned.
const HEADER = ["Date", "Type", "Symbol", "Quantity", "Amount", "Currency"];
const TYPES = ["BUY", "SELL", "DIVIDEND", "DEPOSIT", "WITHDRAWAL", "FEE"] as const;
const isType = (type: string): type is (typeof TYPES)[number] => (TYPES as readonly string[]).includes(type);

export default definePlugin({
  description: "Transactions from a Tiny Broker CSV export.",
  id: "tiny-broker-csv",
  kind: "import-plugin",
  name: "Tiny Broker Csv",
  version: "0.1.0",
  create: () => ({
    supportedExtensions: ["csv"],
    // Cheap and never throwing: only the decoded first 4 KiB of a text file is looked at.
    accepts: (file) => (file.format === "text" && findHeaderRow(readCsv(file.head).rows, HEADER, 1) === 0 ? 0.9 : 0),
    async parse({ bytes }) {
      const { rows } = readCsv(bytes);
      const at = findHeaderRow(rows, HEADER, 5);
      if (at < 0) throw new PluginError("invalid-input", `Not a Tiny Broker export: no ${HEADER.join(",")} header`);
      const transactions: ImportedTransaction[] = [];
      const warnings: ImportWarning[] = [];
      eachRecord(rows, at, columns(rows[at]!), ({ get, row }) => {
        const type = get("Type").toUpperCase();
        const date = parseDate(get("Date"), "YMD");
        const amount = parseDecimal(get("Amount"), ".");
        const units = parseDecimal(get("Quantity") || "0", ".")?.abs();
        const currency = CurrencyCodeSchema.safeParse(get("Currency").toUpperCase());
        if (!isType(type) || !date || !amount || !units || !currency.success) {
          warnings.push({ code: "rowSkipped", message: `Row ${row} is not a transaction this importer reads`, row, severity: "warning" });
          return;
        }
        const quantity = type === "BUY" ? units : type === "SELL" ? units.neg() : units.times(0);
        const symbol = get("Symbol");
        transactions.push({
          row, type, date,
          ...(symbol ? { symbol } : {}),
          quantity: toDecimalString(quantity),
          cash: { amount: toDecimalString(amount), currency: currency.data },
        });
      });
      return { transactions, warnings };
    },
  }),
});
