import { beforeAll, afterAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFxUpstream } from "../fakes/fx-upstream.ts";
import { useBrowser } from "../helpers/browser.ts";
import { OFFLINE_PLUGIN_CONFIG } from "../helpers/offline-plugins.ts";
import { allowOutbound } from "../helpers/server.ts";

// The FX page says where each pair's rates come from (provider route, manual fallback, the user's
// private rates), why a provider's sync failed (here an HTTP 503), and lets the administrator make
// the manual rates the route's fallback in one click when they enter one; a user without rights gets
// no control that would be refused. The dashboard marks headline figures that rest on missing rates.
const upstream = startFxUpstream();
const dir = mkdtempSync(join(tmpdir(), "pt-e2e-fx-"));
cpSync(join(import.meta.dir, "../fixtures/plugins/fake-fx"), join(dir, "plugins", "fake-fx"), { recursive: true });
writeFileSync(join(dir, "plugins.json"), JSON.stringify({ ...OFFLINE_PLUGIN_CONFIG, fakefx: { baseUrl: upstream.url } }));
const b = useBrowser({ name: "fx-sources", users: ["ada", "bob"], env: { PLUGINS_DIR: join(dir, "plugins"), PLUGINS_CONFIG: join(dir, "plugins.json") } });

beforeAll(async () => {
  allowOutbound(b.api.dataDir, [new URL(upstream.url).host]);
  upstream.rates.set("EUR-USD", [{ date: "2025-03-03", rate: "1.08" }, { date: "2025-03-04", rate: "1.09" }]);
  const route = await b.api.as.ada!.post("/fx/providers/routes", [{ base: "EUR", quote: "USD", priority: 1, chain_steps: [{ from: "EUR", to: "USD", provider: "FAKEFX" }] }]);
  expect(route.status).toBe(201);
  // Bob holds pounds; no pair converts them to his euros.
  expect((await b.api.as.bob!.put("/settings/user", { base_currency: "EUR" })).status).toBe(200);
  expect((await b.api.as.bob!.post("/brokers", [{ name: "Sterling Account", opened_at: "2025-01-02", initial_balances: [{ code: "GBP", amount: "1000" }] }])).ok).toBe(true);
}, 30_000);
afterAll(() => upstream.stop());

test("the administrator sees where EUR-USD rates come from, why the provider's sync failed, and makes the manual rates its fallback in one click", async () => {
  const page = await b.page({ user: "ada" });
  await page.goto(b.url("/fx/EUR-USD"));
  const sources = page.getByRole("list", { name: "Where the rates come from" });
  await sources.getByText("Provider FAKEFX, synced").waitFor();
  await page.getByLabel("Sync and chart from").fill("2025-01-01");

  upstream.failures.set("EUR-USD", 503);
  await page.getByRole("button", { name: "Sync rates" }).click();
  await page.getByRole("alert").filter({ hasText: "FAKEFX: the provider answered with HTTP error 503" }).first().waitFor();
  await sources.getByText(/FAKEFX: the last sync on .* failed: the provider answered with HTTP error 503\./).waitFor();
  await b.shot(page, "sync-failed");
  upstream.failures.clear();
  await page.getByRole("button", { name: "Sync rates" }).click();
  await page.getByRole("status").filter({ hasText: "EUR-USD: succeeded" }).waitFor();
  await sources.getByText(/the last sync on/).waitFor({ state: "detached" });

  // A manual rate for January, before the provider's first rate: not used until it is the fallback.
  await page.getByText("Manual rates of this pair are not used: its rates come from FAKEFX.").waitFor();
  const manual = page.getByRole("region", { name: "Manual rate" });
  await manual.getByLabel("Date").fill("2025-01-02");
  await manual.getByLabel("1 EUR in USD").fill("1.05");
  await manual.getByRole("button", { name: "Save rate" }).click();
  await manual.getByRole("button", { name: "Use manual rates when FAKEFX has none" }).click();
  await sources.getByText("Manual rates, on the days the providers above have no rate for").waitFor();
  expect(await page.getByText("Manual rates of this pair are not used").count()).toBe(0);
  await b.shot(page, "manual-fallback");
  const convert = await b.api.as.bob!.post("/fx/currencies/convert", [{ from_amount: { code: "EUR", amount: "1" }, to: "USD", date_range: { start: "2025-02-03" } }]);
  expect((await convert.json()).results[0].rate).toMatch(/^1\.05/);
  expect(b.errors.filter((e) => !e.includes("status of"))).toEqual([]);
}, 60_000);

test("a user without FX rights gets no route or pair controls, an explanation, and keeps private rates", async () => {
  const page = await b.page({ user: "bob" });
  await page.goto(b.url("/fx/EUR-USD"));
  await page.getByText("only administrators change them").waitFor();
  await page.getByRole("list", { name: "Where the rates come from" }).getByText("Provider FAKEFX, synced").waitFor();
  expect(await page.getByRole("button", { name: /Add pair|Delete route|Move route|Reorder route/ }).count()).toBe(0);
  await page.getByRole("heading", { name: "Private rate" }).waitFor();
}, 60_000);

test("the dashboard marks the headline figures that rest on a missing exchange rate, next to each figure", async () => {
  const page = await b.page({ user: "bob" });
  await page.goto(b.url("/"));
  const netWorth = page.getByTestId("net-worth");
  const marker = netWorth.getByRole("link", { name: /^Incomplete: exchange rates are missing for .*GBP.*See Data quality\.$/ });
  await marker.waitFor();
  expect(await marker.getAttribute("href")).toBe("#h-dq");
  await b.shot(page, "dashboard-gap");
  // Bob may not add a shared pair: the panel's fix is his own rates, on the pair's page.
  await page.getByRole("link", { name: /^Enter your own rates for / }).click();
  await page.getByRole("heading", { name: "Private rate" }).waitFor();
  expect(await page.getByRole("dialog").count()).toBe(0);
}, 60_000);
