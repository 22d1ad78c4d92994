import { describe, expect, test } from "bun:test";
import { passwordProblems, strictPasswordProblems } from "../../../core/users/password.ts";
import { runCli } from "../../helpers/cli.ts";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";

// One password policy for every path (docs/security.md "Passwords"): registration, the first
// account (the administrator) included, password change, and the command-line tool, which adds
// character classes.

describe("the policy", () => {
  test("length, the most common passwords (with digits or symbols appended) and the account's own name are refused", () => {
    expect(passwordProblems("short1!")).toEqual(["at least 8 characters"]);
    for (const weak of ["password", "Password", "Password123!", "P@ssw0rd", "12345678", "qwertyuiop", "iloveyou2024", "aaaaaaaa", "abababab"]) {
      expect({ weak, problems: passwordProblems(weak) }).not.toEqual({ weak, problems: [] });
    }
    expect(passwordProblems("Alice-wonder", { username: "alice-wonder" })).toEqual(["not your user name or e-mail address"]);
    expect(passwordProblems("carol.smith99", { email: "carol.smith@example.com" })).toEqual(["not your user name or e-mail address"]);
    for (const fine of ["Secret-pass1", "correct horse battery staple", "tr0ub4dor&3x", "überlange-Wörter"]) {
      expect({ fine, problems: passwordProblems(fine, { username: "alice" }) }).toEqual({ fine, problems: [] });
    }
  });

  test("the command-line rule is the same policy plus character classes", () => {
    expect(strictPasswordProblems("Password1!")).toContain("not one of the most common passwords");
    expect(strictPasswordProblems("correct horse battery staple")).toEqual(["an upper-case letter", "a digit"]);
    expect(strictPasswordProblems("Secret-pass1")).toEqual([]);
  });
});

describe("every path", () => {
  const api = useApi();

  test("the first account (the administrator) cannot register with `password`; nothing is created", async () => {
    const c = new ApiClient(api.base);
    const res = await c.post("/auth/register", { username: "admin", email: "admin@example.com", password: "password" });
    const body = await expectError(res, 422, "WEAK_PASSWORD");
    expect(body.detail).toEqual([{ loc: ["body", "password"], msg: "The password needs: not one of the most common passwords", type: "password_policy" }]);
    expect(body.params).toEqual({ unmet: ["not one of the most common passwords"] });
    // The next registration is still the first account.
    const ok = await c.post("/auth/register", { username: "admin", email: "admin@example.com", password: "Secret-pass1" });
    expect(ok.status).toBe(201);
    expect((await ok.json()).user.is_superuser).toBe(true);
  });

  test("registration refuses the user name as password", async () => {
    const res = await new ApiClient(api.base).post("/auth/register", { username: "bob.builder", email: "bob@example.com", password: "bob.builder" });
    await expectError(res, 422, "WEAK_PASSWORD");
  });

  test("a password change to a common password is refused and the old password still works", async () => {
    const c = new ApiClient(api.base);
    await c.signUp("carol");
    const res = await c.post("/auth/change-password", { current_password: "Secret-pass1", new_password: "Password2024!" });
    const body = await expectError(res, 422, "WEAK_PASSWORD");
    expect(body.detail[0].loc).toEqual(["body", "new_password"]);
    expect((await new ApiClient(api.base).login("carol", "Secret-pass1")).status).toBe(200);
  });

  test("the command-line reset refuses a common password and the account's name", async () => {
    await new ApiClient(api.base).signUp("dave");
    const common = await runCli(api.dataDir, "user", "reset-password", "dave", "Password1!");
    expect(common.code).not.toBe(0);
    expect(common.stderr + common.stdout).toContain("not one of the most common passwords");
    const own = await runCli(api.dataDir, "user", "reset-password", "dave", "Builder-dave9!");
    expect(own.code).toBe(0);
    const name = await runCli(api.dataDir, "user", "create", "erin-admin", "erin@example.com", "Ops-erin42!");
    expect(name.code).toBe(0);
    const same = await runCli(api.dataDir, "user", "create", "frank.ops", "frank@example.com", "Frank.ops1");
    expect(same.stderr + same.stdout).toContain("not your user name");
    expect(same.code).not.toBe(0);
  });
});
