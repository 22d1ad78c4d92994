import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { makePdf } from "../../fixtures/pdf/make-pdf.ts";
import { buildZip } from "../../helpers/archives.ts";
import { createBroker, parsed, sample, uploaded } from "./helpers.ts";

// Broker PDF documents through the API: detection reads the PDF's text in the worker pool, the
// importer parses it there; PDFs without readable text, another broker's PDF or a PDF no importer
// knows get 400 PARSE_FAILED naming the reason, never a 500, and nothing reaches the ledger.
const api = useApi({ users: ["pia"] });
let pia: ApiClient;
let broker: number;
beforeAll(async () => {
  pia = api.as.pia!;
  broker = await createBroker(pia, "pdf broker");
});

const bad = (name: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(join(import.meta.dir, "..", "..", "fixtures", "pdf", "bad", name)));
const parse = (fileId: string, plugin = "auto") => pia.post(`/brokers/import/files/${fileId}/parse`, { plugin_code: plugin, broker_id: broker });

async function ledgerIsEmpty() {
  const list = await (await pia.get(`/transactions?broker_ids=${broker}`)).json();
  expect(list.items ?? list.transactions ?? list).toHaveLength(0);
}

describe("broker PDF documents", () => {
  test("a Trade Republic contract note is recognised by its text and parsed into a BUY and its FEE", async () => {
    const file = await uploaded(pia, broker, "Abrechnung.pdf", sample("traderepublic-pdf", "kauf-de.pdf"));
    expect(file.compatible_plugins[0]).toBe("broker_traderepublic_pdf");
    expect(file.compatible_plugins).not.toContain("broker_generic_csv");
    const result = await parsed(pia, file.file_id, broker);
    expect(result.plugin_code).toBe("broker_traderepublic_pdf");
    expect(result.detected_format).toBe("traderepublic/pdf/trade");
    expect(result.transactions.map((t: any) => [t.type, t.date, t.quantity, t.cash])).toEqual([
      ["BUY", "2025-03-12", "12", { amount: "-542.4", code: "EUR" }],
      ["FEE", "2025-03-12", "0", { amount: "-1", code: "EUR" }],
    ]);
    expect(result.asset_mappings[0].extracted_isin).toBe("DE000BSP0012");
  });

  test("a Scalable Capital dividend note is recognised and parsed", async () => {
    const file = await uploaded(pia, broker, "dividende.pdf", sample("scalable-pdf", "dividende.pdf"));
    expect(file.compatible_plugins[0]).toBe("broker_scalable_pdf");
    const result = await parsed(pia, file.file_id, broker);
    expect(result.transactions.map((t: any) => [t.type, t.cash.amount])).toEqual([["DIVIDEND", "12.5"], ["TAX", "-3.19"]]);
  });

  for (const [name, reason] of [["image-only.pdf", "PDF_NO_TEXT"], ["encrypted.pdf", "PDF_ENCRYPTED"], ["corrupt.pdf", "PDF_UNREADABLE"]] as const) {
    test(`${name}: 400 PARSE_FAILED with reason ${reason}, the file failed, nothing written`, async () => {
      const file = await uploaded(pia, broker, name, bad(name));
      expect(file.compatible_plugins).toEqual([]);
      const body = await expectError(await parse(file.file_id), 400, "PARSE_FAILED");
      expect(body.params.reason).toBe(reason);
      expect(body.detail).toStartWith("The PDF cannot be read: ");
      const stored = await (await pia.get(`/brokers/import/files/${file.file_id}`)).json();
      expect(stored.status).toBe("failed");
      // Forcing an importer gives the same reason.
      const forced = await expectError(await parse(file.file_id, "broker_traderepublic_pdf"), 400, "PARSE_FAILED");
      expect(forced.params.reason).toBe(reason);
      await ledgerIsEmpty();
    });
  }

  test("a PDF no importer knows: PDF_NOT_RECOGNISED; another broker's PDF forced on an importer: its message", async () => {
    const unknown = await uploaded(pia, broker, "letter.pdf", new Uint8Array(makePdf("Sehr geehrte Kundin,\nanbei Ihre Unterlagen.\n")));
    const body = await expectError(await parse(unknown.file_id), 400, "PARSE_FAILED");
    expect(body.params.reason).toBe("PDF_NOT_RECOGNISED");
    const other = await uploaded(pia, broker, "kauf.pdf", sample("scalable-pdf", "kauf.pdf"));
    const forced = await expectError(await parse(other.file_id, "broker_traderepublic_pdf"), 400, "PARSE_FAILED");
    expect(forced.detail).toContain("not a Trade Republic document");
    await ledgerIsEmpty();
  });
});

