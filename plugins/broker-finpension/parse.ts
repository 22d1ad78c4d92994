import { type Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning } from "../../sdk/index.ts";
import { assetTypeOfName, csvFormat, parseDate, parseDecimal } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// finpension (Switzerland) transactions export of a pillar 3a, vested benefits or BVG portfolio
// (app > portfolio > Transactions > Export, CSV): `Date;Category;"Asset Name";ISIN;"Number of
// Shares";"Asset Currency";"Currency Rate";"Asset Price in CHF";"Cash Flow";Balance`, semicolons,
// decimal points with six decimals, dates YYYY-MM-DD, newest line first. Cash Flow is the signed
// movement in CHF (the portfolio's currency); Number of Shares is signed (a sale is negative).
// Categories: Deposit, Buy, Sell, Dividend, Interests, "Flat-rate administrative fee" (later
// "Flat-rate administration fee"); the vested benefits and BVG exports write "Portfolio Transaction"
// for both buys and sells (told apart by the sign), "Dividend and Interest Distributions" and
// "Transfer vested benefits" (money brought in from a previous pension fund).

const FORMAT = csvFormat({
  notFound: "This is not a finpension transactions export (Date;Category;Asset Name;ISIN;Number of Shares;...;Cash Flow;Balance expected)",
  required: ["date", "category", "asset name", "isin", "number of shares", "asset price in chf", "cash flow", "balance"],
  separators: [";"],
});

/** 0.95 for the export's header row, else 0. */
export function acceptsFinpension(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const ZERO = "0" as ImportedTransaction["quantity"];
const num = (s: string) => parseDecimal(s, ".");

type Kind = "TRADE" | "DIVIDEND" | "INTEREST" | "FEE" | "TRANSFER" | "TAX";
const RULES: [RegExp, Kind][] = [
  [/^(buy|sell|portfolio transaction)$/, "TRADE"],
  [/dividend|distribution/, "DIVIDEND"],
  [/interest/, "INTEREST"],
  [/fee/, "FEE"],
  [/tax/, "TAX"],
  [/deposit|withdraw|transfer|payout|contribution|payment/, "TRANSFER"],
];

/** Reads the export; see the format notes at the top of this file. */
export function parseFinpension(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: NonNullable<ImportResult["skippedRows"]>[number][] = [];
  const skip = (row: number, reason: string, severity: "info" | "warning") => {
    skippedRows.push({ line: row, reason });
    warnings.push({ code: severity === "warning" ? "unsupportedType" : "rowSkipped", message: reason, row, severity });
  };
  FORMAT.walk(table, ({ get, row }) => {
    const category = get("Category");
    const date = parseDate(get("Date"), "YMD");
    // What the line was, for a skipped line's reason: its category, asset, date and cash flow.
    const what = lineWas(category, get("Asset Name") || get("ISIN"), get("Date"), get("Cash Flow") && `${get("Cash Flow")} CHF`);
    const left = (why: string, todo: string, severity: "info" | "warning" = "warning") => skip(row, notImported(row, what, why, todo), severity);
    if (!date) return skip(row, unreadableLine(row, "Date", get("Date"), "a date (YYYY-MM-DD)", what), "warning");
    const flow = num(get("Cash Flow"));
    if (flow === null && get("Cash Flow") !== "") return skip(row, unreadableLine(row, "Cash Flow", get("Cash Flow"), "an amount", what), "warning");
    if (flow === null || flow.isZero()) return left("has no cash flow", "nothing to enter: it moves no cash", "info");
    const rule = RULES.find(([re]) => re.test(category.toLowerCase()));
    if (!rule) return skip(row, unknownType(row, what, "cash"), "warning");
    const isin = get("ISIN").toUpperCase();
    const name = get("Asset Name");
    const assetType = isin ? assetTypeOfName(name) : undefined;
    const asset = { ...(isin ? { isin } : {}), ...(isin && name ? { assetName: name } : {}), ...(assetType ? { assetType } : {}) };
    const base = { row, date, description: [category, name].filter(Boolean).join(": ") };
    const cash = (v: Decimal) => ({ amount: v.toFixed(), currency: "CHF" }) as ImportedTransaction["cash"];
    const positive = flow.gt(0);
    switch (rule[1]) {
      case "TRADE": {
        const shares = num(get("Number of Shares"));
        if (!shares || shares.isZero()) return left("is a trade without a number of shares", `enter it by hand as a ${positive ? "SELL" : "BUY"} with the shares from finpension's statement`);
        // The cash decides: money out is a purchase (Portfolio Transaction has no other sign).
        const buy = !positive;
        if (category.toLowerCase() !== "portfolio transaction" && buy !== (category.toLowerCase() === "buy")) {
          return left("has a cash flow of the wrong sign for its category", "check it with finpension and enter it by hand as what it was");
        }
        return transactions.push({ ...base, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? shares.abs() : shares.abs().neg()).toFixed() as never, cash: cash(flow) });
      }
      case "DIVIDEND":
        return transactions.push({ ...base, type: positive ? "DIVIDEND" : "FEE", ...asset, quantity: ZERO, cash: cash(flow) });
      case "INTEREST":
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: cash(flow) });
      case "FEE":
        // A positive fee line is a refund of the flat-rate fee.
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: cash(flow) });
      case "TAX":
        return transactions.push({ ...base, type: positive ? "INTEREST" : "TAX", quantity: ZERO, cash: cash(flow) });
      case "TRANSFER":
        return transactions.push({ ...base, type: positive ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash: cash(flow) });
    }
  });
  return { detectedFormat: "finpension/transactions", skippedRows, transactions, warnings };
}
