import { beforeAll, describe, expect, test } from "bun:test";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { runCli } from "../../helpers/cli.ts";
import { queryDb } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";

// alice is the superuser
const api = useApi({ users: ["alice", "bob", "carol"] });
let alice: ApiClient;
let bob: ApiClient;

beforeAll(() => ({ alice, bob } = api.as));

async function newToken(client: ApiClient, body: Record<string, unknown>) {
  const res = await client.post("/auth/tokens", body);
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; token: string; prefix: string; scope: string; admin: boolean };
}

const bearer = (token: string, path: string, init: RequestInit = {}) =>
  fetch(api.base + path, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}`, "content-type": "application/json" } });

describe("personal access tokens", () => {
  test("the secret is shown once, stored only as a hash, and authenticates as its user with Authorization: Bearer", async () => {
    const created = await newToken(bob, { name: "script", scope: "read-write" });
    expect(created.token).toStartWith("pt_");
    expect(created.prefix).toBe(created.token.slice(0, 9));
    const listed = await (await bob.get("/auth/tokens")).json();
    expect(listed.items).toEqual([expect.objectContaining({ id: created.id, name: "script", scope: "read-write", admin: false, expires_at: null })]);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const rows = queryDb<Record<string, unknown>>(api.dataDir, "SELECT * FROM access_tokens WHERE id = ?", created.id);
    expect(JSON.stringify(rows)).not.toContain(created.token);
    expect(rows[0]!.token_hash).toBe(new Bun.CryptoHasher("sha256").update(created.token).digest("hex"));
    const me = await bearer(created.token, "/auth/me");
    expect(me.status).toBe(200);
    expect((await me.json()).user.username).toBe("bob");
    const write = await bearer(created.token, "/brokers", { method: "POST", body: JSON.stringify([{ name: "Via token" }]) });
    expect((await write.json()).success_count).toBe(1);
  });

  test("a read-only token reads (GET and reads with a body) but every write is 403 TOKEN_READ_ONLY", async () => {
    const { token } = await newToken(bob, { name: "dashboard", scope: "read" });
    expect((await bearer(token, "/brokers")).status).toBe(200);
    expect((await bearer(token, "/portfolio/report", { method: "POST", body: JSON.stringify({ include_summary: true }) })).status).toBe(200);
    await expectError(await bearer(token, "/brokers", { method: "POST", body: JSON.stringify([{ name: "Nope" }]) }), 403, "TOKEN_READ_ONLY");
    await expectError(await bearer(token, "/transactions/commit", { method: "POST", body: JSON.stringify({ creates: [] }) }), 403, "TOKEN_READ_ONLY");
  });

  test("a revoked, expired, unknown or malformed token is 401 NOT_AUTHENTICATED", async () => {
    const revoked = await newToken(bob, { name: "revoked", scope: "read" });
    expect((await bob.delete(`/auth/tokens/${revoked.id}`)).status).toBe(200);
    await expectError(await bearer(revoked.token, "/auth/me"), 401, "NOT_AUTHENTICATED");
    const expiring = await newToken(bob, { name: "expiring", scope: "read", expires_at: "2999-01-01T00:00:00Z" });
    expect((await bearer(expiring.token, "/auth/me")).status).toBe(200);
    queryDb(api.dataDir, "UPDATE access_tokens SET expires_at = ? WHERE id = ?", Math.floor(Date.now() / 1000) - 1, expiring.id);
    await expectError(await bearer(expiring.token, "/auth/me"), 401, "NOT_AUTHENTICATED");
    await expectError(await bearer("pt_unknown", "/auth/me"), 401, "NOT_AUTHENTICATED");
    await expectError(await fetch(`${api.base}/auth/me`, { headers: { authorization: "Basic abc" } }), 401, "NOT_AUTHENTICATED");
  });

  test("an expiry in the past is refused (400 TOKEN_EXPIRY_PAST); names are unique per user (409 TOKEN_NAME_TAKEN)", async () => {
    await expectError(await bob.post("/auth/tokens", { name: "old", scope: "read", expires_at: "2000-01-01T00:00:00Z" }), 400, "TOKEN_EXPIRY_PAST");
    await newToken(bob, { name: "twice", scope: "read" });
    await expectError(await bob.post("/auth/tokens", { name: "twice", scope: "read" }), 409, "TOKEN_NAME_TAKEN");
    expect((await api.as.carol!.post("/auth/tokens", { name: "twice", scope: "read" })).status).toBe(201);
  });

  test("a user lists and revokes only their own tokens (another user's token is 404)", async () => {
    const mine = await newToken(alice, { name: "alice-own", scope: "read" });
    await expectError(await bob.delete(`/auth/tokens/${mine.id}`), 404, "TOKEN_NOT_FOUND");
    expect((await (await bob.get("/auth/tokens")).json()).items.map((t: any) => t.name)).not.toContain("alice-own");
  });

  test("tokens cannot manage tokens or the account's credentials (403 TOKEN_NOT_ALLOWED)", async () => {
    const { token, id } = await newToken(bob, { name: "no-mint", scope: "read-write" });
    await expectError(await bearer(token, "/auth/tokens", { method: "POST", body: JSON.stringify({ name: "x", scope: "read" }) }), 403, "TOKEN_NOT_ALLOWED");
    await expectError(await bearer(token, `/auth/tokens/${id}`, { method: "DELETE" }), 403, "TOKEN_NOT_ALLOWED");
    await expectError(await bearer(token, "/auth/users/me", { method: "DELETE" }), 403, "TOKEN_NOT_ALLOWED");
  });

  test("admin-only routes refuse tokens without the admin scope, which only a superuser can create", async () => {
    await expectError(await bob.post("/auth/tokens", { name: "sneaky", scope: "read", admin: true }), 403, "ADMIN_REQUIRED");
    const plain = await newToken(alice, { name: "plain", scope: "read" });
    await expectError(await bearer(plain.token, "/settings/scheduler/log"), 403, "ADMIN_REQUIRED");
    const admin = await newToken(alice, { name: "ops", scope: "read", admin: true });
    expect((await bearer(admin.token, "/settings/scheduler/log")).status).toBe(200);
    const bobs = await newToken(bob, { name: "bob-read", scope: "read" });
    await expectError(await bearer(bobs.token, "/settings/scheduler/log"), 403, "ADMIN_REQUIRED");
  });

  test("a token ends when its user is deactivated, and with the user's sessions (password reset)", async () => {
    const carol = api.as.carol!;
    const { token } = await newToken(carol, { name: "carol-script", scope: "read" });
    expect((await bearer(token, "/auth/me")).status).toBe(200);
    expect((await runCli(api.dataDir, "user", "deactivate", "carol")).code).toBe(0);
    await expectError(await bearer(token, "/auth/me"), 401, "ACCOUNT_DISABLED");
    expect((await runCli(api.dataDir, "user", "activate", "carol")).code).toBe(0);
    expect((await bearer(token, "/auth/me")).status).toBe(200);
    expect((await runCli(api.dataDir, "user", "reset-password", "carol", "N3w-Secret!pass")).code).toBe(0);
    await expectError(await bearer(token, "/auth/me"), 401, "NOT_AUTHENTICATED");
  }, 30_000);

  test("the secret never reaches the server log", async () => {
    const { token } = await newToken(bob, { name: "logged", scope: "read" });
    await bearer(token, "/auth/me");
    expect(JSON.stringify(api.server.logs())).not.toContain(token);
  });
});
