import { beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { bytesOf, storedFiles, uploadForm } from "../../fixtures/uploads/files.ts";

const MIB = 1024 * 1024;
const api = useApi();
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = api.server;
  admin = new ApiClient(server.base);
  await admin.signUp("cap-admin");
  const res = await admin.patch("/settings/global/bulk", { items: [{ key: "max_file_upload_mb", value: "1" }] });
  expect(res.status).toBe(200);
});

/** A multipart request streamed without Content-Length, so only the bytes counted as they arrive can refuse it. */
async function streamedUpload(form: FormData): Promise<Response> {
  const encoded = new Response(form);
  // The type first: Bun's Response answers null for it once its body stream was taken.
  const type = encoded.headers.get("content-type")!;
  const body = encoded.body!;
  return fetch(`${server.base}/uploads`, {
    method: "POST",
    body,
    headers: { cookie: admin.cookie, "content-type": type },
    duplex: "half",
  } as RequestInit);
}

/** Sends only the head of a request declaring `length` bytes and returns the status line the server answers with. */
function statusForDeclaredLength(length: number): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write([
        "POST /api/v1/uploads HTTP/1.1", `Host: ${hostname}:${port}`, `Cookie: ${admin.cookie}`,
        "Content-Type: multipart/form-data; boundary=x", `Content-Length: ${length}`, "", "--x\r\n",
      ].join("\r\n"));
    });
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (answer.includes("\r\n")) { socket.destroy(); resolve(answer.split("\r\n")[0]!); }
    });
    socket.on("error", reject);
    setTimeout(() => { socket.destroy(); reject(new Error("no answer: the server waited for the body")); }, 3000);
  });
}

describe("uploads are capped by max_file_upload_mb, read on each request", () => {
  test("a declared Content-Length over the cap is refused with 413 before the body is sent", async () => {
    expect(await statusForDeclaredLength(50 * MIB)).toBe("HTTP/1.1 413 Payload Too Large");
  });

  test("over the cap (1.5 MiB against 1 MiB) is 413 FILE_TOO_LARGE with the limit in params; nothing is stored", async () => {
    const res = await admin.post("/uploads", uploadForm(bytesOf(1.5 * MIB), "big.bin"));
    const body = await expectError(res, 413, "FILE_TOO_LARGE");
    expect(body.params).toMatchObject({ max_file_upload_mb: 1, max_bytes: MIB });
    expect(storedFiles(server.dataDir)).toEqual([]);
  });

  test("under the cap (0.5 MiB) is accepted", async () => {
    const res = await admin.post("/uploads", uploadForm(bytesOf(0.5 * MIB), "half.bin"));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ size_bytes: 0.5 * MIB, content_type: "application/octet-stream" });
  });

  test("a body sent without Content-Length is counted as it streams: 1.5 MiB is refused", async () => {
    const before = storedFiles(server.dataDir);
    await expectError(await streamedUpload(uploadForm(bytesOf(1.5 * MIB), "chunked.bin")), 413, "FILE_TOO_LARGE");
    expect(storedFiles(server.dataDir)).toEqual(before);
  });

  test("one byte over the cap is refused once read, though its declared length fits the multipart allowance", async () => {
    await expectError(await admin.post("/uploads", uploadForm(bytesOf(MIB + 1), "over.bin")), 413, "FILE_TOO_LARGE");
  });

  test("a file of exactly the cap fits (the multipart envelope does not count)", async () => {
    expect((await admin.post("/uploads", uploadForm(bytesOf(MIB), "exact.bin"))).status).toBe(201);
  });

  test("a changed setting applies to the next request", async () => {
    await admin.patch("/settings/global/bulk", { items: [{ key: "max_file_upload_mb", value: "2" }] });
    expect((await admin.post("/uploads", uploadForm(bytesOf(1.5 * MIB), "big.bin"))).status).toBe(201);
    await admin.patch("/settings/global/bulk", { items: [{ key: "max_file_upload_mb", value: "1" }] });
    await expectError(await admin.post("/uploads", uploadForm(bytesOf(1.5 * MIB), "big.bin")), 413, "FILE_TOO_LARGE");
  });
});

describe("upload body rules", () => {
  test("an empty file is 400 EMPTY_FILE", async () => {
    await expectError(await admin.post("/uploads", uploadForm(new Uint8Array(0), "empty.txt")), 400, "EMPTY_FILE");
  });

  test("a missing file field is 422", async () => {
    const form = new FormData();
    form.append("description", "no file here");
    await expectError(await admin.post("/uploads", form), 422, "VALIDATION_ERROR");
  });

  test("a body that is not multipart is 422 (no file); a malformed multipart body is 400 MALFORMED_BODY", async () => {
    await expectError(await admin.post("/uploads", { file: "hello" }), 422, "VALIDATION_ERROR");
    const garbage = await fetch(`${server.base}/uploads`, {
      method: "POST", headers: { cookie: admin.cookie, "content-type": "multipart/form-data; boundary=zzz" }, body: "garbage",
    });
    await expectError(garbage, 400, "MALFORMED_BODY");
  });

  test("a file part without a name (filename=\"\") is 422 \"the file needs a name\", not a 500; nothing is stored", async () => {
    const before = storedFiles(server.dataDir);
    const raw = "--nameless\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--nameless--\r\n";
    for (const res of [
      await admin.post("/uploads", uploadForm("hello", "")),
      await admin.request("POST", "/uploads", raw, { "content-type": "multipart/form-data; boundary=nameless" }),
    ]) {
      const body = await expectError(res, 422, "VALIDATION_ERROR");
      expect(body.detail).toEqual([{ loc: ["body", "file"], msg: "the file needs a name", type: "custom" }]);
    }
    expect(storedFiles(server.dataDir)).toEqual(before);
    expect((await admin.get("/system/health")).status).toBe(200);
  });

  test("a description is kept as sent, even when it looks like JSON", async () => {
    const res = await admin.post("/uploads", uploadForm("hello", "a.txt", "text/plain", `{"not": "parsed"}`));
    expect(res.status).toBe(201);
    expect((await res.json()).description).toBe(`{"not": "parsed"}`);
  });

  test("a description over 500 characters is 422", async () => {
    await expectError(await admin.post("/uploads", uploadForm("hello", "a.txt", "text/plain", "x".repeat(501))), 422, "VALIDATION_ERROR");
  });
});
