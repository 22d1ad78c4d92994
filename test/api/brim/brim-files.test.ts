import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { createBroker, sample, upload, uploaded } from "./helpers.ts";

const api = useApi({ users: ["alice", "bob", "carol"] });
let alice: ApiClient;
let bob: ApiClient;
let carol: ApiClient;
let broker: number;
const account = sample("degiro", "Account.csv");

beforeAll(async () => {
  ({ alice, bob, carol } = api.as);
  broker = await createBroker(alice, "Degiro");
  // bob is VIEWER, carol has no access row
  expect((await alice.post(`/brokers/${broker}/access`, { user_id: api.users.bob!.id, role: "VIEWER" })).status).toBe(201);
});

describe("upload", () => {
  test("an EDITOR's upload is stored under DATA_DIR/brim/<uuid>, and detection lists compatible plugins best first", async () => {
    const file = await uploaded(alice, broker, "Account.csv", account);
    expect(file).toMatchObject({
      filename: "Account.csv", size_bytes: account.length, status: "uploaded", target_broker_id: broker,
      uploaded_by_user_id: api.users.alice!.id, compatible_plugins: ["broker_degiro", "broker_generic_csv"],
      error_message: null, parsed_plugin_code: null, parse_is_stale: false, processed_at: null,
    });
    expect(file.file_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(readdirSync(join(api.dataDir, "brim"))).toContain(file.file_id);
    expect(existsSync(join(api.dataDir, "brim", "Account.csv"))).toBe(false);
  });

  test("broker_id may come as a form field, and custom_filename names the file", async () => {
    const res = await upload(alice, null, "x.csv", account, { broker_id: String(broker), custom_filename: "degiro-2024.csv" });
    expect(res.status).toBe(201);
    expect((await res.json()).filename).toBe("degiro-2024.csv");
  });

  test("a VIEWER may not upload (403), a user without access gets 404, nothing is stored", async () => {
    const before = readdirSync(join(api.dataDir, "brim")).length;
    await expectError(await upload(bob, broker, "a.csv", account), 403, "BROKER_ROLE_REQUIRED");
    await expectError(await upload(carol, broker, "a.csv", account), 404, "BROKER_NOT_FOUND");
    expect(readdirSync(join(api.dataDir, "brim")).length).toBe(before);
  });

  test("bad uploads get clear errors: no broker_id 400, empty file 400, executable 415, no file 422", async () => {
    await expectError(await upload(alice, null, "a.csv", account), 400, "BROKER_ID_REQUIRED");
    await expectError(await upload(alice, broker, "empty.csv", ""), 400, "EMPTY_FILE");
    const stored = readdirSync(join(api.dataDir, "brim")).sort();
    await expectError(await upload(alice, broker, "report.csv", new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1])), 415, "UPLOAD_REFUSED");
    await expectError(await upload(alice, broker, "run.sh", "date,type\n"), 415, "UPLOAD_REFUSED");
    await expectError(await upload(alice, broker, "page.csv", "<!doctype html><html><body>x</body></html>"), 415, "UPLOAD_REFUSED");
    expect(readdirSync(join(api.dataDir, "brim")).sort()).toEqual(stored); // a refused file is not kept
    await expectError(await alice.post(`/brokers/import/upload?broker_id=${broker}`, {}), 422, "VALIDATION_ERROR");
  });

  test("a file part without a name (filename=\"\") is 422 \"the file needs a name\", not a 500; nothing is stored", async () => {
    const before = readdirSync(join(api.dataDir, "brim")).sort();
    const raw = "--nameless\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\"\r\nContent-Type: text/csv\r\n\r\ndate,amount\n\r\n--nameless--\r\n";
    for (const res of [
      await upload(alice, broker, "", account),
      await upload(alice, broker, "", account, { custom_filename: "named.csv" }),
      await alice.request("POST", `/brokers/import/upload?broker_id=${broker}`, raw, { "content-type": "multipart/form-data; boundary=nameless" }),
    ]) {
      const body = await expectError(res, 422, "VALIDATION_ERROR");
      expect(body.detail).toEqual([{ loc: ["body", "file"], msg: "the file needs a name", type: "custom" }]);
    }
    expect(readdirSync(join(api.dataDir, "brim")).sort()).toEqual(before);
    expect((await alice.get("/system/health")).status).toBe(200);
  });

  test("a file over 1 MiB is sniffed in the worker pool like a small one: a CSV is kept as text/csv, HTML is refused and not kept", async () => {
    const csv = `Date,Type,Amount,Currency\n${"2024-01-02,Deposit,100.00,EUR\n".repeat(50_000)}`;
    expect(csv.length).toBeGreaterThan(1024 * 1024);
    const file = await uploaded(alice, broker, "big.csv", csv);
    expect(file).toMatchObject({ size_bytes: csv.length, compatible_plugins: ["broker_generic_csv"] });
    const download = await alice.get(`/brokers/import/files/${file.file_id}/download`);
    expect(download.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await download.text()).toBe(csv);
    const stored = readdirSync(join(api.dataDir, "brim")).sort();
    const html = `<!doctype html><html><body>${"<p>x</p>".repeat(200_000)}</body></html>`;
    await expectError(await upload(alice, broker, "page.csv", html), 415, "UPLOAD_REFUSED");
    expect(readdirSync(join(api.dataDir, "brim")).sort()).toEqual(stored);
  });

  test("a file over max_file_upload_mb is refused with 413 FILE_TOO_LARGE", async () => {
    expect((await alice.patch("/settings/global/bulk", { items: [{ key: "max_file_upload_mb", value: "1" }] })).status).toBe(200);
    try {
      const big = new Uint8Array(1024 * 1024 + 1).fill(0x41);
      const body = await expectError(await upload(alice, broker, "big.csv", big), 413, "FILE_TOO_LARGE");
      expect(body.params).toMatchObject({ max_file_upload_mb: 1 });
    } finally {
      await alice.patch("/settings/global/bulk", { items: [{ key: "max_file_upload_mb", value: "10" }] });
    }
  });

  test("a chunked upload (no Content-Length) is refused with 413 once it passes the cap, unread beyond it; nothing is stored", async () => {
    expect((await alice.patch("/settings/global/bulk", { items: [{ key: "max_file_upload_mb", value: "1" }] })).status).toBe(200);
    const rows = async () => ((await (await alice.get("/brokers/import/files")).json()).items as { file_id: string }[]).map((f) => f.file_id).sort();
    const stored = () => (existsSync(join(api.dataDir, "brim")) ? readdirSync(join(api.dataDir, "brim")).sort() : []);
    const before = { files: stored(), rows: await rows() };
    try {
      // A multipart body that never ends: only a server that stops reading at the cap can answer.
      const line = new TextEncoder().encode("2024-01-02,Buy,IE00B4L5Y983,1,100.00,EUR\n".repeat(1600));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(
            "--cap\r\nContent-Disposition: form-data; name=\"file\"; filename=\"endless.csv\"\r\nContent-Type: text/csv\r\n\r\n"));
        },
        pull(controller) {
          sent += line.byteLength;
          controller.enqueue(line);
        },
      });
      const res = await fetch(`${api.server.base}/brokers/import/upload?broker_id=${broker}`, {
        method: "POST", body, duplex: "half",
        headers: { cookie: alice.cookie, "content-type": "multipart/form-data; boundary=cap" },
      } as RequestInit);
      const error = await expectError(res, 413, "FILE_TOO_LARGE");
      expect(error.params).toMatchObject({ max_file_upload_mb: 1 });
      expect(sent).toBeGreaterThan(1024 * 1024);
      expect({ files: stored(), rows: await rows() }).toEqual(before);
    } finally {
      await alice.patch("/settings/global/bulk", { items: [{ key: "max_file_upload_mb", value: "10" }] });
    }
  });

  test("a 100 MB file is refused with 413 before it is read", async () => {
    const big = new Uint8Array(100 * 1024 * 1024);
    await expectError(await upload(alice, broker, "huge.csv", big), 413, "FILE_TOO_LARGE");
  });
});

