import { beforeAll, expect, test } from "bun:test";
import Decimal from "decimal.js";
import type { Page } from "playwright-core";
import { formatMoney, formatPercent } from "../../web/src/lib/format.ts";
import { useBrowser } from "../helpers/browser.ts";

// The investor pages (holdings, performance, income, realised gains) show the API's figures: a
// small ledger over two brokers is seeded through the API, and every figure read on a page is
// compared with the API's own answer for the same question, formatted as the page formats it.
const b = useBrowser({ name: "investor-pages", users: ["ivy", "newbie"] });

const PHONE_375 = { width: 375, height: 812 };
const eur = (amount: string | null | undefined) => formatMoney(amount, "EUR", "en-US");
const pct = (percent: string | null | undefined, signed = true) => formatPercent(percent, "en-US", { signed });
const today = new Date().toISOString().slice(0, 10);
const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
const pageErrors = () => b.errors.filter((e) => !e.includes("Failed to load resource"));

/** Closes on the 15th of every month from January 2024 to today, zig-zagging so months differ. */
function monthly(start: number, step: number) {
  const out: { date: string; close: string }[] = [];
  let v = start;
  for (let y = 2024, m = 1; ; m++) {
    if (m > 12) { m = 1; y++; }
    const date = `${y}-${String(m).padStart(2, "0")}-15`;
    if (date > today) break;
    out.push({ date, close: v.toFixed(2) });
    v += (m % 3 === 0 ? -2 : 1) * step;
  }
  return out;
}

