import { expect, test } from "bun:test";
import { useBrowser } from "../helpers/browser.ts";

// The server's password policy shown in the forms as the user types (docs/security.md "Passwords"):
// the first account of a new server, which becomes its administrator, and the own password in Settings.
const b = useBrowser({ name: "password-policy" });

const pageErrors = () => b.errors.filter((e) => !e.includes("Failed to load resource"));

test("typing `password` in the first-account registration form marks \"not one of the most common passwords\" unmet and keeps the button disabled; a good one enables it and registers", async () => {
  const page = await b.page();
  await page.goto(b.url("/register"));
  await page.getByLabel("User name").fill("admin");
  await page.getByLabel("E-mail").fill("admin@example.com");
  const create = page.getByRole("button", { name: "Create account" });
  const rules = page.getByTestId("password-rules");
  const common = rules.getByRole("listitem").filter({ hasText: "Not one of the most common passwords" });

  await page.getByLabel("Password", { exact: true }).pressSequentially("password");
  expect(await common.getAttribute("data-met")).toBe("false");
  expect(await common.textContent()).toContain("(not met)");
  expect(await rules.getAttribute("aria-live")).toBe("polite");
  expect(await create.isDisabled()).toBe(true);
  await b.shot(page, "register-common");

  // The account's own name is refused as it is typed too.
  await page.getByLabel("Password", { exact: true }).fill("admin@example.com");
  await rules.locator('[data-requirement="is_name"][data-met="false"]').waitFor();
  expect(await create.isDisabled()).toBe(true);

  await page.getByLabel("Password", { exact: true }).fill("");
  await page.getByLabel("Password", { exact: true }).pressSequentially("Secret-pass1");
  expect(await rules.locator('[data-met="false"]').count()).toBe(0);
  expect(await common.getAttribute("data-met")).toBe("true");
  expect(await create.isDisabled()).toBe(false);
  await create.click();
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();

  const login = await fetch(`${b.api.server.base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: "Secret-pass1" }) });
  expect(login.status).toBe(200);
  expect((await login.json()).user).toMatchObject({ username: "admin", is_superuser: true });
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("Settings changes the own password: requirements as typed, the API's refusal of a wrong current password shown, success said, this session goes on", async () => {
  const page = await b.page();
  await page.goto(b.url("/login?next=/settings"));
  await page.getByLabel("User name or e-mail").fill("admin");
  await page.getByLabel("Password", { exact: true }).fill("Secret-pass1");
  await page.getByRole("button", { name: "Sign in" }).click();
  const form = page.getByTestId("change-password");
  await form.getByRole("heading", { name: "Change my password" }).waitFor();
  const change = form.getByRole("button", { name: "Change password" });

  await form.getByLabel("Current password").fill("Wrong-pass-9");
  await form.getByLabel("New password", { exact: true }).pressSequentially("qwertyuiop");
  await form.locator('[data-requirement="common"][data-met="false"]').waitFor();
  expect(await change.isDisabled()).toBe(true);

  await form.getByLabel("New password", { exact: true }).fill("Another-pass-7");
  await form.getByLabel("Repeat the new password").fill("Another-pass-7");
  expect(await change.isDisabled()).toBe(false);
  await change.click();
  await form.getByRole("alert").getByText("The current password is wrong.").waitFor();

  await form.getByLabel("Current password").fill("Secret-pass1");
  await change.click();
  await form.getByRole("status").getByText("Your password was changed. Your other sessions were ended; this one goes on.").waitFor();
  // This session goes on (the API set a new cookie); the old password no longer signs in, the new one does.
  await page.reload();
  await form.getByRole("heading", { name: "Change my password" }).waitFor();
  const signIn = (password: string) => fetch(`${b.api.server.base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password }) });
  expect((await signIn("Secret-pass1")).status).toBe(401);
  expect((await signIn("Another-pass-7")).status).toBe(200);
  expect(pageErrors()).toEqual([]);
}, 60_000);
