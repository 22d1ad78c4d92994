import { beforeAll, expect, test } from "bun:test";
import { type ApiClient } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { createBroker, parsed, sample, uploaded, withAssets } from "./helpers.ts";

// The account statements of comdirect, ING and Consorsbank through the API: the host reads each PDF's text in
// the worker pool, the bank's own importer claims it, and the parse gives the statement's cash bookings with the
// trades listed as skipped rows naming their contract notes; uploaded beside a contract note, nothing is booked twice.
const api = useApi({ users: ["pia"] });
let pia: ApiClient;
let broker: number;
beforeAll(async () => {
  pia = api.as.pia!;
  broker = await createBroker(pia, "statement broker");
});

const rowsOf = (result: any) => result.transactions.map((t: any) => [t.date, t.type, t.cash.amount]);

for (const [dir, name, plugin, format, rows, skipped] of [
  ["comdirect-pdf", "finanzreport.pdf", "broker_comdirect_pdf", "comdirect/pdf/statement", [
    ["2025-03-04", "DEPOSIT", "1500"], ["2025-03-11", "TAX", "-12.34"], ["2025-03-14", "WITHDRAWAL", "-45"],
    ["2025-03-20", "FEE", "-1.93"], ["2025-03-28", "WITHDRAWAL", "-600"], ["2025-03-31", "INTEREST", "3.12"],
  ], [/^Line 44: a booking on a security \(Wertpapiere: BEISPIEL INDUSTRIE AG/, /^Line 56: a booking on a security/, /^Line 73: the Tagesgeld PLUS-Konto/]],
  ["ing-pdf", "kontoauszug.pdf", "broker_ing_pdf", "ing/pdf/statement", [
    ["2025-02-03", "DEPOSIT", "2500"], ["2025-02-05", "WITHDRAWAL", "-62"], ["2025-02-14", "WITHDRAWAL", "-4.8"], ["2025-02-17", "WITHDRAWAL", "-250"],
    ["2025-02-20", "WITHDRAWAL", "-150"], ["2025-02-21", "DEPOSIT", "120.96"], ["2025-02-24", "FEE", "-0.99"],
  ], [/^Line 21: a trade \(Wertpapierkauf: .*DE000ING0019.*\) is imported from its contract note \(Wertpapierabrechnung\)/]],
  ["consorsbank-pdf", "kontoauszug.pdf", "broker_consorsbank_pdf", "consorsbank/pdf/statement", [
    ["2025-03-03", "DEPOSIT", "2500"], ["2025-03-05", "WITHDRAWAL", "-39.9"], ["2025-03-25", "WITHDRAWAL", "-400"],
  ], [/^Line 26: a trade \(EFFEKTEN: .*Kauf WKN: CSB001/, /^Line 43: a trade \(EFFEKTEN: .*Verkauf WKN: CSB009/]],
] as const) {
  test(`a ${dir} account statement is claimed by ${plugin} and parsed into its cash bookings, the trades skipped naming their contract notes`, async () => {
    const file = await uploaded(pia, broker, name, sample(dir, name));
    expect(file.compatible_plugins[0]).toBe(plugin);
    const result = await parsed(pia, file.file_id, broker);
    expect(result.plugin_code).toBe(plugin);
    expect(result.detected_format).toBe(format);
    expect(rowsOf(result)).toEqual(rows.map((r) => [...r]));
    expect(result.skipped_rows.map((s: any) => s.reason)).toEqual(skipped.map((re) => expect.stringMatching(re)));
  });
}

test("a comdirect Finanzreport uploaded with the contract note of a trade it lists commits without double counting: the trade once (from the note), the statement's cash bookings once", async () => {
  const own = await createBroker(pia, "comdirect statement and note");
  const form = new FormData();
  form.append("file", new File([sample("comdirect-pdf", "finanzreport.pdf")], "finanzreport.pdf", { type: "application/pdf" }));
  form.append("file", new File([sample("comdirect-pdf", "kauf.pdf")], "kauf.pdf", { type: "application/pdf" }));
  const res = await pia.request("POST", `/brokers/import/upload?broker_id=${own}`, form);
  expect(res.status).toBe(201);
  const file = await res.json();
  const first = await parsed(pia, file.file_id, own);
  expect(rowsOf(first)).toEqual([
    ["2025-03-04", "DEPOSIT", "1500"], ["2025-03-11", "TAX", "-12.34"], ["2025-03-14", "WITHDRAWAL", "-45"],
    ["2025-03-17", "BUY", "-2094"], ["2025-03-17", "FEE", "-11.4"],
    ["2025-03-20", "FEE", "-1.93"], ["2025-03-28", "WITHDRAWAL", "-600"], ["2025-03-31", "INTEREST", "3.12"],
  ]);
  expect(first.skipped_rows.map((s: any) => s.reason)).toEqual([
    expect.stringMatching(/^finanzreport\.pdf: Line 44: a booking on a security \(Wertpapiere: BEISPIEL INDUSTRIE AG .*DE000CDX0011/),
    expect.stringMatching(/^finanzreport\.pdf: Line 56: a booking on a security/),
    expect.stringMatching(/^finanzreport\.pdf: Line 73: the Tagesgeld PLUS-Konto/),
  ]);
  const { creates } = await withAssets(pia, file.file_id, own, first);
  // The account's opening balance (Alter Saldo) comes from before the statement: entered by hand.
  const deposit = creates.find((t: any) => t.type === "DEPOSIT");
  const opening = { ...deposit, date: "2025-03-03", cash: { ...deposit.cash, amount: "2150" }, description: "Alter Saldo" };
  const commit = await (await pia.post("/transactions/commit", { creates: [opening, ...creates] })).json();
  expect(commit.issues).toEqual([]);
  expect(commit.committed).toBe(true);
  const summary = await (await pia.get(`/brokers/${own}/summary`)).json();
  // 2,150.00 opening, 843.85 of cash bookings on the statement and the 2,105.40 purchase from its note, each once:
  // the statement's Neuer Saldo 1,863.95 less the 975.50 sale whose contract note was not uploaded.
  expect(summary.cash_balances).toEqual([{ code: "EUR", amount: "888.45" }]);
  expect(summary.holdings.map((h: any) => h.quantity)).toEqual(["40"]);
});
