import { beforeAll, expect, test } from "bun:test";
import { useBrowser } from "../helpers/browser.ts";

// People read names, not the codes the API speaks: setting labels instead of keys, reader names
// instead of plugin codes, roles and statuses in words, dates in their locale. And a broker report
// sent for import can be found again on the Uploads page, with a way back into its import. Price and
// rate providers go by their plugins' names, sync outcomes and caches in words.
const b = useBrowser({ name: "labels", users: ["admin", "bob"] });
let brokerId = 0;
let assetId = 0;

const CODES = /\b(session_ttl_hours|enable_registration|max_file_upload_mb|scheduler_enabled|broker_generic_csv|OWNER|EDITOR|VIEWER|ECB|yfinance|TICKER|upload_metadata|portfolio_blob|fx-provider|quote-provider)\b/;
const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

beforeAll(async () => {
  const admin = b.api.as.admin!;
  brokerId = (await (await admin.post("/brokers", [{ name: "Main account" }])).json()).results[0].broker_id;
  expect((await admin.post(`/brokers/${brokerId}/access`, { user_id: b.api.users.bob!.id, role: "VIEWER" })).status).toBe(201);
  assetId = (await (await admin.post("/assets", [{ name: "Apple", currency: "USD", asset_type: "STOCK" }])).json()).results[0].asset_id;
  expect((await admin.post("/assets/provider", [{ asset_id: assetId, provider_code: "yfinance", identifier: "AAPL", identifier_type: "TICKER" }])).status).toBe(200);
  expect((await admin.post("/fx/providers/routes", [{ base: "EUR", quote: "USD", priority: 1, chain_steps: [{ from: "EUR", to: "USD", provider: "ECB" }] }])).status).toBe(201);
}, 30_000);

test("server settings are labelled and explained in words, yes/no instead of true/false", async () => {
  const page = await b.page({ user: "admin" });
  await page.goto(b.url("/settings"));
  const form = page.getByRole("form", { name: "Server settings" });
  await form.getByLabel("Session length (hours)").waitFor();
  await form.getByText("How long a sign-in lasts").waitFor();
  expect(await form.getByLabel("Allow registration").locator("option").allTextContents()).toEqual(["Yes", "No"]);
  expect(await form.innerText()).not.toMatch(CODES);
  const scheduler = page.getByRole("region", { name: "Scheduler" });
  await scheduler.getByText("Current prices", { exact: true }).waitFor();
  expect(await scheduler.innerText()).not.toMatch(/current_price|history_sync/);
  await b.shot(page, "settings-labels");
}, 60_000);

test("sharing shows roles by name, to the owner and to a viewer", async () => {
  const page = await b.page({ user: "admin" });
  await page.goto(b.url(`/brokers/${brokerId}`));
  const role = page.getByLabel("Role of bob");
  await role.waitFor();
  expect(await role.locator("option").allTextContents()).toEqual(["Viewer", "Editor", "Owner"]);
  expect(await role.inputValue()).toBe("VIEWER");
  const sharing = page.getByRole("region", { name: "Sharing" });
  expect(await sharing.innerText()).not.toMatch(CODES);

  const bob = await b.page({ user: "bob" });
  await bob.goto(b.url("/brokers"));
  await bob.locator(".broker-card", { hasText: "Main account" }).getByText("Viewer", { exact: true }).waitFor();
  await bob.goto(b.url(`/brokers/${brokerId}`));
  await bob.getByText("Your role: Viewer").waitFor();
  expect(await bob.locator("main").innerText()).not.toMatch(CODES);
}, 60_000);

