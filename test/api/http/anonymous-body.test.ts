import { describe, expect, test } from "bun:test";
import { expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";

// Every route but the public ones needs a session, and a request without one must not make the
// server read and parse a large body first (Elysia parses JSON before the session check; the
// server accepts bodies up to 1 GiB for uploads): host/http/server.ts, ANONYMOUS_BODY_BYTES.

const api = useApi({ users: ["alice"] });
const KIB = 1024;

function commitBody(rows: number) {
  return JSON.stringify({ transactions: Array.from({ length: rows }, () => ({ type: "DEPOSIT", date: "2024-01-02", broker_id: 1, cash: { code: "EUR", amount: "1" } })) });
}

describe("a request without credentials may not send a large body", () => {
  test("a 1.7 MB JSON body without a session is 401 NOT_AUTHENTICATED, unread; with a session the same body is read", async () => {
    const body = commitBody(20_000);
    expect(body.length).toBeGreaterThan(KIB * KIB);
    const refused = await expectError(await api.client().post("/transactions/commit", body, { "content-type": "application/json" }), 401, "NOT_AUTHENTICATED");
    expect(refused.detail).toBe("Not authenticated: a request without a session may send at most 64 KiB");
    // Signed in, the body is read and validated (broker 1 does not exist for alice: refused per row, not 401).
    const read = await api.as.alice!.post("/transactions/commit", body, { "content-type": "application/json" });
    expect(read.status).not.toBe(401);
    expect(queryDb(api.server.dataDir, "SELECT count(*) AS n FROM transactions")).toEqual([{ n: 0 }]);
  });

  test("a streamed (chunked) body without a session is refused without being read", async () => {
    let pulled = 0;
    const endless = new ReadableStream({ pull(controller) { pulled++; controller.enqueue(new Uint8Array(64 * KIB)); } });
    const res = await fetch(`${api.server.base}/transactions/commit`, {
      method: "POST", body: endless, headers: { "content-type": "application/json" }, duplex: "half",
    } as RequestInit);
    await expectError(res, 401, "NOT_AUTHENTICATED");
    expect(pulled).toBeLessThan(1_000);
  });

  test("the public routes keep working with their small bodies; a bad login is still 401 for its own reason", async () => {
    const bad = await expectError(await api.client().post("/auth/login", { username: "alice", password: "wrong-password-1" }), 401);
    expect(bad.code).not.toBe("NOT_AUTHENTICATED");
    const huge = JSON.stringify({ username: "mallory", email: "m@example.com", password: "x".repeat(100 * KIB) });
    await expectError(await api.client().post("/auth/register", huge, { "content-type": "application/json" }), 401, "NOT_AUTHENTICATED");
  });
});

describe("forged credentials do not open the door to a large body", () => {
  const body = commitBody(2_000);
  test("a session cookie with a bad signature, or an unknown access token: 401 unread", async () => {
    expect(body.length).toBeGreaterThan(64 * KIB);
    const forged = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwiZXhwIjo0MTAyNDQ0ODAwfQ.c2lnbmF0dXJlLW5vdC12YWxpZA";
    const viaCookie = await expectError(await api.client().post("/transactions/commit", body, { cookie: `session=${forged}` }), 401, "NOT_AUTHENTICATED");
    expect(viaCookie.detail).toBe("Not authenticated: a request without a session may send at most 64 KiB");
    const viaToken = await expectError(await api.client().post("/transactions/commit", body, { authorization: "Bearer pt_not-a-real-token" }), 401, "NOT_AUTHENTICATED");
    expect(viaToken.detail).toBe("Not authenticated: a request without a session may send at most 64 KiB");
  });

  test("a session ended by its logout: 401 unread, though its token is still signed and unexpired", async () => {
    const device = api.client();
    await device.signUp("logged-out", "Secret-pass1");
    const ended = device.cookie;
    expect((await device.post("/auth/logout")).status).toBe(200);
    const res = await expectError(await api.client().post("/transactions/commit", body, { cookie: ended, "content-type": "application/json" }), 401, "NOT_AUTHENTICATED");
    expect(res.detail).toBe("Not authenticated: a request without a session may send at most 64 KiB");
  });

  test("a real access token may send the same body", async () => {
    const created = await api.as.alice!.post("/auth/tokens", { name: "bulk", scope: "read-write" });
    expect(created.status).toBe(201);
    const { token } = await created.json();
    const res = await api.client().post("/transactions/commit", body, { authorization: `Bearer ${token}` });
    expect(res.status).not.toBe(401);
  });
});
