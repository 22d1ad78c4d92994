import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { builtinPlugins } from "../../plugins/index.ts";
import type { ImportPlugin, ImportResult, Plugin } from "../../sdk/index.ts";
import { decodeText, describeFile, describeWorkbook, readCsv, readWorkbook, type Sheet } from "../../sdk/import/index.ts";

// Every sample of test/fixtures/brim/*/ goes through its plugin, and every data row of the file is
// accounted for: it gave a transaction (its `row`), or it is listed in `skippedRows` with a reason,
// never both. A plugin that drops a row without saying so fails here.
//
// Data rows, per format:
//  - a CSV: every non-blank line below its header line (a line of separators only is blank), the
//    text decoded with its sniffed encoding (UTF-16 exports included);
//  - a workbook: the non-blank rows below each table's header row in the sheet read (rows numbered
//    as in the sheet);
//  - IBKR's sectioned CSVs: the `DATA` rows of a Flex CSV with section codes, the Data, SubTotal and
//    Total rows of an Activity Statement, every line but the header lines of a plain Flex CSV;
//  - XML (IBKR Flex): records have no line; not counted here.
// A sample not listed in SAMPLES (a plugin added later) is read by the plugin of its folder, and its
// data rows start below the line above its first accounted line.

const FIXTURES = join(import.meta.dir, "..", "fixtures", "brim");

type Count = (bytes: Uint8Array) => Promise<number[]>;

const blank = (line: string) => line.replace(/[,;\s"]/g, "") === "";

/** The non-blank lines below line `header` (1-based), up to line `until` when given. */
const below = (header: number, until = Infinity): Count => async (bytes) =>
  decodeText(bytes).text.split(/\r?\n/)
    .map((l, i) => ({ l, n: i + 1 })).filter(({ l, n }) => n > header && n <= until && !blank(l)).map(({ n }) => n);

/** The non-blank rows below each header row of sheet `name` (a table ends at the next header, or a blank row after data). */
const sheetTables = (name: string | RegExp, headers: number[]): Count => async (bytes) => {
  const sheets: Sheet[] = await readWorkbook(bytes);
  const sheet = sheets.find((s) => (typeof name === "string" ? s.name === name : name.test(s.name)));
  if (!sheet) throw new Error(`no sheet ${name}`);
  const out: number[] = [];
  for (const [k, header] of headers.entries()) {
    const end = headers[k + 1] ?? sheet.rows.length + 1;
    for (let n = header + 1; n < end; n++) {
      const filled = (sheet.rows[n - 1] ?? []).some((c) => (c ?? "").trim() !== "");
      if (filled) out.push(n);
      else if (out.length > 0 && out.at(-1)! > header) break;
    }
  }
  return out;
};

/** IBKR: the lines whose kind is one of `kinds` (second cell for an Activity Statement, first for a coded Flex CSV). */
const ibkrRows = (cell: 0 | 1, kinds: string[]): Count => async (bytes) =>
  readCsv(bytes, { separator: "," }).rows.map((r, i) => ({ r, n: i + 1 })).filter(({ r }) => kinds.includes(r[cell] ?? "")).map(({ n }) => n);

/** A plain Flex CSV: every non-blank line but its header lines (a header names fields and holds no digit). */
const flexPlain: Count = async (bytes) =>
  new TextDecoder().decode(bytes).split(/\r?\n/).map((l, i) => ({ l, n: i + 1 })).filter(({ l }) => !blank(l) && /\d/.test(l)).map(({ n }) => n);

/** [folder, file, plugin code, data rows, parse options]. */
const SAMPLES: [string, string, string, Count | null, Record<string, unknown>?][] = [
  ["bitvavo", "transactions.csv", "broker_bitvavo", below(1)],
  ["coinbase", "transaction-history.csv", "broker_coinbase", below(4)],
  ["degiro", "Account.csv", "broker_degiro", below(1)],
  ["degiro", "Account-de.csv", "broker_degiro", below(1)],
  ["degiro", "Account-en-gbp.csv", "broker_degiro", below(1)],
  ["degiro", "Account-es.csv", "broker_degiro", below(1)],
  ["degiro", "Account-fr.csv", "broker_degiro", below(1)],
  ["degiro", "Account-it.csv", "broker_degiro", below(1)],
  ["degiro", "Account-nl.csv", "broker_degiro", below(1)],
  ["degiro", "Account-pt.csv", "broker_degiro", below(1)],
  ["degiro", "Transactions.csv", "broker_degiro", below(1)],
  ["degiro", "Transactions-nl.csv", "broker_degiro", below(1)],
  ["directa", "movimenti.csv", "broker_directa", below(4)],
  ["directa", "movimenti-2024.csv", "broker_directa", below(10)],
  ["etoro", "account-activity.csv", "broker_etoro", below(1)],
  ["etoro", "account-statement.xlsx", "broker_etoro", sheetTables("Account Activity", [1])],
  ["etoro", "account-statement-2024.xlsx", "broker_etoro", sheetTables("Account Activity", [1])],
  ["fidelity", "history.csv", "broker_fidelity", below(2)],
  ["fidelity", "history-2023.csv", "broker_fidelity", below(6)],
  ["fineco", "movimenti-titoli.csv", "broker_fineco", below(6)],
  ["fineco", "movimenti-dossier-titoli.csv", "broker_fineco", below(4)],
  ["fineco", "movimenti-titoli.xlsx", "broker_fineco", sheetTables(/./, [6])],
  ["freetrade", "activity.csv", "broker_freetrade", below(1)],
  ["freetrade", "activity-2024.csv", "broker_freetrade", below(1)],
  ["generic", "generic-en.csv", "broker_generic_csv", below(1)],
  ["generic", "generic-it.csv", "broker_generic_csv", below(1)],
  ["generic", "generic-unit-price.csv", "broker_generic_csv", below(1)],
  ["ibkr", "activity-statement.csv", "broker_ibkr", ibkrRows(1, ["Data", "SubTotal", "Total"])],
  ["ibkr", "flex.csv", "broker_ibkr", flexPlain],
  ["ibkr", "flex-plain.csv", "broker_ibkr", flexPlain],
  ["ibkr", "flex-sections.csv", "broker_ibkr", ibkrRows(0, ["DATA"])],
  ["ibkr", "flex.xml", "broker_ibkr", null],
  ["interactive-investor", "transactions.csv", "broker_interactive_investor", below(1)],
  ["lightyear", "transactions.csv", "broker_lightyear", below(1)],
  ["revolut", "trading-account-statement.csv", "broker_revolut", below(1)],
  ["revolut", "trading-account-statement-eur.csv", "broker_revolut", below(1)],
  ["saxo", "transactions.csv", "broker_saxo", below(1)],
  ["saxo", "transactions-nl.csv", "broker_saxo", below(1)],
  ["saxo", "transactions.xlsx", "broker_saxo", sheetTables("Transactions", [1])],
  ["scalable", "transactions.csv", "broker_scalable", below(1)],
  ["schwab", "transactions.csv", "broker_schwab", below(1)],
  ["schwab", "transactions-income.csv", "broker_schwab", below(1)],
  ["traderepublic", "transactions.csv", "broker_traderepublic", below(1)],
  ["traderepublic", "transactions-app.csv", "broker_traderepublic", below(1)],
  ["trading212", "history.csv", "broker_trading212", below(1)],
  ["vanguard-uk", "transactions.xlsx", "broker_vanguard_uk", sheetTables("ISA", [5, 23])],
  ["xtb", "account-statement.xlsx", "broker_xtb", sheetTables("CASH OPERATION HISTORY", [4])],
  ["xtb", "xstation-export.xlsx", "broker_xtb", sheetTables("CASH OPERATION HISTORY", [11])],
  ["xtb", "cash-operations.csv", "broker_xtb", below(1), { currency: "EUR" }],
  ["xtb", "cash-operations-2025.csv", "broker_xtb", below(5), { currency: "PLN" }],
];

/** Files that are refused whole (another report of the broker): no rows to account for. */
const REFUSED = new Set(["xtb/closed-positions.csv"]);

const importers = new Map(builtinPlugins.filter((p) => p.manifest.kind === "import-plugin").map((p) => [p.manifest.id, p as Plugin]));
const isWorkbook = (name: string) => /\.xlsx?$/i.test(name);

async function run(folder: string, name: string, code: string, options?: Record<string, unknown>): Promise<{ bytes: Uint8Array; result: ImportResult }> {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, folder, name)));
  const file = isWorkbook(name) ? await describeWorkbook(bytes, name) : describeFile(bytes, name);
  const plugin = (await importers.get(code)!.create({} as never)) as ImportPlugin;
  return { bytes, result: await plugin.parse({ bytes, file, ...(options ? { options } : {}) }) };
}

