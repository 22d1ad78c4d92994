import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { runCli } from "../../helpers/cli.ts";
import { jwtClaims, tokenOf } from "../../helpers/jwt.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

// CLI runs and password hashes take seconds on a loaded machine.
setDefaultTimeout(30_000);

const api = useApi();
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = api.server;
  admin = new ApiClient(server.base);
  await admin.signUp("admin");
});

function sessionCookie(res: Response): string {
  const c = res.headers.getSetCookie().find((h) => h.startsWith("session="));
  expect(c).toBeDefined();
  return c!;
}

describe("session cookie", () => {
  test("login sets an HTTP-only session cookie whose max age and token exp follow session_ttl_hours", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("ttl-user");
    const res = await c.login("ttl-user");
    const cookie = sessionCookie(res);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Max-Age=86400/);
    expect(cookie).not.toMatch(/Secure/i);
    const claims = jwtClaims(tokenOf(c.cookie));
    expect(claims.sub).toBe(String((await res.json()).user.id));
    expect(claims.exp - claims.iat).toBe(24 * 3600);
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(60);
  });

  test("a changed session_ttl_hours applies from the next login only", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("ttl-change");
    const before = c.cookie;
    expect((await admin.patch("/settings/global/bulk", { items: [{ key: "session_ttl_hours", value: "2" }] })).status).toBe(200);
    expect((await c.get("/auth/me")).status).toBe(200);
    expect(jwtClaims(tokenOf(before)).exp - jwtClaims(tokenOf(before)).iat).toBe(24 * 3600);
    const res = await c.login("ttl-change");
    expect(sessionCookie(res)).toMatch(/Max-Age=7200/);
    const claims = jwtClaims(tokenOf(c.cookie));
    expect(claims.exp - claims.iat).toBe(7200);
    await admin.patch("/settings/global/bulk", { items: [{ key: "session_ttl_hours", value: "24" }] });
  });

  test("the cookie is Secure when X-Forwarded-Proto is https", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("secure-user");
    const res = await c.post("/auth/login", { username: "secure-user", password: "Secret-pass1" }, { "x-forwarded-proto": "https" });
    expect(sessionCookie(res)).toMatch(/;\s*Secure/i);
  });

  test("login works with the email as username", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("mail-user");
    const res = await c.post("/auth/login", { username: "mail-user@example.com", password: "Secret-pass1" });
    expect(res.status).toBe(200);
    expect((await res.json()).user.username).toBe("mail-user");
  });

  test("wrong credentials give 401 INVALID_CREDENTIALS and no cookie", async () => {
    const c = new ApiClient(server.base);
    const res = await c.post("/auth/login", { username: "admin", password: "wrong-password" });
    expect(res.headers.getSetCookie().some((h) => h.startsWith("session="))).toBe(false);
    await expectError(res, 401, "INVALID_CREDENTIALS");
    await expectError(await c.post("/auth/login", { username: "nobody", password: "wrong-password" }), 401, "INVALID_CREDENTIALS");
  });

  test("logout clears the cookie and revokes the token (replaying it is 401)", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("logout-user");
    const token = c.cookie;
    const res = await c.post("/auth/logout");
    expect(res.status).toBe(200);
    expect(sessionCookie(res)).toMatch(/Max-Age=0/);
    expect(c.cookie).toBe("");
    await expectError(await c.get("/auth/me"), 401, "NOT_AUTHENTICATED");
    const replay = await fetch(`${server.base}/auth/me`, { headers: { cookie: token } });
    await expectError(replay, 401, "NOT_AUTHENTICATED");
  });
});

describe("session validation", () => {
  test("no cookie, garbage, a tampered signature and an expired token all give 401 NOT_AUTHENTICATED", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("tamper-user");
    const [h, p, s] = tokenOf(c.cookie).split(".");
    const forged = Buffer.from(JSON.stringify({ ...jwtClaims(`${h}.${p}.${s}`), sub: "1" })).toString("base64url");
    const expired = Buffer.from(JSON.stringify({ sub: "1", iat: 1, exp: 2 })).toString("base64url");
    for (const cookie of ["", "session=garbage", `session=${h}.${forged}.${s}`, `session=${h}.${expired}.${s}`]) {
      const res = await fetch(`${server.base}/auth/me`, { headers: cookie ? { cookie } : {} });
      const body = await expectError(res, 401, "NOT_AUTHENTICATED");
      expect(body.detail).toBe("Not authenticated");
    }
  });

  test("a token signed with the none algorithm is refused", async () => {
    const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const payload = Buffer.from(JSON.stringify({ sub: "1", iat: 1, exp: 9999999999 })).toString("base64url");
    const res = await fetch(`${server.base}/auth/me`, { headers: { cookie: `session=${header}.${payload}.` } });
    await expectError(res, 401, "NOT_AUTHENTICATED");
  });
});

describe("account state through the command-line tool", () => {
  test("deactivation: next request gets 401 'User account is disabled', login gets 401 'Account is disabled'", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("to-disable");
    expect((await c.get("/auth/me")).status).toBe(200);
    const run = await runCli(server.dataDir, "user", "deactivate", "to-disable");
    expect(run.code).toBe(0);
    const me = await expectError(await c.get("/auth/me"), 401);
    expect(me.detail).toBe("User account is disabled");
    const login = await expectError(await new ApiClient(server.base).login("to-disable"), 401);
    expect(login.detail).toBe("Account is disabled");
    // a wrong password never learns that the account is disabled
    const wrong = await expectError(await new ApiClient(server.base).login("to-disable", "Wrong-pass1"), 401);
    expect(wrong.detail).toBe("Invalid credentials");
    expect((await runCli(server.dataDir, "user", "activate", "to-disable")).code).toBe(0);
    expect((await c.get("/auth/me")).status).toBe(200);
  });

  test("promotion and demotion apply at the next request", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("climber");
    await expectError(await c.get("/users"), 403, "ADMIN_REQUIRED");
    expect((await runCli(server.dataDir, "user", "promote", "climber")).code).toBe(0);
    expect((await c.get("/users")).status).toBe(200);
    expect((await (await c.get("/auth/me")).json()).user.is_superuser).toBe(true);
    expect((await runCli(server.dataDir, "user", "demote", "climber")).code).toBe(0);
    await expectError(await c.get("/users"), 403, "ADMIN_REQUIRED");
  });

  test("password reset ends earlier sessions, the new password logs in", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("resetter");
    const oldToken = c.cookie;
    expect((await runCli(server.dataDir, "user", "reset-password", "resetter", "N3w-Passw0rd!")).code).toBe(0);
    await expectError(await fetch(`${server.base}/auth/me`, { headers: { cookie: oldToken } }), 401, "NOT_AUTHENTICATED");
    await expectError(await new ApiClient(server.base).login("resetter"), 401, "INVALID_CREDENTIALS");
    expect((await new ApiClient(server.base).login("resetter", "N3w-Passw0rd!")).status).toBe(200);
  });
});
