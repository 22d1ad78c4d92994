import { afterAll, beforeAll, expect, test } from "bun:test";
import { useBrowser } from "../helpers/browser.ts";

// The app under its Content-Security-Policy (docs/security.md "Browser headers"): it still works (no
// violation while a signed-in user goes through its pages), and a page of another site cannot frame it.
const b = useBrowser({ name: "browser-policy", users: ["alice"] });

/** Records every CSP violation of a page (and its frames) in `window.__violations`. */
const RECORD_VIOLATIONS = () => {
  (window as unknown as { __violations: string[] }).__violations = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    (window as unknown as { __violations: string[] }).__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
  });
};

let attacker: ReturnType<typeof Bun.serve> | undefined;
beforeAll(() => {
  // Another site (another origin: its own port) that tries to frame the app.
  attacker = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(`<!DOCTYPE html><html><body><h1>Other site</h1><iframe id="victim" src="${b.url("/brokers")}" width="800" height="600"></iframe></body></html>`, {
      headers: { "content-type": "text/html" },
    }),
  });
});
afterAll(() => attacker?.stop(true));

test("the app works under its policy: a signed-in user's pages load with no CSP violation", async () => {
  await b.api.as.alice!.post("/brokers", [{ name: "Main account" }]);
  const page = await b.page({ user: "alice" });
  await page.addInitScript(RECORD_VIOLATIONS);
  const response = await page.goto(b.url("/"));
  expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  for (const [link, heading] of [["Brokers", "Brokers"], ["Assets", "Assets"], ["Transactions", "Transactions"], ["Settings", "Settings"]] as const) {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: link }).click();
    await page.getByRole("heading", { name: heading, exact: true }).first().waitFor();
  }
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Brokers" }).click();
  await page.getByText("Main account").first().waitFor();
  expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
  expect(b.errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
});

test("the API reference (Swagger UI and ReDoc) renders under its policy, offline, without inline script", async () => {
  const page = await b.page();
  await page.addInitScript(RECORD_VIOLATIONS);
  await page.goto(b.url("/api/v1/docs"));
  // Both renderers lay out the whole OpenAPI document (hundreds of schemas) before the title shows:
  // seconds of CPU, more on a busy machine, so the wait is not the default 15 s.
  await page.locator(".swagger-ui .info .title").first().waitFor({ timeout: 90_000 });
  const redoc = await b.page();
  await redoc.addInitScript(RECORD_VIOLATIONS);
  await redoc.goto(b.url("/api/v1/redoc"));
  await redoc.getByRole("heading", { name: /Portfolio Tracker API/ }).first().waitFor({ timeout: 90_000 });
  expect(await redoc.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
  const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
  // Nothing refused at all: no inline script, and nothing fetched from another host (a CDN logo or
  // font), so the reference works on a server without internet access.
  expect(violations).toEqual([]);
}, 240_000);

test("another site cannot frame the app", async () => {
  const page = await b.page({ user: "alice" });
  await page.goto(`http://127.0.0.1:${attacker!.port}/`);
  await page.getByRole("heading", { name: "Other site" }).waitFor();
  // Give the frame time to load if it were allowed to: a framed app would render into #app.
  await page.waitForTimeout(1500);
  const frames = page.frames().filter((f) => f !== page.mainFrame());
  expect(frames.length).toBe(1);
  let rendered = 0;
  for (const f of frames) rendered += await f.locator("#app *").count().catch(() => 0);
  expect(rendered).toBe(0);
});
