import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { createBroker, parsed, sample, uploaded, withAssets } from "./helpers.ts";

// Several PDFs in one upload (several `file` parts) are stored as one import file and parse into
// one preview as a ZIP of them does; anything but PDFs together, or too many files, is refused.
const api = useApi({ users: ["pia", "vic"] });
let pia: ApiClient;
let broker: number;
beforeAll(async () => {
  pia = api.as.pia!;
  broker = await createBroker(pia, "pdf batch broker");
});

const bad = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, "..", "..", "fixtures", "pdf", "bad", name)));

function uploadMany(files: { name: string; data: Uint8Array<ArrayBuffer> | string }[]): Promise<Response> {
  const form = new FormData();
  for (const f of files) form.append("file", new File([f.data], f.name, { type: "application/pdf" }));
  return pia.request("POST", `/brokers/import/upload?broker_id=${broker}`, form);
}

describe("several PDFs in one upload", () => {
  test("are stored as one file and parse into one preview: a row per document event named by its document, two of the same name both kept", async () => {
    const res = await uploadMany([
      { name: "dividende.pdf", data: sample("traderepublic-pdf", "dividende-de.pdf") },
      { name: "kauf.pdf", data: sample("traderepublic-pdf", "kauf-de.pdf") },
      { name: "kauf.pdf", data: sample("traderepublic-pdf", "kauf-de.pdf") },
      { name: "scan.pdf", data: bad("image-only.pdf") },
    ]);
    expect(res.status).toBe(201);
    const file = await res.json();
    expect(file.filename).toBe("dividende and 3 more.zip");
    expect(file.compatible_plugins[0]).toBe("broker_traderepublic_pdf");
    const result = await parsed(pia, file.file_id, broker);
    expect(result.detected_format).toBe("pdf-documents/4");
    expect(result.transactions.map((t: any) => [t.date, t.type, t.cash.amount, t.description])).toEqual([
      ["2025-03-12", "BUY", "-542.4", "Trade Republic kauf (2).pdf: buy 12 at 45.2 EUR"],
      ["2025-03-12", "FEE", "-1", "Trade Republic kauf (2).pdf"],
      ["2025-05-15", "DIVIDEND", "20", "Trade Republic dividende.pdf: dividend on 40; 22 USD at 1.1 USD/EUR"],
      ["2025-05-15", "TAX", "-4.79", "Trade Republic dividende.pdf: taxes withheld"],
    ]);
    expect(result.skipped_rows).toEqual([
      { line: 3, reason: "kauf.pdf is the same document as kauf (2).pdf; left out" },
      { line: 4, reason: expect.stringContaining("scan.pdf: the PDF holds no text") },
    ]);
  });

  test("an account statement uploaded with the contract note of a trade it lists commits without double counting: the trade once (from the note), the statement's cash rows once", async () => {
    const own = await createBroker(pia, "statement and note");
    const form = new FormData();
    form.append("file", new File([sample("traderepublic-pdf", "kontoauszug-de.pdf")], "kontoauszug.pdf", { type: "application/pdf" }));
    form.append("file", new File([sample("traderepublic-pdf", "kauf-de.pdf")], "kauf.pdf", { type: "application/pdf" }));
    const res = await pia.request("POST", `/brokers/import/upload?broker_id=${own}`, form);
    expect(res.status).toBe(201);
    const file = await res.json();
    const first = await parsed(pia, file.file_id, own);
    expect(first.transactions.map((t: any) => [t.date, t.type, t.cash.amount])).toEqual([
      ["2025-03-01", "INTEREST", "2.4"],
      ["2025-03-03", "DEPOSIT", "2000"],
      ["2025-03-07", "WITHDRAWAL", "-4.8"],
      ["2025-03-12", "BUY", "-542.4"],
      ["2025-03-12", "FEE", "-1"],
      ["2025-03-17", "WITHDRAWAL", "-45"],
      ["2025-03-20", "FEE", "-5"],
      ["2025-03-24", "WITHDRAWAL", "-37.15"],
      ["2025-03-28", "WITHDRAWAL", "-500"],
    ]);
    expect(first.skipped_rows).toEqual([
      { line: 2, reason: expect.stringMatching(/^kontoauszug\.pdf: Line 13: a trade \(Handel: .*DE000BSP0012.*\) is imported from its contract note/) },
      { line: 2, reason: expect.stringMatching(/^kontoauszug\.pdf: Line 15: a dividend \(Ertrag: .*\) is imported from its dividend notice/) },
    ]);
    const { creates } = await withAssets(pia, file.file_id, own, first);
    const commit = await (await pia.post("/transactions/commit", { creates })).json();
    expect(commit.issues).toEqual([]);
    expect(commit.committed).toBe(true);
    const summary = await (await pia.get(`/brokers/${own}/summary`)).json();
    // 875.80 moved on the statement (2,125.80 end minus 1,250.00 opening) less the 8.75 dividend whose notice was not uploaded.
    expect(summary.cash_balances).toEqual([{ code: "EUR", amount: "867.05" }]);
    expect(summary.holdings.map((h: any) => h.quantity)).toEqual(["12"]);
  });

  test("a statement uploaded with the interest notice of its interest row books the interest once: the notice's gross and taxes, the statement's net row skipped naming the notice", async () => {
    const own = await createBroker(pia, "statement and interest notice");
    const form = new FormData();
    form.append("file", new File([sample("traderepublic-pdf", "kontoauszug-de.pdf")], "kontoauszug.pdf", { type: "application/pdf" }));
    form.append("file", new File([sample("traderepublic-pdf", "zinsen-zum-kontoauszug-de.pdf")], "zinsen.pdf", { type: "application/pdf" }));
    const res = await pia.request("POST", `/brokers/import/upload?broker_id=${own}`, form);
    expect(res.status).toBe(201);
    const file = await res.json();
    const result = await parsed(pia, file.file_id, own);
    expect(result.transactions.map((t: any) => [t.date, t.type, t.cash.amount, t.description.split(":")[0]])).toEqual([
      ["2025-03-01", "INTEREST", "3.26", "Trade Republic zinsen.pdf"],
      ["2025-03-01", "TAX", "-0.86", "Trade Republic zinsen.pdf"],
      ["2025-03-03", "DEPOSIT", "2000", "Trade Republic kontoauszug.pdf"],
      ["2025-03-07", "WITHDRAWAL", "-4.8", "Trade Republic kontoauszug.pdf"],
      ["2025-03-17", "WITHDRAWAL", "-45", "Trade Republic kontoauszug.pdf"],
      ["2025-03-20", "FEE", "-5", "Trade Republic kontoauszug.pdf"],
      ["2025-03-24", "WITHDRAWAL", "-37.15", "Trade Republic kontoauszug.pdf"],
      ["2025-03-28", "WITHDRAWAL", "-500", "Trade Republic kontoauszug.pdf"],
    ]);
    expect(result.skipped_rows).toEqual([
      { line: 1, reason: expect.stringMatching(/^kontoauszug\.pdf: Line 13: a trade/) },
      { line: 1, reason: expect.stringMatching(/^kontoauszug\.pdf: Line 15: a dividend/) },
      { line: 1, reason: "kontoauszug.pdf: Line 9: the interest credited on 2025-03-01 (2.40 EUR, after taxes) is booked from zinsen.pdf: 3.26 interest less 0.86 taxes; left out so it is not counted twice" },
    ]);
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: "interestInNotice", evidence: ["row 1"], severity: "info" }));
    const { creates } = await withAssets(pia, file.file_id, own, result);
    const commit = await (await pia.post("/transactions/commit", { creates })).json();
    expect(commit.committed).toBe(true);
    const stored = await (await pia.get(`/transactions?broker_id=${own}`)).json();
    expect(stored.filter((t: any) => t.type === "INTEREST" || t.type === "TAX").map((t: any) => [t.date, t.type, t.cash.amount]).sort()).toEqual([
      ["2025-03-01", "INTEREST", "3.26"],
      ["2025-03-01", "TAX", "-0.86"],
    ]);
    const summary = await (await pia.get(`/brokers/${own}/summary`)).json();
    // The statement moved 875.80; its 543.40 trade and 8.75 dividend were left to their documents (not uploaded); the interest once, 2.40 net.
    expect(summary.cash_balances).toEqual([{ code: "EUR", amount: "1410.45" }]);
  });

  test("an interest notice of another payment (another amount) leaves the statement's interest row in", async () => {
    const own = await createBroker(pia, "statement and other notice");
    const form = new FormData();
    form.append("file", new File([sample("traderepublic-pdf", "kontoauszug-de.pdf")], "kontoauszug.pdf", { type: "application/pdf" }));
    form.append("file", new File([sample("traderepublic-pdf", "zinsen-de.pdf")], "zinsen.pdf", { type: "application/pdf" }));
    const file = await (await pia.request("POST", `/brokers/import/upload?broker_id=${own}`, form)).json();
    const result = await parsed(pia, file.file_id, own);
    expect(result.transactions.filter((t: any) => t.type === "INTEREST").map((t: any) => [t.date, t.cash.amount, t.description])).toEqual([
      ["2025-03-01", "2.4", "Trade Republic kontoauszug.pdf: Your interest payment"],
      ["2025-08-01", "12.4", "Trade Republic zinsen.pdf: interest"],
    ]);
    expect(result.skipped_rows.filter((s: any) => s.reason.includes("interest"))).toEqual([]);
  });

  test("a file that is not a PDF among them is 422 ONLY_PDFS_TOGETHER naming it, and nothing is stored", async () => {
    const before = (await (await pia.get(`/brokers/import/files?broker_ids=${broker}`)).json()).items.length;
    const res = await uploadMany([
      { name: "kauf.pdf", data: sample("traderepublic-pdf", "kauf-de.pdf") },
      { name: "export.csv", data: "date,amount\n2025-01-01,1\n" },
    ]);
    const body = await expectError(res, 422, "ONLY_PDFS_TOGETHER");
    expect(body.detail).toEqual([{ loc: ["body", "file", 1], msg: "Only PDFs can be uploaded together; export.csv is not a PDF. Upload it on its own", type: "not_pdf" }]);
    expect(body.params).toEqual({ filename: "export.csv" });
    expect((await (await pia.get(`/brokers/import/files?broker_ids=${broker}`)).json()).items).toHaveLength(before);
  });

  test("more than 200 files in one upload is 413 LIMIT_EXCEEDED saying how many", async () => {
    const pdf = sample("traderepublic-pdf", "kauf-de.pdf");
    const res = await uploadMany(Array.from({ length: 201 }, (_, i) => ({ name: `n${i}.pdf`, data: pdf })));
    const body = await expectError(res, 413, "LIMIT_EXCEEDED");
    expect(body.params).toMatchObject({ limit: 200, requested: 201, unit: "files" });
  });

  test("one file part is stored as it is", async () => {
    const res = await uploadMany([{ name: "kauf.pdf", data: sample("traderepublic-pdf", "kauf-de.pdf") }]);
    expect(res.status).toBe(201);
    expect((await res.json()).filename).toBe("kauf.pdf");
  });
});

