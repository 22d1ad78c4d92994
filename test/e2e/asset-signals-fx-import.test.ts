import { beforeAll, expect, test } from "bun:test";
import { useBrowser } from "../helpers/browser.ts";

// The asset page's signal overlay, the FX route order by drag and drop, and fixing an imported
// row's fields in the import wizard before it is committed.
const b = useBrowser({ name: "signals-fx-import", users: ["carol"] });
const pageErrors = () => b.errors.filter((e) => !e.includes("Failed to load resource"));
const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);

let vee = 0;
/** 320 daily closes shaped like a V: down from 200 to 120 for 160 days, then up to 280. */
const closes = Array.from({ length: 320 }, (_, i) => i < 160 ? 200 - i * 0.5 : 120 + (i - 160));

/** The first day the 50-day average closes above the 200-day one (computed here, independently). */
function expectedGoldenCross(): number {
  const sma = (n: number, i: number) => i + 1 < n ? null : closes.slice(i + 1 - n, i + 1).reduce((a, x) => a + x, 0) / n;
  let below = false;
  for (let i = 0; i < closes.length; i++) {
    const f = sma(50, i), s = sma(200, i);
    if (f === null || s === null) continue;
    if (f < s) below = true;
    else if (f > s && below) return i;
  }
  throw new Error("no crossover in the fixture");
}

beforeAll(async () => {
  const carol = b.api.as.carol!;
  const assets = await (await carol.post("/assets", [{ name: "Vee Corp", currency: "EUR", asset_type: "STOCK" }])).json();
  vee = assets.results[0].asset_id;
  const prices = closes.map((c, i) => ({ date: day(closes.length - 1 - i), close: c.toFixed(2) }));
  expect((await carol.post("/assets/prices", [{ asset_id: vee, prices }])).status).toBe(200);
}, 30_000);

