import { type ImportFileMeta, type ImportParseParams, type ImportResult, PluginError } from "../../sdk/index.ts";
import { readCsv } from "../../sdk/import/index.ts";
import { accountLayout, assertAccountLayout, parseAccount } from "./account.ts";
import { assertTransactionsLayout, parseTransactions, transactionsLayout } from "./transactions.ts";

// DEGIRO exports two CSVs (comma separated, UTF-8, newest line first, dates DD-MM-YYYY), in the
// language of the user's account (EN, NL, DE, FR, IT, ES, PT): the account statement (Account.csv,
// every cash movement; account.ts) and the transactions export (Transactions.csv, every executed
// fill; transactions.ts). Each is recognised from its header row, whatever its language, and the
// variant read is named in the result (`degiro/account-statement/nl`, `degiro/transactions/de`).

type Found =
  | { at: number; kind: "account"; layout: NonNullable<ReturnType<typeof accountLayout>> }
  | { at: number; kind: "transactions"; layout: NonNullable<ReturnType<typeof transactionsLayout>> };

function find(rows: readonly (readonly string[])[]): Found | null {
  for (let at = 0; at < Math.min(rows.length, 3); at++) {
    const account = accountLayout(rows[at]!);
    if (account) return { at, kind: "account", layout: account };
    const transactions = transactionsLayout(rows[at]!);
    if (transactions) return { at, kind: "transactions", layout: transactions };
  }
  return null;
}

/** 0.95 for either DEGIRO export's header row (any of its languages), else 0. */
export function acceptsDegiro(file: ImportFileMeta): number {
  if ((file.format !== undefined && file.format !== "text") || file.head === "") return 0;
  return find(readCsv(file.head.split(/\r?\n/, 3).join("\n"), { separator: "," }).rows) ? 0.95 : 0;
}

/** Reads either DEGIRO export; see the format notes in account.ts and transactions.ts. */
export function parseDegiro(params: ImportParseParams): ImportResult {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const table = readCsv(params.bytes, { separator: "," });
  const found = find(table.rows);
  if (!found) throw new PluginError("invalid-input", "This is not a DEGIRO Account.csv or Transactions.csv (header row not recognised)");
  const header = table.rows[found.at]!;
  if (found.kind === "account") {
    assertAccountLayout(found.layout, header);
    return parseAccount(table, found.at, found.layout);
  }
  assertTransactionsLayout(found.layout, header);
  return parseTransactions(table, found.at, found.layout);
}
