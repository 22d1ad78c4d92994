import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { runCli } from "../../helpers/cli.ts";
import { jwtClaims, tokenOf } from "../../helpers/jwt.ts";
import { useApi } from "../../helpers/server.ts";

// Sessions that can be ended (docs/security.md "Sessions"). Tokens stay stateless (signed,
// checked without a session table) but carry a jti and the account's session epoch.

// Each step hashes or verifies a password (argon2): on a loaded machine a sequence takes seconds.
setDefaultTimeout(60_000);

const api = useApi({ users: ["admin"] });
const PASSWORD = "Secret-pass1";

/** A fresh account and two separate logged-in sessions of it (two devices). */
async function twoSessions(name: string): Promise<[ApiClient, ApiClient]> {
  const first = api.client();
  await first.signUp(name, PASSWORD);
  const second = api.client();
  expect((await second.login(name, PASSWORD)).status).toBe(200);
  return [first, second];
}

const me = (cookie: string) => fetch(`${api.base}/auth/me`, { headers: { cookie } });

describe("tokens can be ended", () => {
  test("every token carries a unique jti besides sub, iat and exp", async () => {
    const [a, b] = await twoSessions("jti-user");
    const [ca, cb] = [jwtClaims(tokenOf(a.cookie)), jwtClaims(tokenOf(b.cookie))];
    expect(Object.keys(ca)).toEqual(expect.arrayContaining(["sub", "iat", "exp", "jti"]));
    expect(ca.jti).not.toBe(cb.jti);
  });

  test("a token reused after logout is refused; the account's other session stays valid", async () => {
    const [a, b] = await twoSessions("logout-reuse");
    const stolen = a.cookie;
    expect((await a.post("/auth/logout")).status).toBe(200);
    await expectError(await me(stolen), 401, "NOT_AUTHENTICATED");
    expect((await b.get("/auth/me")).status).toBe(200);
  });

  test("a password change ends every earlier session; the changing session goes on with a new token", async () => {
    const [a, b] = await twoSessions("change-pw");
    const before = a.cookie;
    const res = await a.post("/auth/change-password", { current_password: PASSWORD, new_password: "Another-pass2" });
    expect(res.status).toBe(200);
    expect(a.cookie).not.toBe(before);
    await expectError(await me(before), 401, "NOT_AUTHENTICATED");
    await expectError(await b.get("/auth/me"), 401, "NOT_AUTHENTICATED");
    expect((await a.get("/auth/me")).status).toBe(200);
    expect((await api.client().login("change-pw", "Another-pass2")).status).toBe(200);
    await expectError(await api.client().login("change-pw", PASSWORD), 401, "INVALID_CREDENTIALS");
  });

  test("a wrong or unchanged current password is 400 and ends nothing", async () => {
    const [a, b] = await twoSessions("change-pw-refused");
    await expectError(await a.post("/auth/change-password", { current_password: "wrong-one", new_password: "Another-pass2" }), 400, "INVALID_PASSWORD");
    await expectError(await a.post("/auth/change-password", { current_password: PASSWORD, new_password: PASSWORD }), 400, "PASSWORD_UNCHANGED");
    expect((await b.get("/auth/me")).status).toBe(200);
  });

  test("a password reset through the CLI ends every earlier session", async () => {
    const [a, b] = await twoSessions("cli-reset");
    const run = await runCli(api.dataDir, "user", "reset-password", "cli-reset", "N3w-Passw0rd!");
    expect(run.code).toBe(0);
    await expectError(await a.get("/auth/me"), 401, "NOT_AUTHENTICATED");
    await expectError(await b.get("/auth/me"), 401, "NOT_AUTHENTICATED");
    expect((await api.client().login("cli-reset", "N3w-Passw0rd!")).status).toBe(200);
  });

  test("an admin ends all sessions of a user; others may not (403); an unknown user is 404", async () => {
    const [a, b] = await twoSessions("ended-by-admin");
    const id = (await (await a.get("/auth/me")).json()).user.id;
    await expectError(await a.delete(`/users/${api.users.admin!.id}/sessions`), 403, "ADMIN_REQUIRED");
    expect((await api.as.admin!.delete(`/users/${id}/sessions`)).status).toBe(200);
    await expectError(await a.get("/auth/me"), 401, "NOT_AUTHENTICATED");
    await expectError(await b.get("/auth/me"), 401, "NOT_AUTHENTICATED");
    expect((await api.client().login("ended-by-admin", PASSWORD)).status).toBe(200);
    await expectError(await api.as.admin!.delete("/users/999999/sessions"), 404, "USER_NOT_FOUND");
    expect((await api.as.admin!.get("/auth/me")).status).toBe(200);
  });
});
