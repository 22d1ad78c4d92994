import { beforeAll, describe, expect, test } from "bun:test";
import { expectError } from "../../helpers/client.ts";
import { PNG_1X1, storedFiles, uploadForm } from "../../fixtures/uploads/files.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;

beforeAll(async () => {
  server = api.server;
});

describe("every /uploads route needs a session", () => {
  test("an upload without a session cookie is 401 NOT_AUTHENTICATED and stores nothing", async () => {
    const res = await fetch(`${server.base}/uploads`, { method: "POST", body: uploadForm(PNG_1X1, "a.png") });
    await expectError(res, 401, "NOT_AUTHENTICATED");
    expect(storedFiles(server.dataDir)).toEqual([]);
  });

  test("an oversized upload without a session is still 401, not 413", async () => {
    const res = await fetch(`${server.base}/uploads`, { method: "POST", body: uploadForm(new Uint8Array(12 * 1024 * 1024), "big.bin") });
    await expectError(res, 401, "NOT_AUTHENTICATED");
  });

  test("the session is checked before the body: a malformed or non-multipart body without a session is 401", async () => {
    const garbage = await fetch(`${server.base}/uploads`, {
      method: "POST", headers: { "content-type": "multipart/form-data; boundary=zzz" }, body: "not multipart at all",
    });
    await expectError(garbage, 401, "NOT_AUTHENTICATED");
    await expectError(await fetch(`${server.base}/uploads`, { method: "POST" }), 401, "NOT_AUTHENTICATED");
  });

  test("an invalid session cookie is 401 as well", async () => {
    const res = await fetch(`${server.base}/uploads`, {
      method: "POST", body: uploadForm(PNG_1X1, "a.png"), headers: { cookie: "session=not-a-token" },
    });
    await expectError(res, 401, "NOT_AUTHENTICATED");
  });

  test("listing, records, files and plugin assets need a session", async () => {
    for (const path of ["/uploads", "/uploads/1", "/uploads/file/1", "/uploads/file/1?download=true", "/uploads/plugin/calculation-tool/compound-interest/icon.svg"]) {
      await expectError(await fetch(`${server.base}${path}`), 401, "NOT_AUTHENTICATED");
    }
    await expectError(await fetch(`${server.base}/uploads/1`, { method: "DELETE" }), 401, "NOT_AUTHENTICATED");
  });
});
