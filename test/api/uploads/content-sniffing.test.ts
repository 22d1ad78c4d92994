import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { CLEAN_SVG, ELF_HEADER, PNG_1X1, SCRIPTED_SVG, storedFiles, uploadForm } from "../../fixtures/uploads/files.ts";

const api = useApi();
let server: TestServer;
let client: ApiClient;

beforeAll(async () => {
  server = api.server;
  client = new ApiClient(server.base);
  await client.signUp("sniffer");
});

async function listIds(): Promise<number[]> {
  return (await (await client.get("/uploads")).json()).items.map((i: { id: number }) => i.id);
}

/** Uploads and expects a refusal with BLOCKED_FILE_TYPE, with nothing listed or stored. */
async function expectBlocked(content: Uint8Array<ArrayBuffer> | string, name: string, type?: string) {
  const before = { ids: await listIds(), files: storedFiles(server.dataDir) };
  await expectError(await client.post("/uploads", uploadForm(content, name, type)), 400, "BLOCKED_FILE_TYPE");
  expect(await listIds()).toEqual(before.ids);
  expect(storedFiles(server.dataDir)).toEqual(before.files);
}

describe("the type comes from the content, never from the client's type or name", () => {
  test("a PNG named x.txt and sent as text/plain is stored as image/png and served back byte-identical", async () => {
    const res = await client.post("/uploads", uploadForm(PNG_1X1, "x.txt", "text/plain", "a pixel"));
    expect(res.status).toBe(201);
    const record = await res.json();
    expect(record).toMatchObject({
      filename: "x.txt", content_type: "image/png", size_bytes: PNG_1X1.length, description: "a pixel",
      sha256: new Bun.CryptoHasher("sha256").update(PNG_1X1).digest("hex"),
    });
    expect(record.url).toBe(`/api/v1/uploads/file/${record.id}`);
    const served = await client.get(`/uploads/file/${record.id}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG_1X1);
  });

  test("the stored file has a random server-chosen name, never the client's", async () => {
    const res = await client.post("/uploads", uploadForm(PNG_1X1, "../../etc/evil.png"));
    expect(res.status).toBe(201);
    expect((await res.json()).filename).toBe("evil.png");
    const names = storedFiles(server.dataDir);
    expect(names.some((n) => n.includes("evil") || n.includes("x.txt"))).toBe(false);
    expect(names.every((n) => /^[0-9a-f-]{36}$/.test(n))).toBe(true);
  });

  test("ELF executable bytes named photo.png are blocked and nothing is stored", async () => {
    await expectBlocked(ELF_HEADER, "photo.png", "image/png");
  });

  test("Windows executables (MZ) and Mach-O fat binaries / Java classes (cafebabe) are blocked", async () => {
    await expectBlocked(Uint8Array.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]), "report.pdf");
    await expectBlocked(Uint8Array.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x34]), "data.bin");
  });

  test("a #!/bin/sh script named notes.txt is blocked", async () => {
    await expectBlocked("#!/bin/sh\nrm -rf ~\n", "notes.txt", "text/plain");
  });

  test("HTML is blocked whatever the name", async () => {
    await expectBlocked("<!DOCTYPE html><html><body>hi</body></html>", "page.txt", "text/plain");
    await expectBlocked("  <script>fetch('/api/v1/auth/me')</script>", "data.csv", "text/csv");
  });

  test("script extensions are blocked even when the content looks harmless", async () => {
    await expectBlocked("echo hello\r\n", "run.bat", "text/plain");
    await expectBlocked("console.log(1)", "app.js", "text/plain");
    await expectBlocked("plain words", "setup.exe. ", "text/plain");
  });

  test("an SVG with a script element is blocked; a clean SVG is accepted as image/svg+xml", async () => {
    await expectBlocked(SCRIPTED_SVG, "logo.svg", "image/svg+xml");
    await expectBlocked(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`, "logo.svg");
    await expectBlocked(`<svg xmlns="http://www.w3.org/2000/svg"><a href="jav&#x61;script:alert(1)"><text>x</text></a></svg>`, "logo.svg");
    const res = await client.post("/uploads", uploadForm(CLEAN_SVG, "logo.bin", "application/octet-stream"));
    expect(res.status).toBe(201);
    expect((await res.json()).content_type).toBe("image/svg+xml");
  });

  test("text becomes CSV by name or by its separators, JSON when it parses, plain text otherwise", async () => {
    const type = async (content: string, name: string) =>
      (await (await client.post("/uploads", uploadForm(content, name, "application/pdf"))).json()).content_type;
    expect(await type("date;amount\n2024-01-02;10.5\n2024-01-03;11\n", "export.dat")).toBe("text/csv");
    expect(await type("just one line", "export.csv")).toBe("text/csv");
    expect(await type(`{"a": [1, 2]}`, "data.txt")).toBe("application/json");
    expect(await type("Dear diary,\nnothing happened.\n", "diary")).toBe("text/plain");
  });

  test("text is served with a UTF-8 charset", async () => {
    const record = await (await client.post("/uploads", uploadForm("Grüße\n", "hello.txt"))).json();
    const served = await client.get(`/uploads/file/${record.id}`);
    expect(served.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await served.text()).toBe("Grüße\n");
  });
});
