import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { PNG_1X1, storedFiles, uploadForm } from "../../fixtures/uploads/files.ts";

const api = useApi({ users: ["owner-admin", "alice", "bob"] });
let server: TestServer;
let admin: ApiClient;
let alice: ApiClient;
let bob: ApiClient;

beforeAll(() => {
  server = api.server;
  ({ "owner-admin": admin, alice, bob } = api.as as Record<string, ApiClient>);
});

async function upload(client: ApiClient, name: string): Promise<number> {
  const res = await client.post("/uploads", uploadForm(PNG_1X1, name));
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

// Uploads (often broker statements) are private to their uploader (docs/security.md "Uploads").
describe("uploads are private to their uploader; administrators list and delete them for cleanup", () => {
  test("another user's upload is 404 for its record, its bytes and its deletion, as if it did not exist", async () => {
    const id = await upload(alice, "alice.png");
    await expectError(await bob.get(`/uploads/${id}`), 404, "UPLOAD_NOT_FOUND");
    await expectError(await bob.get(`/uploads/file/${id}`), 404, "UPLOAD_NOT_FOUND");
    await expectError(await bob.get(`/uploads/file/${id}?download=true`), 404, "UPLOAD_NOT_FOUND");
    await expectError(await bob.delete(`/uploads/${id}`), 404, "UPLOAD_NOT_FOUND");
    expect((await alice.get(`/uploads/${id}`)).status).toBe(200);
    expect((await alice.get(`/uploads/file/${id}`)).status).toBe(200);
  });

  test("the uploader deletes the record and the bytes; afterwards the id is 404", async () => {
    const id = await upload(alice, "gone.png");
    const before = storedFiles(server.dataDir).length;
    const res = await alice.delete(`/uploads/${id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, deleted_count: 1 });
    expect(storedFiles(server.dataDir).length).toBe(before - 1);
    await expectError(await alice.get(`/uploads/${id}`), 404, "UPLOAD_NOT_FOUND");
    await expectError(await alice.get(`/uploads/file/${id}`), 404, "UPLOAD_NOT_FOUND");
    await expectError(await alice.delete(`/uploads/${id}`), 404, "UPLOAD_NOT_FOUND");
  });

  test("an administrator sees anyone's record and may delete it, but does not read its bytes", async () => {
    const id = await upload(bob, "bob.png");
    expect((await admin.get(`/uploads/${id}`)).status).toBe(200);
    await expectError(await admin.get(`/uploads/file/${id}`), 404, "UPLOAD_NOT_FOUND");
    expect((await admin.delete(`/uploads/${id}`)).status).toBe(200);
    await expectError(await bob.get(`/uploads/${id}`), 404, "UPLOAD_NOT_FOUND");
  });

  test("an unknown id is 404 UPLOAD_NOT_FOUND; a non-numeric id is 422", async () => {
    await expectError(await alice.get("/uploads/999999"), 404, "UPLOAD_NOT_FOUND");
    await expectError(await alice.get("/uploads/file/999999"), 404, "UPLOAD_NOT_FOUND");
    await expectError(await alice.get("/uploads/abc"), 422, "VALIDATION_ERROR");
  });

  test("a user's list holds only their own files, whatever my_files_only says; an administrator's holds everyone's", async () => {
    const first = await upload(alice, "one.png");
    const second = await upload(bob, "two.png");
    for (const query of ["", "?my_files_only=false", "?my_files_only=true"]) {
      const ids = (await (await alice.get(`/uploads${query}`)).json()).items.map((i: any) => i.id);
      expect(ids).toContain(first);
      expect(ids).not.toContain(second);
    }
    const all = (await (await admin.get("/uploads")).json()).items.map((i: any) => i.id);
    expect(all.indexOf(second)).toBeLessThan(all.indexOf(first));
    const adminsOwn = (await (await admin.get("/uploads?my_files_only=true")).json()).items.map((i: any) => i.id);
    expect(adminsOwn).not.toContain(first);
  });
});