test("the import names its readers; the report is then listed under Uploads with its status, and its import can be continued", async () => {
  const csv = ["Date,Type,Symbol,ISIN,Name,Quantity,Price,Amount,Currency,Fee,Description", "2024-01-02,Deposit,,,,,,1000.00,EUR,,Funding"].join("\n");
  const page = await b.page({ user: "admin" });
  await page.goto(b.url("/import"));
  await page.getByLabel("Into broker").selectOption({ label: "Main account" });
  await page.getByLabel("Report file").setInputFiles({ name: "funding.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Upload" }).click();
  await page.getByText("recognised by Generic CSV").waitFor();
  const reader = page.getByLabel("Reader");
  expect(await reader.locator("option").allTextContents()).toEqual(["Generic CSV", "Detect automatically"]);
  expect(await page.locator("main").innerText()).not.toMatch(CODES);
  await page.getByRole("button", { name: "Read the report" }).click();
  await page.getByRole("heading", { name: /^4\. Rows/ }).waitFor();
  await b.shot(page, "import-reader-names");

  // Uploads lists the report (it is not an upload of that page), read and ready, dated in words.
  await page.getByRole("link", { name: "Your broker reports" }).click();
  const reports = page.getByRole("region", { name: "Broker reports" });
  const row = reports.getByRole("row").filter({ hasText: "funding.csv" });
  await row.getByText("Read, ready to import").waitFor();
  await row.getByRole("cell", { name: "Main account", exact: true }).waitFor();
  const text = await reports.innerText();
  expect(text).not.toMatch(ISO_INSTANT);
  expect(text).not.toMatch(/\bparsed\b/);
  await b.shot(page, "uploads-broker-reports");

  // Back into the import, from its last reading: the rows are there without uploading again.
  await row.getByRole("link", { name: "Continue the import of funding.csv" }).click();
  await page.getByRole("heading", { name: /^4\. Rows/ }).waitFor();
  await page.getByText("funding.csv: recognised by Generic CSV").waitFor();
  expect(await page.getByLabel("Into broker").inputValue()).toBe(String(brokerId));
  await page.getByRole("button", { name: "Import 1 rows" }).click();
  await page.getByText("Imported 1 transactions.").waitFor();
  expect(b.errors).toEqual([]);
}, 90_000);

test("the FX page names the rate provider, and a sync's outcome and failure cause are in words", async () => {
  const page = await b.page({ user: "admin" });
  await page.goto(b.url("/fx/EUR-USD"));
  await page.getByRole("link", { name: "EUR-USD" }).waitFor();
  await page.getByText("European Central Bank", { exact: true }).waitFor();
  const sources = page.getByRole("list", { name: "Where the rates come from" });
  await sources.getByText("Provider European Central Bank, synced").waitFor();
  await page.getByText("Priority 1: EUR→USD (European Central Bank)").waitFor();
  // The provider is unreachable here (test servers never reach the network): the sync fails, said so.
  await page.getByRole("button", { name: "Sync rates" }).click();
  const outcome = page.getByRole("alert").filter({ hasText: "EUR-USD: failed" });
  await outcome.waitFor();
  expect(await outcome.innerText()).toContain("European Central Bank: ");
  await sources.getByText(/European Central Bank: the last sync on .* failed: /).waitFor();
  expect(await page.locator("main").innerText()).not.toMatch(CODES);
  await b.shot(page, "fx-provider-names");
  // The rate chart asks for rates the pair does not have yet: that answer is a 404, nothing else failed.
  expect(b.errors.filter((e) => !e.includes("status of 404"))).toEqual([]);
  b.errors.length = 0;
}, 60_000);

test("an asset names its price provider and how the provider finds it, on the list, the overview and the source tab", async () => {
  const page = await b.page({ user: "admin" });
  await page.goto(b.url("/assets"));
  await page.getByRole("row").filter({ hasText: "Apple" }).getByRole("cell", { name: "Yahoo Finance" }).waitFor();
  await page.goto(b.url(`/assets/${assetId}`));
  await page.getByText("Price source: Yahoo Finance").waitFor();
  expect(await page.locator("main").innerText()).not.toMatch(CODES);
  await page.goto(b.url(`/assets/${assetId}?tab=source`));
  await page.getByText("Yahoo Finance: AAPL (ticker)").waitFor();
  expect(await page.locator("main").innerText()).not.toMatch(CODES);
  expect(b.errors).toEqual([]);
}, 60_000);

test("the caches an administrator can clear go by what they keep, and plugins by what they add", async () => {
  // The FX sync above created the cache of provider answers, so it is listed.
  const page = await b.page({ user: "admin" });
  await page.goto(b.url("/settings"));
  const caches = page.getByRole("region", { name: "Caches" });
  await caches.getByRole("cell", { name: "Fetched exchange rates", exact: true }).waitFor();
  await caches.getByRole("button", { name: "Clear Fetched exchange rates" }).waitFor();
  expect(await caches.innerText()).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
  const plugins = page.getByRole("region", { name: "Plugins" });
  await plugins.getByRole("cell", { name: "Exchange-rate provider" }).first().waitFor();
  expect(await plugins.innerText()).not.toMatch(CODES);
  expect(b.errors).toEqual([]);
}, 60_000);
