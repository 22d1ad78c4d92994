import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { createBroker, parsed, sample } from "./helpers.ts";

// Several PDFs in one upload (several `file` parts) are stored as one import file and parse into
// one preview as a ZIP of them does; anything but PDFs together, or too many files, is refused.
const api = useApi({ users: ["pia"] });
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