describe("a document's anonymised text for a bug report", () => {
  test("a PDF's text comes anonymised by default: name, address, IBAN and account numbers masked, the bank's letterhead kept", async () => {
    const file = await uploaded(pia, broker, "kauf.pdf", sample("traderepublic-pdf", "kauf-de.pdf"));
    const res = await pia.get(`/brokers/import/files/${file.file_id}/pdf-text`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.anonymised).toBe(true);
    expect(body.documents).toHaveLength(1);
    const [doc] = body.documents;
    expect(doc).toMatchObject({ name: "kauf.pdf", reason: null, message: null });
    for (const secret of ["Erika", "Lindenweg", "Musterort", "4711000042", "DE02100100100006820101"]) expect(doc.text).not.toContain(secret);
    expect(doc.text).toContain("Xxxxx Xxxxxxxx  SEITE  1 von 1");
    expect(doc.text).toContain("TRADE REPUBLIC BANK GMBH  BRUNNENSTRASSE 19-21  10119 BERLIN");
    const raw = await (await pia.get(`/brokers/import/files/${file.file_id}/pdf-text?anonymise=false`)).json();
    expect(raw.anonymised).toBe(false);
    expect(raw.documents[0].text).toContain("Erika Beispiel  SEITE  1 von 1");
  });

  test("several PDFs: each document's text, or why it has none, sorted by name", async () => {
    const res = await uploadMany([
      { name: "scan.pdf", data: bad("image-only.pdf") },
      { name: "kauf.pdf", data: sample("traderepublic-pdf", "kauf-de.pdf") },
      { name: "locked.pdf", data: bad("encrypted.pdf") },
    ]);
    const file = await res.json();
    const body = await (await pia.get(`/brokers/import/files/${file.file_id}/pdf-text?anonymise=true`)).json();
    expect(body.documents.map((d: any) => [d.name, d.reason, d.text === null])).toEqual([
      ["kauf.pdf", null, false],
      ["locked.pdf", "PDF_ENCRYPTED", true],
      ["scan.pdf", "PDF_NO_TEXT", true],
    ]);
    expect(body.documents[2].message).toContain("no text");
  });

  test("a file that is no PDF is 400 NOT_A_PDF; a VIEWER of the broker is 403", async () => {
    const csv = await uploaded(pia, broker, "export.csv", "date,amount\n2025-01-01,1\n");
    await expectError(await pia.get(`/brokers/import/files/${csv.file_id}/pdf-text`), 400, "NOT_A_PDF");
    const pdf = await uploaded(pia, broker, "kauf.pdf", sample("traderepublic-pdf", "kauf-de.pdf"));
    expect((await pia.post(`/brokers/${broker}/access`, { user_id: api.users.vic!.id, role: "VIEWER" })).status).toBe(201);
    await expectError(await api.as.vic!.get(`/brokers/import/files/${pdf.file_id}/pdf-text`), 403);
  });
});
