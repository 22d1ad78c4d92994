import { beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { useBrowser } from "../helpers/browser.ts";
import { ROOT } from "../helpers/server.ts";

// Every page passes an automated accessibility check (axe-core, injected into Chromium) without a
// serious or critical violation, on a desktop and on a 375 px phone, with data on it.
const b = useBrowser({ name: "accessibility", users: ["ada"] });
const AXE_SOURCE = await Bun.file(join(ROOT, "node_modules", "axe-core", "axe.min.js")).text();
const DESKTOP = { width: 1280, height: 860 };
const PHONE_375 = { width: 375, height: 812 };
const ids = { broker: 0, asset: 0 };
type Json = any;

beforeAll(async () => {
  const ada = b.api.as.ada!;
  ids.broker = (await (await ada.post("/brokers", [{ name: "Alpha", opened_at: "2024-01-02", initial_balances: [{ code: "EUR", amount: "5000" }] }])).json()).results[0].broker_id;
  const assets = (await (await ada.post("/assets", [{ name: "ACME", currency: "EUR", asset_type: "STOCK" }, { name: "Bondy", currency: "EUR", asset_type: "BOND" }])).json()).results.map((r: Json) => r.asset_id);
  ids.asset = assets[0];
  const prices = (start: number, seed: number) => {
    const out: { date: string; close: string }[] = [];
    let v = start, s = seed;
    for (let t = Date.now() - 400 * 86_400_000; t <= Date.now(); t += 86_400_000) {
      const d = new Date(t);
      if (d.getUTCDay() === 0 || d.getUTCDay() === 6) continue;
      s = (s * 1103515245 + 12345) % 2147483648;
      v *= 1 + (s / 2147483648 - 0.5) * 0.02;
      out.push({ date: d.toISOString().slice(0, 10), close: v.toFixed(2) });
    }
    return out;
  };
  const acme = prices(100, 3);
  expect((await ada.post("/assets/prices", [{ asset_id: assets[0], prices: acme }, { asset_id: assets[1], prices: prices(50, 9) }])).status).toBe(200);
  const commit = await (await ada.post("/transactions/commit", { creates: [
    { broker_id: ids.broker, type: "BUY", date: acme[0]!.date, asset_id: assets[0], quantity: "10", cash: { code: "EUR", amount: "-1000" } },
    { broker_id: ids.broker, type: "BUY", date: acme[0]!.date, asset_id: assets[1], quantity: "20", cash: { code: "EUR", amount: "-1000" } },
    { broker_id: ids.broker, type: "DIVIDEND", date: acme[100]!.date, asset_id: assets[0], cash: { code: "EUR", amount: "12" } },
    { broker_id: ids.broker, type: "SELL", date: acme[200]!.date, asset_id: assets[1], quantity: "-5", cash: { code: "EUR", amount: "260" } },
  ] })).json();
  expect(commit.committed).toBe(true);
}, 60_000);

/** The serious and critical violations axe-core finds on the page as it is now. */
async function violations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the app's Content-Security-Policy (script-src 'self') refuses an injected <script>.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)) }));
  });
  return found.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${v.targets.join(" ")}`);
}

const PAGES: [string, string, ((page: Page) => Promise<void>)?][] = [
  ["/", "Dashboard", (p) => p.getByTestId("income-year").getByText(/€/).waitFor()],
  ["/holdings", "Holdings"], ["/performance", "Performance"], ["/income", "Income"], ["/gains", "Realised gains"],
  ["/risk", "Risk lab", async (p) => {
    await p.getByRole("button", { name: "Compute" }).click();
    await p.getByRole("heading", { name: "Correlation" }).waitFor({ timeout: 60_000 });
  }],
  ["/tools", "Tools", async (p) => {
    await p.getByLabel("ACME").fill("50");
    await p.getByLabel("Bondy").fill("50");
    await p.getByLabel(/Amount to invest/).fill("500");
    await p.getByRole("button", { name: "Compute the plan" }).click();
    await p.getByRole("heading", { name: "Plan" }).waitFor();
  }],
  ["/brokers", "Brokers"], ["/brokers/{broker}", "Alpha"], ["/transactions", "Transactions"], ["/assets", "Assets"],
  ["/assets/{asset}", "ACME"], ["/fx", "Exchange rates"], ["/import", "Import"], ["/uploads", "Uploads"], ["/settings", "Settings"], ["/admin", "Administration"],
];

for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE_375]] as const) {
  test(`every page has no serious or critical accessibility violation (${name})`, async () => {
    const page = await b.page({ user: "ada", viewport });
    const found: Record<string, string[]> = {};
    for (const [path, heading, ready] of PAGES) {
      await page.goto(b.url(path.replace("{broker}", String(ids.broker)).replace("{asset}", String(ids.asset))));
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
      await page.waitForLoadState("networkidle");
      if (ready) await ready(page);
      const v = await violations(page);
      if (v.length) found[path] = v;
    }
    const anonymous = await b.page({ viewport });
    await anonymous.goto(b.url("/login"));
    await anonymous.getByRole("button").first().waitFor();
    const login = await violations(anonymous);
    if (login.length) found["/login"] = login;
    expect(found).toEqual({});
  }, 240_000);
}