describe("reading files: VIEWER reads, no access row → 404", () => {
  let fileId: string;
  beforeAll(async () => {
    fileId = (await uploaded(alice, broker, "Account.csv", account)).file_id;
  });

  test("the list holds files of accessible brokers only, filtered by status and broker_ids", async () => {
    const other = await createBroker(carol, "Carol's");
    await uploaded(carol, other, "c.csv", account);
    const mine = (await (await bob.get("/brokers/import/files")).json()).items;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((f: any) => f.target_broker_id === broker)).toBe(true);
    expect((await (await carol.get(`/brokers/import/files?broker_ids=${broker}&broker_ids=${other}`)).json()).items.map((f: any) => f.target_broker_id)).toEqual([other]);
    expect((await (await bob.get("/brokers/import/files?status=parsed")).json()).items).toEqual([]);
    await expectError(await bob.get("/brokers/import/files?status=bogus"), 422, "VALIDATION_ERROR");
  });

  test("a file of a broker without an access row is 404 everywhere", async () => {
    for (const path of ["", "/preview", "/download", "/last-parse"]) {
      await expectError(await carol.get(`/brokers/import/files/${fileId}${path}`), 404, "BRIM_FILE_NOT_FOUND");
    }
    await expectError(await carol.delete(`/brokers/import/files/${fileId}`), 404, "BRIM_FILE_NOT_FOUND");
    await expectError(await carol.post(`/brokers/import/files/${fileId}/parse`, { plugin_code: "auto", broker_id: broker }), 404, "BRIM_FILE_NOT_FOUND");
    await expectError(await bob.get("/brokers/import/files/not-a-uuid"), 404, "BRIM_FILE_NOT_FOUND");
  });

  test("preview: the first rows as a table", async () => {
    const preview = await (await bob.get(`/brokers/import/files/${fileId}/preview`)).json();
    expect(preview.kind).toBe("table");
    expect(preview.columns.slice(0, 6)).toEqual(["Date", "Time", "Value date", "Product", "ISIN", "Description"]);
    expect(preview.rows).toHaveLength(18);
    expect(preview.rows[17].slice(5, 9)).toEqual(["iDEAL Deposit", "", "EUR", "2500,00"]);
  });

  test("preview of a spreadsheet: its sheets listed, sheet_name picks one, an unknown sheet is 404; a PDF has none (400)", async () => {
    const xlsx = (await uploaded(alice, broker, "statement.xlsx", sample("xtb", "account-statement.xlsx"))).file_id;
    const first = await (await bob.get(`/brokers/import/files/${xlsx}/preview`)).json();
    expect(first).toEqual({ kind: "table", sheets: ["OPEN POSITION", "CASH OPERATION HISTORY"], columns: ["Position", "Symbol"], rows: [["(open positions, not imported)", ""]] });
    const cash = await (await bob.get(`/brokers/import/files/${xlsx}/preview?sheet_name=${encodeURIComponent("CASH OPERATION HISTORY")}`)).json();
    expect(cash.columns).toEqual(["Name and surname", "Account", "Currency", "", "", ""]);
    expect(cash.rows[0]).toEqual(["Sample Account Holder", "00000000", "EUR", "", "", ""]);
    expect(cash.rows).toHaveLength(14);
    await expectError(await bob.get(`/brokers/import/files/${xlsx}/preview?sheet_name=Nope`), 404, "SHEET_NOT_FOUND");
    const pdf = (await uploaded(alice, broker, "statement.pdf", "%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n")).file_id;
    await expectError(await bob.get(`/brokers/import/files/${pdf}/preview`), 400, "PREVIEW_UNAVAILABLE");
  });

  test("download: attachment with the user's name, a safe content type and nosniff", async () => {
    const res = await bob.get(`/brokers/import/files/${fileId}/download?download=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="Account.csv"; filename*=UTF-8''Account.csv`);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(account);
    const inline = await bob.get(`/brokers/import/files/${fileId}/download?download=false`);
    expect(inline.headers.get("content-disposition")).toStartWith("inline;");
  });

  test("a file whose content is not a known safe type downloads as an octet-stream attachment", async () => {
    const odd = await uploaded(alice, broker, "notes.csv", new Uint8Array([0x01, 0x02, 0x00, 0x10]));
    const res = await bob.get(`/brokers/import/files/${odd.file_id}/download?download=false`);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toStartWith("attachment;");
  });

  test("last-parse is null before any parse", async () => {
    const res = await bob.get(`/brokers/import/files/${fileId}/last-parse`);
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
  });

  test("a VIEWER may not parse or delete (403); an EDITOR deletes the row and the bytes", async () => {
    await expectError(await bob.post(`/brokers/import/files/${fileId}/parse`, { plugin_code: "auto", broker_id: broker }), 403, "BROKER_ROLE_REQUIRED");
    await expectError(await bob.delete(`/brokers/import/files/${fileId}`), 403, "BROKER_ROLE_REQUIRED");
    await expectError(await bob.post("/brokers/import/duplicates", { broker_id: broker, transactions: [], asset_mappings: [] }), 403, "BROKER_ROLE_REQUIRED");
    await expectError(await carol.post("/brokers/import/duplicates", { broker_id: broker, transactions: [], asset_mappings: [] }), 404, "BROKER_NOT_FOUND");
    const res = await alice.delete(`/brokers/import/files/${fileId}`);
    expect(await res.json()).toEqual({ success: true, file_id: fileId });
    expect(existsSync(join(api.dataDir, "brim", fileId))).toBe(false);
    await expectError(await alice.get(`/brokers/import/files/${fileId}`), 404, "BRIM_FILE_NOT_FOUND");
  });
});

