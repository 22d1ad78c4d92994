import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { formatDecimal, formatMoney, formatPercent } from "../../web/src/lib/format.ts";
import { fractionText, ratioText } from "../../web/src/lib/risk-format.ts";
import { useBrowser } from "../helpers/browser.ts";

// The risk lab, the tools and the administration page show the API's answers: a small portfolio
// with two years of daily prices is seeded through the API, and each figure on a page is compared
// with the API's own answer to the same question, formatted as the page formats it.
const b = useBrowser({ name: "risk-tools-admin", users: ["rita", "tom"] });

const PHONE_375 = { width: 375, height: 812 };
const eur = (amount: string | null | undefined) => formatMoney(amount, "EUR", "en-US");
const pct = (v: number | null) => fractionText(v, "en-US");
const pageErrors = () => b.errors.filter((e) => !e.includes("Failed to load resource"));
type Json = any;
const ids = { alpha: 0, acme: 0, bondy: 0, world: 0 };

const post = async (path: string, body: unknown, user = "rita"): Promise<Json> => {
  const res = await b.api.as[user]!.post(path, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
};

/** Weekday closes from two years ago to today, a deterministic random walk per seed. */
function daily(start: number, seed: number, drift: number) {
  const out: { date: string; close: string }[] = [];
  let v = start, s = seed;
  const end = Date.now();
  for (let t = end - 730 * 86_400_000; t <= end; t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() === 0 || d.getUTCDay() === 6) continue;
    s = (s * 1103515245 + 12345) % 2147483648;
    v *= 1 + drift + (s / 2147483648 - 0.5) * 0.03;
    out.push({ date: d.toISOString().slice(0, 10), close: v.toFixed(2) });
  }
  return out;
}

beforeAll(async () => {
  const rita = b.api.as.rita!;
  const brokers = await (await rita.post("/brokers", [{ name: "Alpha", opened_at: "2020-01-02", initial_balances: [{ code: "EUR", amount: "20000" }] }])).json();
  ids.alpha = brokers.results[0].broker_id;
  const assets = await (await rita.post("/assets", [
    { name: "ACME", currency: "EUR", asset_type: "STOCK" }, { name: "Bondy", currency: "EUR", asset_type: "BOND" },
    { name: "World Index", currency: "EUR", asset_type: "INDEX" },
  ])).json();
  [ids.acme, ids.bondy, ids.world] = assets.results.map((r: Json) => r.asset_id);
  const prices = { acme: daily(100, 7, 0.0006), bondy: daily(95, 11, 0.0001), world: daily(1000, 23, 0.0003) };
  expect((await rita.post("/assets/prices", [
    { asset_id: ids.acme, prices: prices.acme }, { asset_id: ids.bondy, prices: prices.bondy }, { asset_id: ids.world, prices: prices.world },
  ])).status).toBe(200);
  const first = prices.acme[0]!.date;
  const commit = await (await rita.post("/transactions/commit", { creates: [
    { broker_id: ids.alpha, type: "BUY", date: first, asset_id: ids.acme, quantity: "40", cash: { code: "EUR", amount: "-4000" } },
    { broker_id: ids.alpha, type: "BUY", date: first, asset_id: ids.bondy, quantity: "50", cash: { code: "EUR", amount: "-4750" } },
    { broker_id: ids.alpha, type: "DIVIDEND", date: `${new Date().toISOString().slice(0, 4)}-01-02`, asset_id: ids.acme, cash: { code: "EUR", amount: "42.5" } },
  ] })).json();
  expect(commit.committed).toBe(true);
}, 60_000);

const within = (page: Page, testid: string, col: string) => page.getByTestId(testid).locator(`[data-col="${col}"]`);
async function expectCell(page: Page, testid: string, col: string, text: string) {
  await within(page, testid, col).getByText(text, { exact: true }).waitFor();
}

/** The lab's start date: three years back from today (its default period). */
function threeYearsAgo(): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - 3);
  return d.toISOString().slice(0, 10);
}