describe("a ZIP of broker PDFs", () => {
  test("parses into one preview: a row per document event, ordered by date, named by its document; a twin and an unreadable PDF are left out with a message", async () => {
    const zip = buildZip([
      { name: "2025/dividende.pdf", data: sample("traderepublic-pdf", "dividende-de.pdf") },
      { name: "2025/kauf.pdf", data: sample("traderepublic-pdf", "kauf-de.pdf") },
      { name: "2025/kauf-again.pdf", data: sample("traderepublic-pdf", "kauf-de.pdf") },
      { name: "2025/scan.pdf", data: bad("image-only.pdf") },
      { name: "2025/sparplan.pdf", data: sample("traderepublic-pdf", "sparplan-de.pdf") },
    ]);
    const file = await uploaded(pia, broker, "documents.zip", zip);
    expect(file.compatible_plugins[0]).toBe("broker_traderepublic_pdf");
    const result = await parsed(pia, file.file_id, broker);
    expect(result.detected_format).toBe("pdf-documents/5");
    expect(result.transactions.map((t: any) => [t.date, t.type, t.cash.amount, t.description])).toEqual([
      ["2025-02-03", "BUY", "-100", "Trade Republic sparplan.pdf: savings plan 0.912345 at 109.61 EUR"],
      ["2025-03-12", "BUY", "-542.4", "Trade Republic kauf-again.pdf: buy 12 at 45.2 EUR"],
      ["2025-03-12", "FEE", "-1", "Trade Republic kauf-again.pdf"],
      ["2025-05-15", "DIVIDEND", "20", "Trade Republic dividende.pdf: dividend on 40; 22 USD at 1.1 USD/EUR"],
      ["2025-05-15", "TAX", "-4.79", "Trade Republic dividende.pdf: taxes withheld"],
    ]);
    expect(result.skipped_rows).toEqual([
      { line: 3, reason: "kauf.pdf is the same document as kauf-again.pdf; left out" },
      { line: 4, reason: expect.stringContaining("scan.pdf: the PDF holds no text") },
    ]);
  });

  test("a ZIP whose PDFs are all unreadable: 400 PARSE_FAILED with the first one's reason", async () => {
    const zip = buildZip([{ name: "a.pdf", data: bad("encrypted.pdf") }, { name: "b.pdf", data: bad("corrupt.pdf") }]);
    const file = await uploaded(pia, broker, "locked.zip", zip);
    const body = await expectError(await parse(file.file_id, "broker_traderepublic_pdf"), 400, "PARSE_FAILED");
    expect(body.params.reason).toBe("PDF_ENCRYPTED");
    await ledgerIsEmpty();
  });
});

test("the preview of a PDF is its text, line by line with the page; one without text is 400 naming why", async () => {
  const file = await uploaded(pia, broker, "kauf.pdf", sample("traderepublic-pdf", "kauf-de.pdf"));
  const preview = await (await pia.get(`/brokers/import/files/${file.file_id}/preview`)).json();
  expect(preview.columns).toEqual(["page", "line"]);
  expect(preview.rows[0]).toEqual(["1", "TRADE REPUBLIC BANK GMBH  BRUNNENSTRASSE 19-21  10119 BERLIN"]);
  expect(preview.rows).toContainEqual(["1", "Beispiel Werke AG  12 Stk.  45,20 EUR  542,40 EUR"]);
  const scan = await uploaded(pia, broker, "scan.pdf", bad("image-only.pdf"));
  const body = await expectError(await pia.get(`/brokers/import/files/${scan.file_id}/preview`), 400, "PREVIEW_UNAVAILABLE");
  expect(body.detail).toContain("no text");
});

test("a PDF's text is read once at upload and kept beside the file: the parse reads that text, and it goes with the file", async () => {
  const file = await uploaded(pia, broker, "kauf.pdf", sample("traderepublic-pdf", "kauf-de.pdf"));
  const dir = join(api.dataDir, "brim");
  const kept = join(dir, `${file.file_id}.pdf-text.jsonl`);
  expect(existsSync(kept)).toBe(true);
  expect(readdirSync(dir).filter((n) => n.startsWith(".pending-"))).toEqual([]);
  // A changed quantity in the kept text is what the parse and the text view answer: neither reads the PDF again.
  writeFileSync(kept, readFileSync(kept, "utf8").replaceAll("12 Stk.", "13 Stk."));
  const result = await parsed(pia, file.file_id, broker);
  expect(result.transactions.map((t: any) => [t.type, t.quantity, t.cash.amount])).toEqual([["BUY", "13", "-542.4"], ["FEE", "0", "-1"]]);
  const text = await (await pia.get(`/brokers/import/files/${file.file_id}/pdf-text?anonymise=false`)).json();
  expect(text.documents[0].text).toContain("Beispiel Werke AG  13 Stk.  45,20 EUR");
  expect((await pia.delete(`/brokers/import/files/${file.file_id}`)).status).toBe(200);
  expect(readdirSync(dir).filter((n) => n.startsWith(file.file_id))).toEqual([]);
});

test("a cancellation (Storno) note never imports: alone it is 400 naming the cancellation, in a ZIP it is left out with a skipped_rows reason", async () => {
  const alone = await uploaded(pia, broker, "storno.pdf", sample("scalable-pdf", "storno-dividende.pdf"));
  expect(alone.compatible_plugins[0]).toBe("broker_scalable_pdf");
  const body = await expectError(await parse(alone.file_id), 400, "PARSE_FAILED");
  expect(body.detail).toContain("storno.pdf: a cancellation (Storno) of an earlier document is not imported");
  const zip = buildZip([
    { name: "1-dividende.pdf", data: sample("scalable-pdf", "dividende.pdf") },
    { name: "2-storno.pdf", data: sample("scalable-pdf", "storno-dividende.pdf") },
  ]);
  const file = await uploaded(pia, broker, "dividends.zip", zip);
  const result = await parsed(pia, file.file_id, broker);
  expect(result.transactions.map((t: any) => [t.type, t.cash.amount, t.description])).toEqual([
    ["DIVIDEND", "12.5", "Scalable Capital 1-dividende.pdf: dividend on 30; 15 USD at 1.2 USD/EUR"],
    ["TAX", "-3.19", "Scalable Capital 1-dividende.pdf: taxes withheld"],
  ]);
  expect(result.skipped_rows).toEqual([{ line: 2, reason: expect.stringContaining("2-storno.pdf: a cancellation (Storno) of an earlier document is not imported") }]);
  await ledgerIsEmpty();
});
