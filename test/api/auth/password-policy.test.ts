import { describe, expect, test } from "bun:test";
import { passwordProblems, strictPasswordProblems } from "../../../core/users/password.ts";
import { PASSWORD_REQUIREMENTS, unmetPasswordRequirements } from "../../../core/users/password-policy.ts";
import { runCli } from "../../helpers/cli.ts";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";

// One password policy for every path (docs/security.md "Passwords"): registration, the first
// account (the administrator) included, password change, reset and the command-line tool (which adds
// character classes); the web
// app's forms evaluate the same module as the user types.

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

  test("the command-line rule is the policy plus an upper-case letter, a lower-case letter, a digit and a symbol", () => {
    expect(strictPasswordProblems("Password1!")).toEqual(["not one of the most common passwords"]);
    expect(strictPasswordProblems("correct horse battery staple")).toEqual(["an upper-case letter", "a digit"]); // a space is a symbol
    expect(strictPasswordProblems("Secret-pass1")).toEqual([]);
  });

  test("the shared module answers requirement codes, in the order they are listed, which the server words as before", () => {
    expect(PASSWORD_REQUIREMENTS).toEqual(["min_length", "common", "few_distinct", "is_name"]);
    expect(unmetPasswordRequirements("")).toEqual(["min_length", "few_distinct"]);
    // Each requirement is judged on its own: a form must not tick one the password fails.
    expect(unmetPasswordRequirements("11111111")).toEqual(["common", "few_distinct"]);
    expect(unmetPasswordRequirements("aab")).toEqual(["min_length", "few_distinct"]);
    expect(unmetPasswordRequirements("admin")).toEqual(["min_length", "common"]);
    expect(unmetPasswordRequirements("Password123!")).toEqual(["common"]);
    expect(unmetPasswordRequirements("abababab")).toEqual(["few_distinct"]);
    expect(unmetPasswordRequirements("bob.builder", { username: "bob.builder" })).toEqual(["is_name"]);
    expect(unmetPasswordRequirements("carol.smith99", { email: "carol.smith@example.com" })).toEqual(["is_name"]);
    // Names shorter than 3 characters are not compared; a password is not "common" for containing one.
    expect(unmetPasswordRequirements("Secret-pass1", { username: "al" })).toEqual([]);
    expect(unmetPasswordRequirements("überlange-Wörter")).toEqual([]);
    // params.unmet keeps its English phrases, one per code.
    expect(passwordProblems("admin", { username: "admin" })).toEqual(["at least 8 characters", "not one of the most common passwords", "not your user name or e-mail address"]);
    expect(passwordProblems("zzzzzzzz")).toEqual(["more than one or two different characters"]);
    expect(passwordProblems("11111111")).toEqual(["not one of the most common passwords"]);
    expect(passwordProblems("")).toEqual(["at least 8 characters"]);
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

  test("the command-line tool refuses every password the API refuses, for the same reasons, and adds the character classes", async () => {
    // [password, API accepts, CLI accepts]: the expectations keep the comparison from passing on two broken paths.
    const table: [string, boolean, boolean][] = [
      ["correct horse battery staple", true, false], // no upper-case letter, no digit, no symbol
      ["alllower1!", true, false],
      ["NoSymbol12", true, false],
      ["Secret-pass1", true, true],
      ["password", false, false],
      ["Password123!", false, false],
      ["Sh0rt!", false, false],
      ["abababab", false, false],
    ];
    const c = new ApiClient(api.base);
    const seen: { password: string; api: boolean; cli: boolean }[] = [];
    for (const [i, [password]] of table.entries()) {
      const res = await c.post("/auth/register", { username: `same-api${i}`, email: `same-api${i}@example.com`, password });
      const run = await runCli(api.dataDir, "user", "create", `same-cli${i}`, `same-cli${i}@example.com`, password);
      seen.push({ password, api: res.status === 201, cli: run.code === 0 });
      if (res.status === 201) continue;
      // Refused by the policy (a too short password is already refused by the request schema): the same unmet requirements first.
      const body = await expectError(res, 422);
      if (body.code === "WEAK_PASSWORD") expect({ password, starts: run.stderr.trim().startsWith(`Error: Password is too weak: it needs ${body.params.unmet.join(", ")}`) }).toEqual({ password, starts: true });
      else expect(run.stderr).toContain("at least 8 characters");
    }
    expect(seen).toEqual(table.map(([password, api, cli]) => ({ password, api, cli })));
  }, 180_000); // one command-line process per password // one command-line process per password
});