test("risk lab: KPIs, VaR, comparison, stress, simulation, frontier and correlation equal the API's answers, each with its status", async () => {
  const page = await b.page({ user: "rita" });
  await page.goto(b.url("/"));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Risk lab" }).click();
  await page.getByRole("heading", { name: "Risk lab", level: 1 }).waitFor();
  await page.getByLabel("Benchmark").selectOption({ label: "World Index" });
  await page.getByLabel("Confidence level").selectOption({ label: "99.00 %" });
  await page.getByRole("button", { name: "Compute" }).click();
  await page.getByRole("heading", { name: "Correlation" }).waitFor({ timeout: 60_000 });

  const start = threeYearsAgo();
  const scope = { kind: "portfolio" }, date_range = { start }, target_currency = "EUR";
  const current = { mode: "current_composition", composition_policy: "current_buy_and_hold" };
  const figures = (await post("/risk/query", { scope, date_range, target_currency, mode: "historical", analytics: [
    { instance_id: "kpi", analytic_code: "historical_kpi", parameters: { risk_free_rate: 0 } },
    { instance_id: "var", analytic_code: "historical_var", parameters: { confidence_level: 0.99, horizon_days: 1, method: "historical" } },
    { instance_id: "comparison", analytic_code: "comparison", parameters: { benchmark_asset_id: ids.world, risk_free_rate: 0 } },
  ] })).items;
  const kpi = figures[0].output.metrics;
  await expectCell(page, "risk-kpi", "annualized_return", pct(kpi.annualized_return));
  await expectCell(page, "risk-kpi", "annualized_volatility", pct(kpi.annualized_volatility));
  await expectCell(page, "risk-kpi", "sharpe_ratio", ratioText(kpi.sharpe_ratio, "en-US"));
  await expectCell(page, "risk-kpi", "max_drawdown", pct(kpi.max_drawdown));
  await expectCell(page, "risk-var", "var", pct(figures[1].output.var));
  await expectCell(page, "risk-var", "cvar", pct(figures[1].output.cvar));
  await expectCell(page, "risk-var", "var_amount", eur(figures[1].output.var_amount));
  await expectCell(page, "risk-comparison", "beta", ratioText(figures[2].output.metrics.beta, "en-US"));
  // Each envelope says which method ran and its status as the API gives them.
  await page.getByTestId("envelope-var").locator('[data-field="method"]').getByText("historical", { exact: true }).waitFor();
  expect(await page.getByTestId("envelope-kpi").locator('[data-field="status"]').textContent()).toBe(figures[0].status === "ok" ? "ok" : figures[0].status);

  const [stress] = (await post("/risk/query", { scope, date_range, target_currency, ...current, analytics: [{ instance_id: "stress", analytic_code: "stress", parameters: { scenario_id: "equity_crash" } }] })).items;
  await expectCell(page, "risk-stress", "portfolio_return", pct(stress.output.portfolio_return));
  await expectCell(page, "risk-stress", "pnl_amount", eur(stress.output.pnl_amount));

  const [sim] = (await post("/risk/query", { scope, date_range, target_currency, ...current, analytics: [{ instance_id: "simulation", analytic_code: "simulation", parameters: { method: "bootstrap", paths: 1000, horizon_days: 252 } }] })).items;
  await expectCell(page, "risk-simulation", "p50", pct(sim.output.terminal.p50));
  await expectCell(page, "risk-simulation", "probability_of_loss", pct(sim.output.terminal.probability_of_loss));
  await page.getByText("Chart as a table").click();
  await expectCell(page, "sim-p95", "value", eur(sim.output.terminal_value.p95));

  const frontier = (await post("/risk/query", { scope, date_range, target_currency, ...current, analytics: [
    { instance_id: "min_risk", analytic_code: "portfolio_optimization", parameters: { objective: "min_risk", risk_free_rate: 0 } },
    { instance_id: "current", analytic_code: "historical_kpi", parameters: { risk_free_rate: 0 } },
    { instance_id: "correlation", analytic_code: "correlation", parameters: {} },
  ] })).items;
  await expectCell(page, "frontier-min_risk", "volatility", pct(frontier[0].output.volatility));
  await expectCell(page, "frontier-current", "return", pct(frontier[1].output.metrics.annualized_return));
  const w = frontier[0].output.weights.find((x: Json) => x.asset_id === ids.acme);
  await expectCell(page, `weights-${ids.acme}`, "min_risk", pct(w.weight));
  const corr = frontier[2].output;
  await page.getByTestId("risk-correlation").locator('[data-cell="0-1"]').getByText(ratioText(corr.values[0][1], "en-US"), { exact: true }).waitFor();
  await page.getByRole("img", { name: "Annualised volatility against annualised return" }).waitFor();
  await b.shot(page, "risk-lab");
  expect(pageErrors()).toEqual([]);
}, 120_000);