function expectAccounted(result: ImportResult, data: number[]): void {
  const imported = new Set(result.transactions.map((t) => t.row));
  const skipped = result.skippedRows ?? [];
  expect(skipped.filter((s) => s.reason.trim() === "")).toEqual([]);
  expect(skipped.filter((s) => imported.has(s.line)).map((s) => s.line)).toEqual([]);
  const accounted = [...new Set([...imported, ...skipped.map((s) => s.line)])].filter((n): n is number => n !== undefined).sort((a, b) => a - b);
  expect(accounted).toEqual(data);
}

describe("imported rows and skipped rows make up every data row of every sample", () => {
  // Each case passes the same number of arguments (an optional last one would read as a done callback).
  test.each(SAMPLES.filter(([, , , count]) => count !== null).map((s) => [s[0], s[1], s] as const))("%s/%s", async (_folder, _name, [folder, name, code, count, options]) => {
    const { bytes, result } = await run(folder, name, code, options);
    expectAccounted(result, await count!(bytes));
  });

  test("every sample file is either listed above or accounted for from its first accounted line", async () => {
    const listed = new Set(SAMPLES.map(([f, n]) => `${f}/${n}`));
    for (const folder of readdirSync(FIXTURES)) {
      for (const name of readdirSync(join(FIXTURES, folder))) {
        const key = `${folder}/${name}`;
        if (listed.has(key) || REFUSED.has(key) || !/\.(csv|xlsx?|txt)$/i.test(name)) continue;
        const code = `broker_${folder.replace(/-/g, "_")}`;
        if (!importers.has(code)) continue;
        const { bytes, result } = await run(folder, name, code);
        const lines = [...result.transactions.map((t) => t.row ?? 0), ...(result.skippedRows ?? []).map((s) => s.line)].filter((n) => n > 0);
        if (isWorkbook(name)) continue; // a workbook's tables are known to its own test only
        const data = await below(Math.min(...lines) - 1)(bytes);
        const accounted = [...new Set(lines)].sort((a, b) => a - b);
        expect({ file: key, accounted }).toEqual({ file: key, accounted: data });
        expectAccounted(result, data);
      }
    }
  });
});
