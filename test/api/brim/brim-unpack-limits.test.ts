import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { bombSheet, bombSheetParts, buildXlsx, compressRepeated, sheetXml } from "../../helpers/archives.ts";
import { createBroker, sample, upload, uploaded } from "./helpers.ts";

// Decompression bombs for import, built at run time: a sheet of millions of identical cells
// deflates about a thousand to one, and a spreadsheet reader holds every cell as an object, so a
// few hundred kilobytes could take gigabytes of the server's memory. The server unpacks a ZIP
// within limits (docs/security.md) before any reader sees it, and stays up and answering.

const api = useApi({ users: ["alice"] });
let alice: ApiClient;
let broker: number;

beforeAll(async () => {
  alice = api.as.alice!;
  broker = await createBroker(alice, "XTB");
});

const stored = () => (existsSync(join(api.dataDir, "brim")) ? readdirSync(join(api.dataDir, "brim")).sort() : []);
const listed = async () => ((await (await alice.get("/brokers/import/files")).json()).items as { file_id: string }[]).map((f) => f.file_id).sort();

/** The server process is alive, and its peak memory so far (VmHWM) in MB. */
function serverPeakMb(): number {
  process.kill(api.server.pid, 0); // throws when the process is gone
  const line = readFileSync(`/proc/${api.server.pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmHWM:"))!;
  return Number(line.replace(/\D+/g, "")) / 1024;
}

/** Awaits `request` while asking for /system/health until it settles: every health answer is 200. */
async function healthyDuring<T>(request: Promise<T>): Promise<T> {
  let settled = false;
  const done = request.finally(() => { settled = true; });
  let answers = 0;
  do {
    const health = await api.client().get("/system/health");
    expect(health.status).toBe(200);
    answers++;
    await Bun.sleep(50);
  } while (!settled);
  expect(answers).toBeGreaterThan(0);
  return done;
}

/** A sheet of 6,000,000 identical cells: under 400 KB, 96 MB of XML. */
const cellBomb = () => buildXlsx(bombSheet(6_000_000));

describe("upload for import: a ZIP beyond the unpacking limits is refused with 413, nothing stored", () => {
  test("a sheet of 6,000,000 identical cells (under 400 KB) → FILE_TOO_LARGE naming the cell limit; health answers during and after", async () => {
    const bomb = cellBomb();
    expect(bomb.length).toBeLessThan(400 * 1024);
    const before = { files: stored(), rows: await listed() };
    const res = await healthyDuring(upload(alice, broker, "statement.xlsx", bomb));
    const body = await expectError(res, 413, "FILE_TOO_LARGE");
    expect(body.detail).toBe("The file is beyond the import's limits: the spreadsheet has more than 2,000,000 cells");
    expect(body.params).toEqual({ limit: "cells", max: 2_000_000 });
    expect({ files: stored(), rows: await listed() }).toEqual(before);
    expect((await api.client().get("/system/health")).status).toBe(200);
  }, 60_000);

  test("an entry declaring 1 KB that inflates to 220 MB → FILE_TOO_LARGE, unpacks to more than 100 MB", async () => {
    const { head, row, tail } = bombSheetParts();
    const { compressed } = await compressRepeated(head, row, 700_000, tail);
    const before = { files: stored(), rows: await listed() };
    const res = await healthyDuring(upload(alice, broker, "statement.xlsx", buildXlsx("", { compressed, declaredSize: 1024 })));
    const body = await expectError(res, 413, "FILE_TOO_LARGE");
    expect(body.detail).toBe("The file is beyond the import's limits: the spreadsheet unpacks to more than 100 MB");
    expect(body.params).toEqual({ limit: "unpacked_bytes", max: 100 * 1024 * 1024 });
    expect({ files: stored(), rows: await listed() }).toEqual(before);
  }, 60_000);

  test("a one-kilobyte sheet whose hyperlink covers every cell of the sheet → FILE_TOO_LARGE (any ZIP, named by its extension)", async () => {
    const sheet = sheetXml('<row r="1"><c r="A1"><v>1</v></c></row>').replace("</worksheet>", '<hyperlinks><hyperlink ref="A1:XFD1048576" location="x"/></hyperlinks></worksheet>');
    const res = await upload(alice, broker, "export.zip", buildXlsx(sheet));
    const body = await expectError(res, 413, "FILE_TOO_LARGE");
    expect(body.detail).toBe("The file is beyond the import's limits: the ZIP file has more than 2,000,000 cells");
  });

  test("a normal XLSX report is still stored and parsed", async () => {
    const file = await uploaded(alice, broker, "account-statement.xlsx", sample("xtb", "account-statement.xlsx"));
    const res = await alice.post(`/brokers/import/files/${file.file_id}/parse`, { plugin_code: "broker_xtb", broker_id: broker });
    expect(res.status).toBe(200);
    expect((await res.json()).transactions.length).toBeGreaterThan(5);
    expect((await alice.get(`/brokers/import/files/${file.file_id}/preview`)).status).toBe(200);
  });
});

describe("a stored file beyond the limits (kept before they existed): parse and preview refuse it, the server stays up", () => {
  test("parse → 400 PARSE_FAILED naming the limit, the file failed, nothing parsed or written; preview the same; memory stays bounded", async () => {
    const file = await uploaded(alice, broker, "account-statement.xlsx", sample("xtb", "account-statement.xlsx"));
    writeFileSync(join(api.dataDir, "brim", file.file_id), cellBomb());
    const message = "The file is beyond the import's limits: the spreadsheet has more than 2,000,000 cells";

    const parse = await healthyDuring(alice.post(`/brokers/import/files/${file.file_id}/parse`, { plugin_code: "auto", broker_id: broker }));
    const body = await expectError(parse, 400, "PARSE_FAILED");
    expect(body.detail).toBe(message);
    expect(body.params).toEqual({ file_id: file.file_id, limit: "cells", max: 2_000_000 });
    expect(await (await alice.get(`/brokers/import/files/${file.file_id}`)).json()).toMatchObject({ status: "failed", error_message: message });
    expect(await (await alice.get(`/brokers/import/files/${file.file_id}/last-parse`)).json()).toBeNull();
    expect(await (await alice.get(`/transactions?broker_id=${broker}`)).json()).toEqual([]);

    const preview = await healthyDuring(alice.get(`/brokers/import/files/${file.file_id}/preview`));
    expect((await expectError(preview, 400, "PARSE_FAILED")).detail).toBe(message);

    expect((await api.client().get("/system/health")).status).toBe(200);
    // Generous: unbounded, this file alone takes the server past 3 GB.
    expect(serverPeakMb()).toBeLessThan(1500);
  }, 120_000);

  test("a sheet with two values at opposite corners: parse refuses the table it would span (the 100-row preview fits)", async () => {
    const sheet = sheetXml('<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>2</v></c></row>');
    const file = await uploaded(alice, broker, "sparse.xlsx", buildXlsx(sheet));
    const parse = await alice.post(`/brokers/import/files/${file.file_id}/parse`, { plugin_code: "broker_xtb", broker_id: broker });
    const body = await expectError(parse, 400, "PARSE_FAILED");
    expect(body.detail).toMatch(/^The file is beyond the import's limits: the spreadsheet spans more than 20,000,000 cells \(sheet "Sheet1": 1,000,000 rows × 16,384 columns\)$/);
    expect(body.params).toMatchObject({ limit: "sheet_span", max: 20_000_000 });
    // The preview reads only the first 101 rows (SheetJS stops there): the far corner is never
    // reached, so it answers with what lies within them.
    const preview = await alice.get(`/brokers/import/files/${file.file_id}/preview`);
    expect(preview.status).toBe(200);
    expect((await preview.json()).rows.length).toBeLessThanOrEqual(100);
    expect((await api.client().get("/system/health")).status).toBe(200);
    serverPeakMb();
  }, 60_000);
});