test("risk lab: a long run shows its step and can be cancelled; the sections done so far stay", async () => {
  const page = await b.page({ user: "rita" });
  // Each query is held for a while so the run is long enough to cancel.
  await page.route("**/api/v1/risk/query", async (route) => { await new Promise((r) => setTimeout(r, 1500)); await route.continue().catch(() => {}); });
  await page.goto(b.url("/risk"));
  await page.getByRole("button", { name: "Compute" }).click();
  await page.getByTestId("risk-progress").getByText(/Step 1 of 4: Risk figures/).waitFor();
  await page.getByTestId("risk-progress").getByText(/Step 2 of 4: Stress test/).waitFor({ timeout: 20_000 });
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.getByTestId("risk-progress").getByText("Cancelled: the sections computed so far are shown.").waitFor();
  await page.getByRole("heading", { name: "Risk figures", level: 2 }).waitFor();
  expect(await page.getByRole("heading", { name: "Monte Carlo simulation", level: 2 }).count()).toBe(0);
  await page.getByRole("button", { name: "Compute" }).isEnabled();
}, 60_000);

test("tools: the PAC plan equals the API's, and an order opens a filled-in draft that is not saved by itself", async () => {
  const page = await b.page({ user: "rita" });
  await page.goto(b.url("/tools"));
  await page.getByRole("heading", { name: "Tools", level: 1 }).waitFor();
  await page.getByLabel("ACME").fill("60");
  await page.getByLabel("Bondy").fill("40");
  await page.getByTestId("targets-total").getByText(formatPercent("100", "en-US", { signed: false }), { exact: true }).waitFor();
  await page.getByLabel("Amount to invest (EUR)").fill("1000");
  await page.getByRole("button", { name: "Compute the plan" }).click();
  await page.getByRole("heading", { name: "Plan" }).waitFor();

  const catalog = await (await b.api.as.rita!.get("/tools/catalog")).json();
  const pac = catalog.items.find((i: Json) => i.tool_code === "pac_allocator");
  const answer = await post("/tools/compute", { request_id: "t1", items: [{
    correlation_id: "p", tool_code: pac.tool_code, contract_version: pac.contract_version, implementation_version: pac.implementation_version,
    schema_fingerprint: pac.schema_fingerprint, positions_from: { broker_ids: [ids.alpha] },
    parameters: { budget: { code: "EUR", amount: "1000" }, whole_units: true, positions: [{ key: String(ids.acme), target_weight: "0.6" }, { key: String(ids.bondy), target_weight: "0.4" }] },
  }] });
  const result = answer.results[0].result;
  expect(result.orders.length).toBeGreaterThan(0);
  for (const o of result.orders) {
    await expectCell(page, `order-${o.key}`, "quantity", formatDecimal(o.quantity, "en-US"));
    await expectCell(page, `order-${o.key}`, "amount", eur(o.amount));
  }
  await page.getByTestId("tool-cash-after").getByText(eur(result.cash_left)).waitFor();
  await b.shot(page, "tools-pac");

  const before = (await (await b.api.as.rita!.get("/transactions")).json()).length;
  const first = result.orders[0];
  await page.getByTestId(`order-${first.key}`).getByRole("link", { name: "Draft transaction" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  expect(await dialog.getByLabel("Quantity").inputValue()).toBe(first.quantity);
  expect(await dialog.getByLabel(/Amount/).first().inputValue()).toBe(first.amount);
  await dialog.getByRole("button", { name: "Close" }).click();
  expect((await (await b.api.as.rita!.get("/transactions")).json()).length).toBe(before);
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("tools: the rebalancer lists the API's trades on a phone", async () => {
  const page = await b.page({ user: "rita", viewport: PHONE_375 });
  await page.goto(b.url("/tools"));
  await page.getByRole("button", { name: "Rebalance" }).click();
  await page.getByLabel("ACME").fill("30");
  await page.getByLabel("Bondy").fill("30");
  await page.getByRole("button", { name: "Compute the plan" }).click();
  await page.getByTestId("tool-orders").waitFor();
  const catalog = await (await b.api.as.rita!.get("/tools/catalog")).json();
  const tool = catalog.items.find((i: Json) => i.tool_code === "portfolio_rebalancer");
  const cash = (await (await b.api.as.rita!.get(`/brokers/${ids.alpha}/summary`)).json()).cash_balances.find((c: Json) => c.code === "EUR").amount;
  const answer = await post("/tools/compute", { request_id: "t2", items: [{
    correlation_id: "r", tool_code: tool.tool_code, contract_version: tool.contract_version, implementation_version: tool.implementation_version,
    schema_fingerprint: tool.schema_fingerprint, positions_from: { broker_ids: [ids.alpha] },
    parameters: { cash: { code: "EUR", amount: cash }, mode: "buy_and_sell", whole_units: true, positions: [{ key: String(ids.acme), target_weight: "0.3" }, { key: String(ids.bondy), target_weight: "0.3" }] },
  }] });
  for (const o of answer.results[0].result.orders) await expectCell(page, `order-${o.key}`, "quantity", formatDecimal(o.quantity, "en-US"));
  // Usable at 375 px: nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await b.shot(page, "tools-rebalance-phone");
}, 60_000);

test("administration: users, plugins as the API lists them, and a restore preview of an export file; closed to non-administrators", async () => {
  const page = await b.page({ user: "rita" });
  await page.goto(b.url("/settings"));
  await page.getByRole("link", { name: "Administration" }).click();
  await page.getByRole("heading", { name: "Administration", level: 1 }).waitFor();
  await page.getByTestId("user-tom").waitFor();
  const plugins = await (await b.api.as.rita!.get("/system/plugin-diagnostics")).json();
  const loaded = plugins.filter((p: Json) => p.status === "loaded").length;
  // The plugin list is its own request: the users can be on the page before it.
  await page.getByTestId("admin-plugins").locator("tbody tr").first().waitFor();
  expect(await page.getByTestId("admin-plugins").locator("tbody tr").count()).toBe(plugins.length);
  expect(await page.getByTestId("admin-plugins").getByText("loaded", { exact: true }).count()).toBe(loaded);

  const exportRes = await b.api.as.rita!.post("/backup/export", { format: "json", scope: ["all"], include_price_history: false });
  const doc = await exportRes.text();
  const counts = JSON.parse(doc).row_counts as Record<string, number>;
  await page.getByLabel("JSON export file").setInputFiles({ name: "export.json", mimeType: "application/json", buffer: Buffer.from(doc) });
  const preview = page.getByTestId("restore-preview");
  await preview.waitFor();
  for (const [section, n] of Object.entries(counts)) {
    expect(await preview.locator(`[data-section="${section}"] td`).textContent()).toBe(String(n));
  }
  await b.shot(page, "admin");

  const tom = await b.page({ user: "tom" });
  await tom.goto(b.url("/admin"));
  await tom.getByText("Only administrators can see this page.").waitFor();
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("administration: promote, demote, deactivate, activate and reset a password, each confirmed, as the API then reports them", async () => {
  const page = await b.page({ user: "rita" });
  // Confirmations are answered yes and recorded (the shared page helper dismisses real dialogs as errors).
  await page.addInitScript(() => {
    const w = window as unknown as { confirm: (q: string) => boolean; asked: string[] };
    w.asked = [];
    w.confirm = (q: string) => { w.asked.push(q); return true; };
  });
  await page.goto(b.url("/admin"));
  const row = page.getByTestId("user-tom");
  const me = page.getByTestId("user-rita");
  await row.waitFor();
  // One's own row offers no demote or deactivate.
  expect(await me.getByRole("button", { name: "Demote" }).count()).toBe(0);
  expect(await me.getByRole("button", { name: "Deactivate" }).count()).toBe(0);
  const tomNow = async () => (await (await b.api.as.rita!.get("/users")).json()).items.find((u: Json) => u.username === "tom");

  await row.getByRole("button", { name: "Promote tom" }).click();
  await page.getByText("tom is now an administrator.").waitFor();
  await row.getByText("admin", { exact: true }).waitFor();
  expect(await tomNow()).toMatchObject({ is_superuser: true });
  await row.getByRole("button", { name: "Demote tom" }).click();
  await page.getByText("tom is no longer an administrator.").waitFor();
  expect(await tomNow()).toMatchObject({ is_superuser: false });

  await row.getByRole("button", { name: "Deactivate tom" }).click();
  await row.getByText("disabled", { exact: true }).waitFor();
  expect(await tomNow()).toMatchObject({ is_active: false });
  await row.getByRole("button", { name: "Activate tom" }).click();
  await row.getByText("active", { exact: true }).waitFor();
  expect(await tomNow()).toMatchObject({ is_active: true });

  await row.getByRole("button", { name: "Reset password tom" }).click();
  const form = page.getByTestId("reset-password");
  await form.getByLabel("New password for tom").fill("short");
  await form.getByLabel("Repeat the new password").fill("short");
  // The password policy as it is typed: the unmet requirement is shown and the reset cannot be sent.
  await form.locator('[data-requirement="min_length"][data-met="false"]').waitFor();
  expect(await form.getByRole("button", { name: "Reset password" }).isDisabled()).toBe(true);
  await form.getByLabel("New password for tom").fill("Fresh-pass-42x");
  await form.getByLabel("Repeat the new password").fill("Fresh-pass-42x");
  await form.getByRole("button", { name: "Reset password" }).click();
  await page.getByText("The password of tom was reset.").waitFor();
  expect(await page.evaluate(() => (window as unknown as { asked: string[] }).asked)).toEqual([
    "Make tom an administrator?", "Remove administrator rights from tom?", "Deactivate tom? Their next request is refused.",
    "Activate tom?", "Reset the password of tom? Every session of tom ends.",
  ]);
  const login = await fetch(`${b.api.server.base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "tom", password: "Fresh-pass-42x" }) });
  expect(login.status).toBe(200);
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("dashboard: income this year is the API's, movers listed, links into the analysis pages", async () => {
  const page = await b.page({ user: "rita" });
  await page.goto(b.url("/"));
  const year = new Date().toISOString().slice(0, 4);
  const report = await post("/portfolio/report", { target_currency: "EUR", date_range: { start: `${year}-01-01`, end: null }, include_summary: true, include_history: false, include_allocation_history: false });
  await page.getByTestId("income-year").getByText(eur(report.summary.period_income.amount)).waitFor({ timeout: 30_000 });
  await page.getByTestId(`mover-${ids.acme}-${ids.alpha}`).waitFor();
  const links = page.getByRole("navigation", { name: "Analysis" }).getByRole("link");
  expect(await links.allTextContents()).toEqual(["Holdings", "Performance", "Income", "Realised gains", "Risk lab", "Tools"]);
  await links.getByText("Risk lab").click();
  await page.getByRole("heading", { name: "Risk lab", level: 1 }).waitFor();
}, 60_000);

test("the risk lab and the administration page fit a 375 px phone screen", async () => {
  const page = await b.page({ user: "rita", viewport: PHONE_375 });
  await page.goto(b.url("/risk"));
  await page.getByRole("heading", { name: "Risk lab", level: 1 }).waitFor();
  await page.getByRole("button", { name: "Compute" }).click();
  // The lab's four requests end in the Correlation section or in an error note: a failure names
  // the note or the step the lab was still running, not only a timeout.
  const corr = page.getByRole("heading", { name: "Correlation" });
  try {
    await corr.or(page.locator("main").getByRole("alert")).first().waitFor({ timeout: 60_000 });
  } catch (e) {
    throw new Error(`no Correlation section after 60 s; progress: ${await page.getByTestId("risk-progress").textContent()}`, { cause: e });
  }
  if (!(await corr.isVisible())) throw new Error(`the risk lab answered an error: ${await page.locator("main").getByRole("alert").first().textContent()}`);
  const wide = await page.evaluate(() => [...document.querySelectorAll("main *")].filter((e) => e.getBoundingClientRect().right > 376 && !e.closest(".table-wrap")).slice(0, 5).map((e) => `${e.tagName}.${e.className}`));
  expect({ wide, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ wide: [], width: 375 });
  await b.shot(page, "risk-lab-phone");
  await page.goto(b.url("/admin"));
  await page.getByTestId("admin-plugins").waitFor();
  await page.waitForLoadState("networkidle");
  const wideAdmin = await page.evaluate(() => [...document.querySelectorAll("main *")].filter((e) => e.getBoundingClientRect().right > 376 && !e.closest(".table-wrap")).slice(0, 5).map((e) => `${e.tagName}.${e.className}`));
  expect(wideAdmin).toEqual([]);
}, 90_000);