test("signals overlay: moving averages, Bollinger bands and the crossover on the price chart, toggled on and off", async () => {
  const page = await b.page({ user: "carol" });
  await page.goto(b.url(`/assets/${vee}?tab=prices`));
  const overlays = page.getByRole("group", { name: "Signals on the chart" });
  await overlays.waitFor();
  const legend = page.locator(".u-legend");
  await legend.getByText("Closing price", { exact: true }).waitFor();
  expect(await legend.getByText("SMA 50").count()).toBe(0);

  await overlays.getByLabel("Crossovers of the two averages").check();
  const list = page.getByRole("list", { name: "Crossovers" });
  await list.waitFor();
  const items = await list.getByRole("listitem").allTextContents();
  expect(items).toHaveLength(1);
  expect(items[0]).toContain("the 50-day average crosses above the 200-day average");
  // The date shown is the day computed from the closes here.
  const crossDay = day(closes.length - 1 - expectedGoldenCross());
  const shown = await page.evaluate((iso) => new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${iso}T00:00:00Z`)), crossDay);
  expect(items[0]).toContain(shown);
  for (const label of ["SMA 50", "SMA 200", "Crosses above", "Crosses below"]) await legend.getByText(label, { exact: true }).waitFor();

  await overlays.getByLabel("Bollinger bands (20 days, 2 σ)").check();
  await legend.getByText("Bollinger upper", { exact: true }).waitFor();
  await b.shot(page, "asset-signals");

  await overlays.getByLabel("Crossovers of the two averages").uncheck();
  await list.waitFor({ state: "detached" });
  // The chart redraws in an effect after the list has left the DOM: wait for its legend, not the list.
  await legend.getByText("SMA 50", { exact: true }).waitFor({ state: "detached" });
  expect(await legend.getByText("SMA 200", { exact: true }).count()).toBe(0);
  await legend.getByText("Bollinger lower", { exact: true }).waitFor();
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("FX routes: drag and drop with the mouse, and the same with the keyboard, change the priorities; Escape cancels", async () => {
  const carol = b.api.as.carol!;
  const route = (priority: number, provider: string) => ({ base: "EUR", quote: "USD", priority, chain_steps: [{ from: "EUR", to: "USD", provider }] });
  const created = await carol.post("/fx/providers/routes", [route(1, "ECB"), route(2, "FED"), route(3, "BOE")]);
  expect(created.status).toBe(201);
  const stored = async () => ((await (await carol.get("/fx/providers/routes")).json()) as { base: string; quote: string; priority: number; chain_steps: { provider: string }[] }[])
    .filter((r) => r.base === "EUR" && r.quote === "USD").sort((a, b) => a.priority - b.priority).map((r) => `${r.priority}:${r.chain_steps[0]!.provider}`);
  expect(await stored()).toEqual(["1:ECB", "2:FED", "3:BOE"]);

  const page = await b.page({ user: "carol" });
  await page.goto(b.url("/fx/EUR-USD"));
  const items = page.locator(".routes li");
  // Each route names its provider as the plugin does; the codes are mapped back to compare with the stored order.
  const CODE: Record<string, string> = { "European Central Bank": "ECB", "Federal Reserve (H.10 via FRED)": "FED", "Bank of England": "BOE" };
  const shown = async () => (await items.allTextContents()).map((s) => {
    const [, priority, name] = /Priority (\d+): EUR→USD \((.+)\)(?:↑|$)/.exec(s)!;
    return `${priority}:${CODE[name!] ?? name}`;
  });
  await items.nth(2).waitFor();
  expect(await shown()).toEqual(["1:ECB", "2:FED", "3:BOE"]);

  // Mouse: BOE dropped on the first route becomes priority 1.
  await page.locator('.routes li[data-priority="3"]').dragTo(page.locator('.routes li[data-priority="1"]'));
  // The labels are the stored priorities: "Priority 1" on BOE means the routes were saved and reloaded.
  await page.getByText("Priority 1: EUR→USD (Bank of England)").waitFor();
  expect(await shown()).toEqual(["1:BOE", "2:ECB", "3:FED"]);
  expect(await stored()).toEqual(["1:BOE", "2:ECB", "3:FED"]);

  // Keyboard: pick BOE up, two steps down, drop: the last priority.
  const handle = page.getByRole("button", { name: "Reorder route 1" });
  await handle.focus();
  await page.keyboard.press("Space");
  await page.getByText("Picked up EUR→USD (Bank of England), position 1 of 3.", { exact: false }).waitFor();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.getByText("EUR→USD (Bank of England): position 3 of 3.").waitFor();
  await page.keyboard.press("Space");
  await page.getByText("Dropped EUR→USD (Bank of England) at position 3 of 3.").waitFor();
  await page.getByText("Priority 3: EUR→USD (Bank of England)").waitFor();
  expect(await stored()).toEqual(["1:ECB", "2:FED", "3:BOE"]);

  // Escape puts the route back and saves nothing.
  await page.getByRole("button", { name: "Reorder route 1" }).focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  expect((await shown())[1]).toBe("1:ECB");
  await page.keyboard.press("Escape");
  await page.getByText("Reordering cancelled.").waitFor();
  expect(await shown()).toEqual(["1:ECB", "2:FED", "3:BOE"]);
  expect(await stored()).toEqual(["1:ECB", "2:FED", "3:BOE"]);
  await b.shot(page, "fx-routes");
  // The buttons still work for those who prefer them.
  await page.getByRole("button", { name: "Move route 2 up" }).click();
  await page.getByText("Priority 1: EUR→USD (Federal Reserve (H.10 via FRED))").waitFor();
  expect(await stored()).toEqual(["1:FED", "2:ECB", "3:BOE"]);
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("import wizard: a row the report left without an asset is fixed in the preview, and the fix is what gets committed", async () => {
  const carol = b.api.as.carol!;
  const broker = await (await carol.post("/brokers", [{ name: "Import target" }])).json();
  const brokerId = broker.results[0].broker_id as number;
  const csv = [
    "Date,Type,Symbol,ISIN,Name,Quantity,Price,Amount,Currency,Fee,Description",
    "2024-01-02,Deposit,,,,,,1000.00,EUR,,Funding",
    "2024-01-03,Buy,,,,4,25.00,100.00,EUR,,Unnamed purchase",
    "2024-01-04,Buy,ACME,,Acme Corp,2,10.00,20.00,EUR,,",
  ].join("\n");

  const page = await b.page({ user: "carol" });
  // The wizard sends decisions to the commit route; it never writes assets or transactions itself.
  const writes: { path: string; dryRun: boolean | undefined }[] = [];
  page.on("request", (r) => {
    if (r.method() !== "POST") return;
    const path = new URL(r.url()).pathname;
    writes.push({ path, dryRun: path.endsWith("/commit") ? (r.postDataJSON() as { dry_run?: boolean }).dry_run : undefined });
  });
  await page.goto(b.url("/import"));
  await page.getByLabel("Into broker").selectOption({ label: "Import target" });
  await page.getByLabel("Report file").setInputFiles({ name: "fix-me.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Upload" }).click();
  await page.getByText("recognised by Generic CSV").waitFor();
  await page.getByRole("button", { name: "Read the report" }).click();
  await page.getByRole("heading", { name: /^4\. Rows/ }).waitFor();

  // The row without an asset is held back with the parse's todo, and cannot be ticked.
  const row2 = page.getByLabel("Import row 2");
  expect(await row2.isChecked()).toBe(false);
  expect(await row2.isDisabled()).toBe(true);
  await page.getByText("1 row(s) need a correction before they can be imported").waitFor();
  await page.getByRole("button", { name: "Import 2 rows" }).waitFor();

  await page.getByRole("button", { name: "Edit row 2" }).click();
  const dialog = page.getByRole("dialog", { name: "Row 2: BUY" });
  const asset = dialog.getByLabel("Asset");
  expect(await asset.getAttribute("aria-invalid")).toBe("true");
  await dialog.getByText("The report names no asset for this BUY; choose one").waitFor();
  await b.shot(page, "import-fix-row");
  await asset.selectOption({ label: "Vee Corp" });
  await dialog.getByLabel("Amount").fill("-100.25");
  await dialog.getByLabel("Description").fill("Bought at the counter");
  await dialog.getByRole("button", { name: "Apply to the row" }).click();
  await dialog.waitFor({ state: "detached" });

  // Fixed: ticked again, marked as corrected, and the count follows.
  expect(await row2.isChecked()).toBe(true);
  expect(await row2.isDisabled()).toBe(false);
  await page.getByText("corrected").waitFor();
  expect(await page.getByText("need a correction").count()).toBe(0);
  await page.getByRole("button", { name: "Import 3 rows" }).click();
  await page.getByText("Imported 3 transactions.").waitFor();

  const ledger = await (await carol.get(`/transactions?broker_id=${brokerId}`)).json() as { type: string; asset_id: number | null; quantity: string; cash: { code: string; amount: string } | null; description: string | null; date: string }[];
  const fixed = ledger.find((x) => x.date === "2024-01-03")!;
  expect({ type: fixed.type, asset_id: fixed.asset_id, cash: fixed.cash, description: fixed.description })
    .toEqual({ type: "BUY", asset_id: vee, cash: { code: "EUR", amount: "-100.25" }, description: "Bought at the counter" });
  expect(Number(fixed.quantity)).toBe(4);
  expect(ledger.map((x) => x.type).sort()).toEqual(["BUY", "BUY", "DEPOSIT"]);
  const commits = writes.filter((w) => /\/brokers\/import\/files\/[^/]+\/commit$/.test(w.path));
  expect(commits.some((w) => w.dryRun === true)).toBe(true);
  expect(commits.filter((w) => w.dryRun === false)).toHaveLength(1);
  expect(writes.filter((w) => w.path === "/api/v1/assets" || w.path === "/api/v1/transactions/commit")).toEqual([]);
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("a cold dashboard keeps its layout with placeholders while the report computes, then fills it in", async () => {
  const carol = b.api.as.carol!;
  await carol.post("/brokers", [{ name: "Cash box", initial_balances: [{ code: "EUR", amount: "250" }] }]);
  const page = await b.page({ user: "carol" });
  // The report is held back until the page has been checked, as a cold engine would hold it.
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  await page.route("**/api/v1/portfolio/report", async (route) => { await held; await route.continue(); });
  await page.goto(b.url("/"));
  await page.getByRole("status").getByText("Computing the portfolio…").waitFor();
  const netWorth = page.getByTestId("net-worth");
  await netWorth.locator("[data-skeleton]").waitFor();
  for (const name of ["Net worth and invested capital", "Data quality", "Allocation", "Top holdings"]) {
    await page.getByRole("heading", { name, exact: true }).waitFor();
  }
  expect(await page.locator(".kpis").getAttribute("aria-busy")).toBe("true");
  expect(await page.locator("[data-skeleton]").count()).toBeGreaterThan(6);
  // The filters are usable at once.
  expect(await page.getByRole("button", { name: "YTD" }).isEnabled()).toBe(true);
  await b.shot(page, "dashboard-computing");

  release();
  await netWorth.locator("[data-skeleton]").waitFor({ state: "detached" });
  // The second row is its own chunk, mounted once the first answer is in, and asks its own report
  // (income this year) with a placeholder of its own: waiting for no placeholder before it mounted
  // could pass in between. The other cards fill in from their answers, a render or two later.
  await page.getByTestId("income-year").waitFor();
  await page.waitForFunction(() => document.querySelector("[data-skeleton]") === null, undefined, { timeout: 10_000 });
  expect(await page.locator("[data-skeleton]").count()).toBe(0);
  expect(await page.locator(".kpis").getAttribute("aria-busy")).toBe("false");
  expect((await netWorth.locator(".kpi-value").textContent())!.trim()).toMatch(/€/);
  expect(await page.getByText("Computing the portfolio…").count()).toBe(0);
  expect(pageErrors()).toEqual([]);
}, 60_000);
