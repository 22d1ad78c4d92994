/**
 * The import wizard's row fixes (docs/import.md, "The parse"): the fields of a parsed row the
 * user may correct before commit, which of the parse's field todos and validation issues each
 * correction answers, and the edit the commit route applies on the server. Amounts stay decimal strings.
 */
import type { Body, Result } from "../api/client.ts";
import { isDecimal, readDecimal, signOf, toInputText } from "./decimal.ts";
import { t } from "./i18n.ts";

type Parsed = Result<"post", "/brokers/import/files/{file_id}/parse">;
export type ImportRow = Parsed["transactions"][number];
export type FieldTodo = Parsed["field_todos"][number];
export type ValidationIssue = Parsed["validation_issues"][number];
type CommitPath = "/brokers/import/files/{file_id}/commit";
export type CommitEdit = Body<"post", CommitPath>["edits"][number];
/** A problem the commit route found (its dry run): of a row, of an asset to create, or of a broker. */
export type CommitIssue = Result<"post", CommitPath>["issues"][number];

/** The editable fields of a row, as the form holds them (strings; "" is empty). */
export interface RowForm {
  date: string;
  asset_id: string;
  quantity: string;
  cash_amount: string;
  cash_currency: string;
  cost_basis: string;
  description: string;
}
export type RowField = keyof RowForm;

/** The row as the form shows it, numbers with the decimal mark of `locale`. */
export function toForm(row: ImportRow, locale = "en"): RowForm {
  return {
    date: row.date, asset_id: row.asset_id !== undefined ? String(row.asset_id) : "", quantity: toInputText(row.quantity, locale),
    cash_amount: toInputText(row.cash?.amount, locale), cash_currency: row.cash?.code ?? "",
    cost_basis: toInputText(row.cost_basis_override?.amount, locale), description: row.description ?? "",
  };
}

const NUMBER_FIELDS = ["quantity", "cash_amount", "cost_basis"] as const;

/** The form's numbers as the API writes them ("1,5" → "1.5" in Italian), and the ones that could be read two ways. */
function readNumbers(f: RowForm, locale: string): { form: RowForm; ambiguous: Partial<Record<RowField, string>> } {
  const form = { ...f };
  const ambiguous: Partial<Record<RowField, string>> = {};
  for (const k of NUMBER_FIELDS) {
    const r = readDecimal(f[k], locale);
    if (r.ok) form[k] = r.value;
    else if (r.reason === "ambiguous") ambiguous[k] = r.message;
  }
  return { form, ambiguous };
}

/** Checks the form (numbers read in `locale`); an empty object means it can be applied. */
export function checkRowForm(typed: RowForm, locale = "en"): Partial<Record<RowField, string>> {
  const { form: f, ambiguous } = readNumbers(typed, locale);
  const e: Partial<Record<RowField, string>> = {};
  if (!/^\d{4}-\d{2}-\d{2}$/.test(f.date)) e.date = t("Enter a date.");
  if (!isDecimal(f.quantity)) e.quantity = t("Enter a number (0 when no units move).");
  if (f.cash_amount !== "" && !isDecimal(f.cash_amount)) e.cash_amount = t("Enter an amount such as -100.50, or leave it empty.");
  if (f.cash_amount !== "" && !/^[A-Za-z]{3}$/.test(f.cash_currency)) e.cash_currency = t("Enter a three-letter currency code.");
  if (f.cost_basis !== "" && !(isDecimal(f.cost_basis) && signOf(f.cost_basis) >= 0)) e.cost_basis = t("Enter the cost per unit (0 or more).");
  return { ...e, ...ambiguous };
}

/**
 * The row with the form's values. The cost basis is per unit, in the cash currency, else in the
 * currency the row's cost basis already had, else in `fallbackCurrency` (the asset's). Numbers are read in `locale`.
 */
export function applyForm(row: ImportRow, typed: RowForm, fallbackCurrency: string, locale = "en"): ImportRow {
  const f = readNumbers(typed, locale).form;
  const { asset_id: _a, cash: _c, cost_basis_override: _b, description: _d, ...rest } = row;
  const code = f.cash_currency.trim().toUpperCase();
  const basisCode = code || row.cost_basis_override?.code || fallbackCurrency;
  return {
    ...rest,
    date: f.date,
    quantity: f.quantity.trim(),
    ...(f.asset_id ? { asset_id: Number(f.asset_id) } : {}),
    ...(f.cash_amount.trim() !== "" ? { cash: { code, amount: f.cash_amount.trim() } } : {}),
    ...(f.cost_basis.trim() !== "" ? { cost_basis_override: { code: basisCode, amount: f.cost_basis.trim() } } : {}),
    ...(f.description.trim() ? { description: f.description.trim() } : {}),
  };
}

/** The form field an API field name concerns (validation issues say "cash.amount", todos "cost_basis_override"). */
export function formFieldOf(field: string | undefined): RowField | null {
  switch (field) {
    case "asset_id": return "asset_id";
    case "quantity": return "quantity";
    case "cash": case "cash.amount": case "cash_amount": return "cash_amount";
    case "cash.code": case "cash_currency": return "cash_currency";
    case "cost_basis_override": return "cost_basis";
    case "date": return "date";
    default: return null;
  }
}

export interface Problem { field: RowField | null; message: string; blocker: boolean }

function changed(before: ImportRow, after: ImportRow, field: RowField | null): boolean {
  const a = toForm(before), b = toForm(after);
  if (field === null) return (Object.keys(a) as RowField[]).some((k) => a[k] !== b[k]);
  if (field === "cash_amount") return a.cash_amount !== b.cash_amount && b.cash_amount !== "";
  if (field === "asset_id" || field === "cost_basis") return a[field] !== b[field] && b[field] !== "";
  return a[field] !== b[field];
}

/**
 * What still needs the user's attention on row `index`: its field todos (except an unmapped
 * asset, which the asset mapping answers) and its validation issues, less those whose field the
 * user has changed. Validation issues block the commit (the batch is all or nothing), as do
 * blocker todos.
 */
export function openProblems(index: number, original: ImportRow, current: ImportRow, todos: readonly FieldTodo[], issues: readonly ValidationIssue[]): Problem[] {
  const out: Problem[] = [];
  for (const todo of todos) {
    if (todo.tx_index !== index || todo.reason_code === "assetUnmapped") continue;
    const field = formFieldOf(todo.field);
    if (!changed(original, current, field)) out.push({ field, message: todo.message, blocker: todo.severity === "blocker" });
  }
  for (const issue of issues) {
    if (issue.row !== index) continue;
    const field = formFieldOf(issue.field);
    if (!changed(original, current, field)) out.push({ field, message: issue.message, blocker: true });
  }
  return out;
}

/**
 * The edit the commit route applies to parsed row `row` to make it `current`: the fields the row
 * editor changes, each given (a cleared one as null), so the server's row is the one shown.
 */
export function toEdit(row: number, current: ImportRow): CommitEdit {
  return {
    row,
    date: current.date,
    quantity: current.quantity,
    asset_id: current.asset_id ?? null,
    cash: current.cash ?? null,
    cost_basis_override: current.cost_basis_override ?? null,
    description: current.description ?? null,
  };
}

/** The commit route's issues about row `index`, as problems on the form's fields. */
export function commitProblems(index: number, issues: readonly CommitIssue[]): Problem[] {
  return issues.filter((i) => i.row === index).map((i) => ({ field: formFieldOf(i.field ?? undefined), message: i.message, blocker: true }));
}