describe("a broker's files go with it", () => {
  test("deleting the broker removes its file rows, bytes and last parses at once", async () => {
    const doomed = await createBroker(alice, "Doomed");
    const file = await uploaded(alice, doomed, "Account.csv", account);
    expect((await alice.post(`/brokers/import/files/${file.file_id}/parse`, { plugin_code: "auto", broker_id: doomed })).status).toBe(200);
    const names = () => readdirSync(join(api.dataDir, "brim")).filter((n) => n.startsWith(file.file_id));
    expect(names().sort()).toEqual([file.file_id, `${file.file_id}.parse.json.gz`]);
    expect((await alice.delete(`/brokers/${doomed}`)).status).toBe(200);
    expect(names()).toEqual([]);
    await expectError(await alice.get(`/brokers/import/files/${file.file_id}`), 404, "BRIM_FILE_NOT_FOUND");
  });

  test("the last OWNER leaving deletes the broker and its files", async () => {
    const left = await createBroker(carol, "Left behind");
    const file = await uploaded(carol, left, "Account.csv", account);
    expect((await (await carol.delete(`/brokers/${left}/access/me`)).json()).broker_deleted).toBe(true);
    expect(existsSync(join(api.dataDir, "brim", file.file_id))).toBe(false);
  });
});

describe("plugins", () => {
  test("the list names every import plugin with its extensions, version and detection priority", async () => {
    const items = (await (await bob.get("/brokers/import/plugins")).json()).items;
    const codes = items.map((p: any) => p.code);
    expect(codes).toContain("broker_degiro");
    expect(codes[codes.length - 1]).toBe("broker_generic_csv");
    expect(items.find((p: any) => p.code === "broker_degiro")).toEqual({
      code: "broker_degiro", name: "DEGIRO", description: expect.any(String), supported_extensions: ["csv"], icon_url: null,
      docs_url: null, plugin_version: "1.1.0", detection_priority: 50,
    });
  });
});
