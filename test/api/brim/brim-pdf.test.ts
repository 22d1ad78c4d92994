import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { makePdf } from "../../fixtures/pdf/make-pdf.ts";
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
