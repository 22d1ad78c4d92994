import { expect, test } from "bun:test";
import {
  applyForm, checkRowForm, commitProblems, type FieldTodo, type ImportRow, openProblems, toEdit, toForm, type ValidationIssue,
} from "../../web/src/lib/import-rows.ts";

const buy: ImportRow = { broker_id: 1, type: "BUY", date: "2024-01-03", quantity: "4", cash: { code: "EUR", amount: "-100.00" }, description: "Unnamed purchase" };
const transferIn: ImportRow = { broker_id: 1, type: "TRANSFER", date: "2024-01-05", quantity: "3", asset_id: 2147473647, link_uuid: "u1" };
const todo = (tx_index: number, field: string, reason_code: string): FieldTodo =>
  ({ tx_index, field, severity: "blocker", reason_code, message: `${reason_code} message`, evidence: [] });
const issue = (row: number, code: string, field?: string): ValidationIssue => ({ row, code, message: `${code} message`, ...(field ? { field } : {}) });

test("a row goes into the form and back unchanged; edited fields replace the row's", () => {
  expect(applyForm(buy, toForm(buy), "USD")).toEqual(buy);
  const edited = applyForm(buy, { ...toForm(buy), asset_id: "17", cash_amount: "-99.5", cash_currency: "usd", description: " " }, "CHF");
  expect(edited).toEqual({ broker_id: 1, type: "BUY", date: "2024-01-03", quantity: "4", asset_id: 17, cash: { code: "USD", amount: "-99.5" } });
  // The cost basis is per unit in the cash currency, else the asset's.
  expect(applyForm(transferIn, { ...toForm(transferIn), cost_basis: "12.30" }, "CHF").cost_basis_override).toEqual({ code: "CHF", amount: "12.30" });
  expect(applyForm(buy, { ...toForm(buy), cost_basis: "1" }, "CHF").cost_basis_override).toEqual({ code: "EUR", amount: "1" });
  // Clearing the amount removes the cash; link and broker stay.
  const noCash = applyForm(transferIn, { ...toForm(transferIn), cash_amount: "" }, "EUR");
  expect(noCash.cash).toBeUndefined();
  expect(noCash.link_uuid).toBe("u1");
});

test("form checks name the field", () => {
  expect(checkRowForm(toForm(buy))).toEqual({});
  expect(Object.keys(checkRowForm({ ...toForm(buy), date: "3/1/2024", quantity: "four", cash_amount: "1e3", cost_basis: "-1" })).sort())
    .toEqual(["cash_amount", "cost_basis", "date", "quantity"]);
  expect(Object.keys(checkRowForm({ ...toForm(buy), cash_currency: "EU" }))).toEqual(["cash_currency"]);
});

test("todos and validation issues stay open until the user changes the field they concern", () => {
  const todos = [todo(0, "asset_id", "assetMissing"), todo(1, "cost_basis_override", "costBasisMissing"), todo(1, "asset_id", "assetUnmapped")];
  const issues = [issue(0, "cashSignNegative", "cash.amount"), issue(2, "linkRequired")];
  const open0 = openProblems(0, buy, buy, todos, issues);
  expect(open0.map((p) => [p.field, p.blocker])).toEqual([["asset_id", true], ["cash_amount", true]]);
  // The unmapped asset is answered by the mapping step, not here.
  expect(openProblems(1, transferIn, transferIn, todos, issues).map((p) => p.field)).toEqual(["cost_basis"]);

  const withAsset = applyForm(buy, { ...toForm(buy), asset_id: "5" }, "EUR");
  expect(openProblems(0, buy, withAsset, todos, issues).map((p) => p.field)).toEqual(["cash_amount"]);
  const fixed = applyForm(buy, { ...toForm(buy), asset_id: "5", cash_amount: "-100.01" }, "EUR");
  expect(openProblems(0, buy, fixed, todos, issues)).toEqual([]);
  expect(openProblems(1, transferIn, applyForm(transferIn, { ...toForm(transferIn), cost_basis: "10" }, "EUR"), todos, issues)).toEqual([]);
  // Clearing the amount does not answer an issue about the amount.
  expect(openProblems(0, buy, applyForm(buy, { ...toForm(buy), asset_id: "5", cash_amount: "" }, "EUR"), todos, issues).map((p) => p.field)).toEqual(["cash_amount"]);
  // An issue that names no field is answered by any change to the row.
  const row2: ImportRow = { ...buy, type: "FX_CONVERSION" };
  expect(openProblems(2, row2, row2, todos, issues).map((p) => [p.field, p.message])).toEqual([[null, "linkRequired message"]]);
  expect(openProblems(2, row2, { ...row2, date: "2024-01-04" }, todos, issues)).toEqual([]);
});

test("a corrected row goes to the commit route as an edit of every field the editor changes, cleared ones as null", () => {
  const fixed = applyForm(buy, { ...toForm(buy), asset_id: "17", cash_amount: "-99.5", description: "" }, "EUR");
  expect(toEdit(1, fixed)).toEqual({
    row: 1, date: "2024-01-03", quantity: "4", asset_id: 17, cash: { code: "EUR", amount: "-99.5" }, cost_basis_override: null, description: null,
  });
  expect(toEdit(0, applyForm(transferIn, { ...toForm(transferIn), cost_basis: "2" }, "CHF"))).toMatchObject({
    asset_id: 2147473647, cash: null, cost_basis_override: { code: "CHF", amount: "2" },
  });
});

test("the commit route's issues of a row land on the form's fields", () => {
  const issues = [
    { row: 2, fake_asset_id: null, code: "assetRequired", message: "BUY needs asset_id", field: "asset_id", params: null },
    { row: 2, fake_asset_id: null, code: "pairLegLeftOut", message: "the other leg", field: "link_uuid", params: { other_row: 3 } },
    { row: null, fake_asset_id: null, code: "balanceCashNegative", message: "below zero", field: "cash", params: null },
  ];
  expect(commitProblems(2, issues)).toEqual([
    { field: "asset_id", message: "BUY needs asset_id", blocker: true },
    { field: null, message: "the other leg", blocker: true },
  ]);
  expect(commitProblems(0, issues)).toEqual([]);
});

test("row corrections are typed in the user's locale", () => {
  const form = { date: "2024-01-02", asset_id: "", quantity: "1,5", cash_amount: "-1.234,56", cash_currency: "EUR", cost_basis: "", description: "" };
  expect(checkRowForm(form, "de")).toEqual({});
  expect(checkRowForm({ ...form, quantity: "1.234" }, "de").quantity).toContain("1234");
  const base = { date: "2024-01-02", type: "BUY", quantity: "0" } as unknown as Parameters<typeof applyForm>[0];
  const row = applyForm(base, form, "EUR", "de");
  expect([row.quantity, row.cash]).toEqual(["1.5", { code: "EUR", amount: "-1234.56" }]);
  expect(toForm(row, "de")).toMatchObject({ quantity: "1,5", cash_amount: "-1234,56" });
});