const ids = { alpha: 0, beta: 0, acme: 0, bondy: 0, world: 0, xss: 0, spx: 0 };
const XSS = "<img src=x onerror=alert(1)> Fund";
type Json = any;
const post = async (path: string, body: unknown): Promise<Json> => {
  const res = await b.api.as.ivy!.post(path, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
};

beforeAll(async () => {
  const ivy = b.api.as.ivy!;
  const brokers = await (await ivy.post("/brokers", [
    { name: "Alpha", opened_at: "2024-01-02", initial_balances: [{ code: "EUR", amount: "10000" }] },
    { name: "Beta", opened_at: "2024-01-02", initial_balances: [{ code: "EUR", amount: "5000" }] },
  ])).json();
  [ids.alpha, ids.beta] = brokers.results.map((r: Json) => r.broker_id);
  const assets = await (await ivy.post("/assets", [
    { name: "ACME", currency: "EUR", asset_type: "STOCK" }, { name: "Bondy", currency: "EUR", asset_type: "BOND" },
    { name: "World Index", currency: "EUR", asset_type: "INDEX" }, { name: XSS, currency: "EUR", asset_type: "FUND" },
    { name: "US Index", currency: "USD", asset_type: "INDEX" },
  ])).json();
  [ids.acme, ids.bondy, ids.world, ids.xss, ids.spx] = assets.results.map((r: Json) => r.asset_id);
  // ivy, the first account, is an administrator: she may write shared rates.
  expect((await ivy.post("/fx/currencies/rate", [{ date: "2023-12-29", base: "EUR", quote: "USD", rate: "1.25" }, { date: "2025-06-02", base: "EUR", quote: "USD", rate: "1.1" }])).status).toBe(200);
  expect((await ivy.patch("/assets", [{ asset_id: ids.acme, classification_params: {
    short_description: null, geographic_area: { distribution: { USA: "1" } }, sector_area: { distribution: { "Information Technology": "1" } },
  } }])).status).toBe(200);
  expect((await ivy.post("/assets/prices", [
    { asset_id: ids.acme, prices: monthly(100, 3) }, { asset_id: ids.bondy, prices: monthly(95, 0.5) }, { asset_id: ids.world, prices: monthly(1000, 10) },
    { asset_id: ids.xss, prices: monthly(50, 1) },
    { asset_id: ids.spx, prices: monthly(4000, 40) },
  ])).status).toBe(200);
  const commit = await (await ivy.post("/transactions/commit", { creates: [
    { broker_id: ids.alpha, type: "BUY", date: "2024-02-01", asset_id: ids.acme, quantity: "10", cash: { code: "EUR", amount: "-1000" } },
    { broker_id: ids.beta, type: "BUY", date: "2024-03-01", asset_id: ids.acme, quantity: "5", cash: { code: "EUR", amount: "-551.25" } },
    { broker_id: ids.beta, type: "BUY", date: "2024-04-02", asset_id: ids.bondy, quantity: "20", cash: { code: "EUR", amount: "-1900" } },
    { broker_id: ids.alpha, type: "BUY", date: "2024-06-03", asset_id: ids.acme, quantity: "10", cash: { code: "EUR", amount: "-1203.3" } },
    { broker_id: ids.beta, type: "DIVIDEND", date: "2024-10-01", asset_id: ids.bondy, cash: { code: "EUR", amount: "30" } },
    { broker_id: ids.alpha, type: "DIVIDEND", date: "2024-11-04", asset_id: ids.acme, cash: { code: "EUR", amount: "18.5" } },
    { broker_id: ids.beta, type: "SELL", date: "2025-01-15", asset_id: ids.bondy, quantity: "-20", cash: { code: "EUR", amount: "2010.5" } },
    { broker_id: ids.alpha, type: "SELL", date: "2025-02-03", asset_id: ids.acme, quantity: "-8", cash: { code: "EUR", amount: "1204" } },
    { broker_id: ids.beta, type: "INTEREST", date: "2025-03-31", cash: { code: "EUR", amount: "12.34" } },
    { broker_id: ids.alpha, type: "DIVIDEND", date: "2025-05-02", asset_id: ids.acme, cash: { code: "EUR", amount: "25.75" } },
    { broker_id: ids.beta, type: "DIVIDEND", date: monthAgo, asset_id: ids.acme, cash: { code: "EUR", amount: "20.4" } },
    { broker_id: ids.alpha, type: "BUY", date: "2024-07-01", asset_id: ids.xss, quantity: "2", cash: { code: "EUR", amount: "-100" } },
    { broker_id: ids.alpha, type: "SELL", date: "2024-08-01", asset_id: ids.xss, quantity: "-1", cash: { code: "EUR", amount: "52" } },
  ] })).json();
  expect(commit.committed).toBe(true);
}, 60_000);

const cell = (page: Page, testid: string, col: string) => page.getByTestId(testid).locator(`[data-col="${col}"]`);
async function expectText(page: Page, testid: string, col: string, text: string) {
  await cell(page, testid, col).getByText(text, { exact: true }).waitFor();
}

test("holdings: per asset and per broker, open and closed, the API's figures to the cent; lots; privacy hides amounts", async () => {
  const report = await post("/portfolio/report", { include_history: false, include_allocation_history: false, include_positions_contribution: true });
  const s = report.summary;
  const holding = (asset: number, broker: number) => s.holdings.find((h: Json) => h.asset_id === asset && h.broker_id === broker);
  const position = (asset: number, broker: number) => report.positions_contribution.positions.find((p: Json) => p.asset_id === asset && p.broker_id === broker);

  const page = await b.page({ user: "ivy" });
  await page.goto(b.url("/"));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Holdings" }).click();
  await page.getByRole("heading", { name: "Holdings" }).waitFor();

  // ACME across both brokers: the sums of the two positions the API reports.
  const acmeValue = new Decimal(holding(ids.acme, ids.alpha).current_value).plus(holding(ids.acme, ids.beta).current_value).toFixed();
  await expectText(page, `holding-${ids.acme}`, "value", eur(acmeValue));
  const acmeCost = new Decimal(holding(ids.acme, ids.alpha).open_cost_basis).plus(holding(ids.acme, ids.beta).open_cost_basis);
  const acmeGain = new Decimal(holding(ids.acme, ids.alpha).gain_loss).plus(holding(ids.acme, ids.beta).gain_loss);
  await expectText(page, `holding-${ids.acme}`, "cost", eur(acmeCost.toFixed()));
  await expectText(page, `holding-${ids.acme}`, "unrealised", eur(acmeGain.toFixed()));
  await expectText(page, `holding-${ids.acme}`, "unrealisedPercent", pct(acmeGain.div(acmeCost).times(100).toFixed()));
  await expectText(page, `holding-${ids.acme}`, "realised", eur(position(ids.acme, ids.alpha).period_realized_gain_loss));
  await expectText(page, `holding-${ids.acme}`, "income", eur(new Decimal(position(ids.acme, ids.alpha).period_income).plus(position(ids.acme, ids.beta).period_income).toFixed()));
  await expectText(page, `holding-${ids.acme}`, "quantity", "17");
  await expectText(page, `holding-${ids.acme}`, "price", eur(holding(ids.acme, ids.alpha).current_price));
  // The totals are the summary's.
  await expectText(page, "holdings-total", "value", eur(s.market_value.amount));
  await expectText(page, "holdings-total", "unrealised", eur(s.unrealized_gain_loss.amount));
  await page.getByTestId("holdings-cash").getByText(eur(s.cash_total.amount)).waitFor();
  await page.getByRole("link", { name: XSS }).waitFor();
  await b.shot(page, "holdings");

  // Closed positions: Bondy, sold in full, with its realised gain and income.
  await page.getByRole("group", { name: "Positions" }).getByRole("button", { name: "Closed" }).click();
  await expectText(page, `holding-${ids.bondy}`, "realised", eur(position(ids.bondy, ids.beta).period_realized_gain_loss));
  await expectText(page, `holding-${ids.bondy}`, "income", eur(position(ids.bondy, ids.beta).period_income));
  expect(await page.getByTestId(`holding-${ids.acme}`).count()).toBe(0);
  // All positions: realised and income totals are the summary's (income beside the cash interest).
  await page.getByRole("group", { name: "Positions" }).getByRole("button", { name: "All" }).click();
  await expectText(page, "holdings-total", "realised", eur(s.realized_gain_loss.amount));
  const cashIncome = report.positions_contribution.unallocated.reduce((a: Decimal, u: Json) => a.plus(u.unallocated_income), new Decimal(0));
  await page.getByTestId("holdings-cash-income").getByText(eur(cashIncome.toFixed())).waitFor();
  const incomeShown = new Decimal(report.positions_contribution.positions.reduce((a: Decimal, p: Json) => a.plus(p.period_income), new Decimal(0))).plus(cashIncome);
  expect(incomeShown.toFixed()).toBe(new Decimal(s.total_income.amount).toFixed());

  // One row per broker: each row is the API's position as is.
  await page.getByLabel("One row per broker").check();
  await page.getByRole("group", { name: "Positions" }).getByRole("button", { name: "Open" }).click();
  for (const broker of [ids.alpha, ids.beta]) {
    const h = holding(ids.acme, broker);
    await expectText(page, `holding-${ids.acme}/${broker}`, "value", eur(h.current_value));
    await expectText(page, `holding-${ids.acme}/${broker}`, "unrealisedPercent", pct(h.gain_loss_percent));
    await expectText(page, `holding-${ids.acme}/${broker}`, "weight", pct(h.nav_weight_percent, false));
  }

  // Filters: a type and a sector with nothing else in them; a broker changes the report's scope.
  await page.getByRole("group", { name: "Positions" }).getByRole("button", { name: "All" }).click();
  await page.getByLabel("Sector").selectOption("Information Technology");
  expect(await page.getByTestId(`holding-${ids.bondy}/${ids.beta}`).count()).toBe(0);
  await page.getByTestId(`holding-${ids.acme}/${ids.alpha}`).waitFor();
  await page.getByLabel("Sector").selectOption("");
  await page.getByLabel("Type").selectOption("BOND");
  await page.getByTestId(`holding-${ids.bondy}/${ids.beta}`).waitFor();
  expect(await page.getByTestId(`holding-${ids.acme}/${ids.alpha}`).count()).toBe(0);
  await page.getByLabel("Type").selectOption("");
  await page.getByRole("group", { name: "Brokers" }).getByLabel("Beta").uncheck();
  const alphaOnly = await post("/portfolio/report", { broker_ids: [ids.alpha], include_history: false, include_allocation_history: false });
  await expectText(page, `holding-${ids.acme}/${ids.alpha}`, "weight", pct(alphaOnly.summary.holdings.find((h: Json) => h.asset_id === ids.acme).nav_weight_percent, false));
  expect(await page.getByTestId(`holding-${ids.acme}/${ids.beta}`).count()).toBe(0);
  await page.getByRole("group", { name: "Brokers" }).getByLabel("Beta").check();
  await page.getByLabel("One row per broker").uncheck();

  // Sorting by market value, ascending then descending.
  await page.getByRole("button", { name: /^Market value/ }).click();
  expect(await page.locator("table.holdings").getByRole("columnheader", { name: /Market value/ }).getAttribute("aria-sort")).toBe("ascending");

  // The FIFO lots of ACME, as the lots analysis gives them.
  const lots = await post("/portfolio/lots/analysis", { asset_id: ids.acme, requested_analyses: ["LOT_SUMMARY"] });
  await page.getByRole("button", { name: "FIFO lots of ACME" }).click();
  const first = lots.lots[0];
  const lotRow = page.getByTestId(`lot-${first.lot_id}`);
  await lotRow.getByText(eur(first.original_cost), { exact: true }).waitFor();
  await lotRow.getByText(eur(first.realized_pnl), { exact: true }).waitFor();
  await lotRow.getByText("Feb 1, 2024").waitFor();
  await b.shot(page, "holdings-lots");

  // Privacy mode: no amount on the page.
  await page.getByRole("button", { name: "Hide amounts" }).click();
  const text = (await page.locator("main").textContent()) ?? "";
  expect(text).not.toContain(eur(s.market_value.amount));
  expect(text).not.toContain("€");
  await page.getByRole("button", { name: "Show amounts" }).click();
  expect(pageErrors()).toEqual([]);
}, 90_000);

test("performance: TWR and MWR per period are the API's, from one report request; the heat map chains the daily TWR, the benchmark is rebased", async () => {
  const whole = await post("/portfolio/report", { include_history: true, include_allocation_history: false });
  const page = await b.page({ user: "ivy" });
  const reportRequests: string[] = [];
  page.on("request", (r) => { if (new URL(r.url()).pathname.endsWith("/portfolio/report")) reportRequests.push(r.postData() ?? ""); });
  await page.goto(b.url("/performance"));
  await page.getByRole("heading", { name: "Performance" }).waitFor();
  await page.getByTestId("perf-twr").getByText(pct(whole.summary.twrr_percent)).waitFor();
  await page.getByTestId("perf-mwr").getByText(pct(String(whole.summary.mwrr_cumulative_percent))).waitFor();

  // Years: each row is the report of that year (from the previous year's last close).
  const from = whole.metadata.computed_date_from as string;
  for (const year of ["2024", "2025"]) {
    const r = await post("/portfolio/report", {
      date_range: { start: year === "2024" ? from : "2024-12-31", end: `${year}-12-31` }, include_history: false, include_allocation_history: false,
    });
    await expectText(page, `period-${year}-01-01`, "twr", pct(r.summary.twrr_percent));
    await expectText(page, `period-${year}-01-01`, "mwr", pct(r.summary.mwrr_cumulative_percent));
    await expectText(page, `period-${year}-01-01`, "mwr-annual", pct(r.summary.mwrr_annualized_percent));
  }
  // Quarters: Q1 2025.
  await page.getByRole("group", { name: "Period length" }).getByRole("button", { name: "Quarters" }).click();
  const q = await post("/portfolio/report", { date_range: { start: "2024-12-31", end: "2025-03-31" }, include_history: false, include_allocation_history: false });
  await expectText(page, "period-2025-01-01", "twr", pct(q.summary.twrr_percent));
  await expectText(page, "period-2025-01-01", "mwr", pct(q.summary.mwrr_cumulative_percent));
  // Years and quarters came with the page's one report (its period returns), not one request per period.
  expect(reportRequests).toHaveLength(1);
  expect(JSON.parse(reportRequests[0]!)).toMatchObject({ include_summary: true, include_history: true, include_period_returns: true });

  // The heat map's February 2025 is that month's report.
  const feb = await post("/portfolio/report", { date_range: { start: "2025-01-31", end: "2025-02-28" }, include_history: false, include_allocation_history: false });
  await page.locator('td[data-month="2025-02"]').getByText(pct(feb.summary.twrr_percent)).waitFor();

  // Benchmark: World Index rebased to the portfolio's first day.
  await page.getByLabel("Benchmark", { exact: true }).selectOption({ label: "World Index" });
  const closes = monthly(1000, 10).filter((p) => p.date <= whole.metadata.computed_date_to);
  // Its last close on or before the first day, else its first close after it.
  const base = (closes.filter((p) => p.date <= from).at(-1) ?? closes[0]!).close;
  const last = closes.at(-1)!.close;
  const benchPct = new Decimal(last).div(base).minus(1).times(100).toFixed(2);
  const summary = page.getByTestId("bench-summary");
  await summary.waitFor();
  expect(await summary.textContent()).toContain(`World Index ${benchPct} %`);
  await page.getByTestId("perf-max-dd").locator(".pct").waitFor();

  // A USD benchmark: each close converted into EUR at the API's rate of its day, then rebased.
  await page.getByLabel("Benchmark", { exact: true }).selectOption({ label: "US Index" });
  const usd = monthly(4000, 40).filter((p) => p.date <= whole.metadata.computed_date_to);
  const rates = (await post("/fx/currencies/convert", [{ from_amount: { code: "USD", amount: "1" }, to: "EUR", date_range: { start: "2024-01-01", end: whole.metadata.computed_date_to } }])).results as Json[];
  const rateOn = (d: string) => rates.filter((r) => r.conversion_date <= d).at(-1)!.rate;
  const usdBase = usd.filter((p) => p.date <= from).at(-1) ?? usd[0]!;
  const usdLast = usd.at(-1)!;
  const usdPct = new Decimal(usdLast.close).times(rateOn(usdLast.date)).div(new Decimal(usdBase.close).times(rateOn(usdBase.date))).minus(1).times(100).toFixed(2);
  await summary.getByText(`US Index ${usdPct} %`).waitFor();
  expect(await page.getByTestId("bench-currency").count()).toBe(0);
  await b.shot(page, "performance");
  expect(pageErrors()).toEqual([]);
}, 90_000);

test("income: by month, year, asset and broker from the report's income payments (one request); the totals are the report's income", async () => {
  const report = await post("/portfolio/report", { include_history: false, include_allocation_history: false, include_positions_contribution: true });
  const positions = report.positions_contribution.positions as Json[];
  const incomeOf = (asset: number) => positions.filter((p) => p.asset_id === asset).reduce((a, p) => a.plus(p.period_income), new Decimal(0)).toFixed();
  const page = await b.page({ user: "ivy" });
  const paths: string[] = [];
  page.on("request", (r) => paths.push(new URL(r.url()).pathname));
  await page.goto(b.url("/income"));
  await page.getByRole("heading", { name: "Income", exact: true }).waitFor();
  await page.getByTestId("income-total").getByText(eur(report.summary.total_income.amount), { exact: true }).waitFor();
  // The payments come with the page's one report, not one lots analysis per asset paying income.
  expect(paths.filter((p) => p.endsWith("/portfolio/report"))).toHaveLength(1);
  expect(paths.filter((p) => p.endsWith("/portfolio/lots/analysis"))).toEqual([]);
  await expectText(page, `income-asset-${ids.acme}`, "total", eur(incomeOf(ids.acme)));
  await expectText(page, `income-asset-${ids.bondy}`, "total", eur(incomeOf(ids.bondy)));
  // Yield on cost: the last 12 months' income of the assets held over their open cost.
  const cost = (report.summary.holdings as Json[]).reduce((a, h) => a.plus(h.open_cost_basis), new Decimal(0));
  const yieldPct = new Decimal("20.4").div(cost).times(100).toFixed();
  await page.getByTestId("income-yield").getByText(pct(yieldPct, false), { exact: true }).waitFor();
  const acmeCost = (report.summary.holdings as Json[]).filter((h) => h.asset_id === ids.acme).reduce((a, h) => a.plus(h.open_cost_basis), new Decimal(0));
  await expectText(page, `income-asset-${ids.acme}`, "yield", pct(new Decimal("20.4").div(acmeCost).times(100).toFixed(), false));
  // Bondy was sold: no yield on cost.
  await cell(page, `income-asset-${ids.bondy}`, "yield").getByText("sold").waitFor();
  // Beta: its positions' dividends and the interest on its cash (the report's unallocated income).
  const betaCash = report.positions_contribution.unallocated.find((u: Json) => u.broker_id === ids.beta).unallocated_income;
  const betaPositions = positions.filter((p) => p.broker_id === ids.beta).reduce((a, p) => a.plus(p.period_income), new Decimal(0));
  await page.getByTestId(`income-broker-${ids.beta}`).getByText(eur(betaPositions.plus(betaCash).toFixed()), { exact: true }).waitFor();
  // Months and years: the payments of each.
  const months = page.getByTestId("income-month");
  await months.locator('tr[data-key="2025-05"]').getByText(eur("25.75"), { exact: true }).waitFor();
  await months.locator('tr[data-key="2025-03"]').getByText(eur("12.34"), { exact: true }).waitFor();
  await months.locator('tr[data-key="2024-12"]').getByText(eur("0"), { exact: true }).waitFor();
  await page.getByRole("group", { name: "Group by" }).getByRole("button", { name: "By year" }).click();
  await page.getByTestId("income-year").locator('tr[data-key="2024"]').getByText(eur("48.5"), { exact: true }).waitFor();
  await page.getByTestId("income-year").locator('tr[data-key="2025"]').getByText(eur("38.09"), { exact: true }).waitFor();
  await b.shot(page, "income");
  expect(pageErrors()).toEqual([]);
}, 90_000);

test("realised gains: totals per tax year and every sale with FIFO and average cost are the API's; the CSV holds the same figures", async () => {
  const all = await post("/portfolio/realized-gains", {});
  const y2025 = await post("/portfolio/realized-gains", { year: 2025 });
  const page = await b.page({ user: "ivy" });
  await page.goto(b.url("/gains"));
  await page.getByRole("heading", { name: "Realised gains" }).waitFor();
  for (const y of all.years) {
    for (const [col, key] of [["proceeds", "proceeds"], ["fifo-cost", "fifo_cost"], ["fifo-gain", "fifo_gain"], ["average-cost", "average_cost"], ["average-gain", "average_gain"]]) {
      await expectText(page, `gains-year-${y.year}`, col!, eur(y[key!]));
    }
  }
  await page.getByLabel("Tax year", { exact: true }).selectOption("2025");
  await page.getByRole("heading", { name: "Sales in 2025" }).waitFor();
  expect(y2025.disposals.length).toBe(2);
  for (const d of y2025.disposals) {
    await expectText(page, `sale-${d.transaction_id}`, "proceeds", eur(d.proceeds));
    await expectText(page, `sale-${d.transaction_id}`, "fifo-gain", eur(d.fifo_gain));
    await expectText(page, `sale-${d.transaction_id}`, "average-gain", eur(d.average_gain));
  }
  await expectText(page, "sales-total", "fifo-gain", eur(y2025.totals.fifo_gain));
  await expectText(page, "sales-total", "average-gain", eur(y2025.totals.average_gain));
  // The ACME sale of February 2025 closed lots bought in 2024.
  const acmeSale = y2025.disposals.find((d: Json) => d.asset_id === ids.acme);
  await page.getByTestId(`sale-${acmeSale.transaction_id}`).getByRole("button", { name: /^Lots sold on/ }).click();
  await page.getByRole("table", { name: /^Lots sold on/ }).getByText("Feb 1, 2024").waitFor();
  await b.shot(page, "gains");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  const csv = await Bun.file((await download.path())!).text();
  const lines = csv.trim().split("\r\n");
  expect(lines[0]).toBe("sale_date,asset,broker,transaction_id,quantity_sold,proceeds,fifo_cost,fifo_gain,average_cost,average_gain,currency,lot_acquisition_date,lot_quantity,lot_fifo_cost,lot_holding_days");
  expect(lines.length - 1).toBe(y2025.disposals.reduce((n: number, d: Json) => n + d.lots.length, 0));
  const first = lines[1]!.split(",");
  const d0 = y2025.disposals[0];
  expect(first.slice(0, 11)).toEqual([d0.date, d0.asset_name, "Beta", String(d0.transaction_id), d0.quantity, d0.proceeds, d0.fifo_cost, d0.fifo_gain, d0.average_cost, d0.average_gain, "EUR"]);
  expect(pageErrors()).toEqual([]);
}, 90_000);

test("a new user without brokers sees the four pages empty, without errors", async () => {
  const page = await b.page({ user: "newbie" });
  for (const [path, heading, empty] of [["/holdings", "Holdings", "No positions match these filters."], ["/performance", "Performance", null],
    ["/income", "Income", "No income in this period."], ["/gains", "Realised gains", "No sales yet."]] as const) {
    await page.goto(b.url(path));
    await page.getByRole("heading", { name: heading, exact: true }).waitFor();
    if (empty) await page.getByText(empty).first().waitFor();
    else await page.getByTestId("perf-twr").waitFor();
  }
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("the investor pages fit a 375 px phone screen", async () => {
  const page = await b.page({ user: "ivy", viewport: PHONE_375 });
  for (const [path, heading] of [["/holdings", "Holdings"], ["/performance", "Performance"], ["/income", "Income"], ["/gains", "Realised gains"]] as const) {
    await page.goto(b.url(path));
    await page.getByRole("heading", { name: heading, exact: true }).waitFor();
    await page.locator("main table").first().waitFor();
    await b.shot(page, `${path.slice(1)}-phone`);
    // Every control has an accessible name; the script-like asset name stays text.
    const unnamed = await page.evaluate(() => [...document.querySelectorAll("main input, main select, main button")]
      .filter((el) => {
        const e = el as HTMLInputElement;
        const labelled = (e.labels?.length ?? 0) > 0 || e.getAttribute("aria-label") || e.getAttribute("aria-labelledby");
        return !labelled && !(e.tagName === "BUTTON" && e.textContent!.trim());
      }).map((e) => e.outerHTML.slice(0, 80)));
    expect({ path, unnamed }).toEqual({ path, unnamed: [] });
    expect(await page.locator("img[src='x']").count()).toBe(0);
    const wide = await page.evaluate(() => [...document.querySelectorAll("main *")].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !e.closest(".table-wrap")).map((e) => e.tagName + "." + e.className).slice(0, 5));
    expect(wide).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("income: upcoming payments, confirmed from announced events times the units held, projected from the cadence", async () => {
  // Quarterly ACME dividends of 1.2 for the past nine months, the next one announced at 1.3 in 20 days.
  const { addMonths } = await import("../../web/src/lib/upcoming-income.ts");
  const next = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  const events = [
    ...[-9, -6, -3].map((m) => ({ date: addMonths(today, m), type: "DIVIDEND", value: { code: "EUR", amount: "1.2" } })),
    { date: next, type: "DIVIDEND", value: { code: "EUR", amount: "1.3" } },
  ];
  await post("/assets/events", [{ asset_id: ids.acme, events }]);
  const report = await post("/portfolio/report", { include_history: false, include_allocation_history: false });
  const units = (report.summary.holdings as Json[]).filter((h) => h.asset_id === ids.acme).reduce((a, h) => a.plus(h.quantity), new Decimal(0));
  expect(units.toFixed()).toBe("17"); // 10 + 10 − 8 at Alpha, 5 at Beta
  const stored = (await post("/assets/events/query", [{ asset_id: ids.acme, date_range: { start: next, end: next } }])).items[0].events;
  const perUnit = stored[0].value.amount;
  const payment = units.times(perUnit).toFixed(); // 17 × 1.3 = 22.1

  const page = await b.page({ user: "ivy" });
  await page.goto(b.url("/income"));
  const table = page.getByTestId("upcoming-income");
  await table.waitFor({ timeout: 30_000 });
  const confirmed = page.getByTestId(`upcoming-${ids.acme}-${next}`);
  expect(await confirmed.getAttribute("data-status")).toBe("confirmed");
  await confirmed.getByText("confirmed", { exact: true }).waitFor();
  await expectText(page, `upcoming-${ids.acme}-${next}`, "amount", eur(payment));
  expect(payment).toBe("22.1");
  // Projected every three months after the announced one, within twelve months from today.
  for (const m of [3, 6, 9]) {
    const row = page.getByTestId(`upcoming-${ids.acme}-${addMonths(next, m)}`);
    expect(await row.getAttribute("data-status")).toBe("projected");
    await expectText(page, `upcoming-${ids.acme}-${addMonths(next, m)}`, "amount", eur(payment));
  }
  expect(await table.locator("tbody tr").count()).toBe(4);
  await page.getByTestId("upcoming-totals").getByText(`Confirmed: ${eur(payment)}`).waitFor();
  await page.getByTestId("upcoming-totals").getByText(`Projected: ${eur(units.times(perUnit).times(3).toFixed())}`).waitFor();
  expect(pageErrors()).toEqual([]);
}, 60_000);
