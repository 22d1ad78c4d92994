import { beforeAll, expect, test } from "bun:test";
import { useBrowser } from "../helpers/browser.ts";

// Three things a second person or a hostile name must never break: a shared broker is read-only
// for a VIEWER, a data-quality issue leads to the page that fixes it, and user text stays text.
const b = useBrowser({ name: "sharing", users: ["alice", "bob"] });
const XSS = "<img src=x onerror=alert(1)>";
const today = new Date().toISOString().slice(0, 10);
let brokerId = 0;
let pricedId = 0;
let usdId = 0;

beforeAll(async () => {
  const alice = b.api.as.alice!;
  const broker = await (await alice.post("/brokers", [{ name: "Family account", initial_balances: [{ code: "EUR", amount: "5000" }, { code: "USD", amount: "1000" }] }])).json();
  brokerId = broker.results[0].broker_id;
  const assets = await (await alice.post("/assets", [{ name: XSS, currency: "EUR", asset_type: "STOCK" }, { name: "US Tech", currency: "USD", asset_type: "FUND" }])).json();
  [pricedId, usdId] = assets.results.map((r: { asset_id: number }) => r.asset_id);
  expect((await alice.post("/assets/prices", [{ asset_id: pricedId, prices: [{ date: today, close: "20" }] }, { asset_id: usdId, prices: [{ date: today, close: "50" }] }])).status).toBe(200);
  const commit = await (await alice.post("/transactions/commit", { creates: [
    { broker_id: brokerId, type: "BUY", date: today, asset_id: pricedId, quantity: "10", cash: { code: "EUR", amount: "-150" }, description: XSS },
    { broker_id: brokerId, type: "BUY", date: today, asset_id: usdId, quantity: "2", cash: { code: "USD", amount: "-80" } },
  ] })).json();
  expect(commit.committed).toBe(true);
}, 30_000);

const scriptRan = () => b.errors.filter((e) => e.startsWith("dialog") || e.startsWith("page:"));

test("an owner shares a broker with a VIEWER, who sees it and cannot change it", async () => {
  const page = await b.page({ user: "alice" });
  await page.goto(b.url(`/brokers/${brokerId}`));
  await page.getByRole("heading", { name: "Family account" }).waitFor();
  const share = page.getByRole("form", { name: "Share with a user" });
  await share.getByLabel("Find a user").fill("bo");
  await page.getByRole("option", { name: "bob" }).click();
  await share.getByLabel("Role").selectOption("VIEWER");
  await share.getByRole("button", { name: "Share" }).click();
  await page.getByRole("row").filter({ hasText: "bob" }).getByLabel("Role of bob").waitFor();
  expect(await page.getByLabel("Role of bob").inputValue()).toBe("VIEWER");
  // A VIEWER holds no share (it counts the whole broker), so its row has no share box; the owner's
  // share is a percentage, and one over 100 % is refused in words.
  expect(await page.getByRole("row").filter({ hasText: "bob" }).getByRole("textbox").count()).toBe(0);
  expect(await page.getByLabel("Share of alice (%)").inputValue()).toBe("100");
  await page.getByLabel("Share of alice (%)").fill("101");
  await page.getByLabel("Share of alice (%)").press("Tab");
  await page.getByRole("alert").getByText("Enter a share between 0 and 100 %").waitFor();
  await b.shot(page, "broker-owner");

  const bob = await b.page({ user: "bob" });
  await bob.goto(b.url("/brokers"));
  const card = bob.locator(".broker-card", { hasText: "Family account" });
  await card.getByText("Viewer", { exact: true }).waitFor();
  expect(await card.getByRole("button", { name: /Edit/ }).count()).toBe(0);
  await card.getByRole("link", { name: "Family account" }).click();
  await bob.getByText("You can view this broker; only its owners and editors can change it.").waitFor();
  await bob.getByText("Your role: Viewer").waitFor();
  expect(await bob.getByRole("button", { name: "Edit broker" }).count()).toBe(0);
  expect(await bob.getByRole("form", { name: "Share with a user" }).count()).toBe(0);
  await bob.getByRole("link", { name: "Transactions" }).last().click();
  await bob.getByText("4 transactions").waitFor();
  expect(await bob.getByRole("button", { name: "New transaction" }).count()).toBe(0);
  expect(await bob.getByRole("button", { name: /Edit transaction|Delete transaction/ }).count()).toBe(0);
  await b.shot(bob, "broker-viewer");
}, 60_000);

test("the missing FX pair issue on the dashboard opens the add-pair dialog with the pair filled in", async () => {
  const page = await b.page({ user: "alice" });
  await page.goto(b.url("/"));
  const panel = page.getByRole("region", { name: "Data quality" });
  const issue = panel.getByRole("listitem").filter({ hasText: "No exchange rate pair is configured" });
  await issue.waitFor();
  await b.shot(page, "dashboard-data-quality");
  await issue.getByRole("link", { name: "Add the pair EUR-USD" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a currency pair" });
  await dialog.waitFor();
  expect(await dialog.getByLabel("Base currency").inputValue()).toBe("EUR");
  expect(await dialog.getByLabel("Quote currency").inputValue()).toBe("USD");
  await b.shot(page, "fx-add-pair");
  // Fix it there: a manual pair with today's rate, and the dashboard values the USD positions.
  await dialog.getByRole("button", { name: "Enter rates by hand instead" }).click();
  await page.getByRole("heading", { name: "EUR-USD: routes" }).waitFor();
  await page.getByRole("textbox", { name: "1 EUR in USD" }).fill("1.25");
  await page.getByRole("button", { name: "Save rate" }).click();
  await page.getByText("Saved 1 EUR = 1.25 USD").waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
  // 5,000 − 150 + 10 × 20 EUR, and (1,000 − 80 + 2 × 50) USD / 1.25 = 816 EUR.
  await page.getByTestId("net-worth").getByText("€5,866.00").waitFor();
  expect(await panel.getByText("No exchange rate pair is configured").count()).toBe(0);
}, 60_000);

test(`an asset named ${XSS} is shown as text on every page and runs nothing`, async () => {
  const page = await b.page({ user: "alice" });
  for (const path of ["/", "/assets", `/assets/${pricedId}`, `/brokers/${brokerId}`, "/transactions"]) {
    await page.goto(b.url(path));
    await page.getByText(XSS).filter({ visible: true }).first().waitFor();
    expect(await page.locator("img[src='x']").count()).toBe(0);
    // Every form control on the page has an accessible name (a label or aria-label).
    const unnamed = await page.evaluate(() => [...document.querySelectorAll("input, select, textarea, button")]
      .filter((el) => {
        const e = el as HTMLInputElement;
        if (e.type === "hidden" || e.closest("[aria-hidden=true]")) return false;
        const labelled = (e.labels?.length ?? 0) > 0 || e.getAttribute("aria-label") || e.getAttribute("aria-labelledby");
        return !labelled && !(e.tagName === "BUTTON" && e.textContent!.trim());
      }).map((e) => e.outerHTML.slice(0, 80)));
    expect({ path, unnamed }).toEqual({ path, unnamed: [] });
  }
  await b.shot(page, "escaped-name");
  expect(scriptRan()).toEqual([]);
}, 60_000);

test("manual asset events are added and edited; the provider search streams to its end", async () => {
  const page = await b.page({ user: "alice" });
  await page.goto(b.url(`/assets/${usdId}?tab=events`));
  await page.getByText("No events.").waitFor();
  await page.getByLabel("Date").fill("2024-06-14");
  await page.getByLabel("Type").selectOption("DIVIDEND");
  await page.getByLabel("Value (USD)").fill("0.42");
  await page.getByRole("button", { name: "Add event" }).click();
  const row = page.getByRole("row").filter({ hasText: "Jun 14, 2024" });
  await row.getByText("$0.42").waitFor();
  await row.getByRole("button", { name: "Edit the event of Jun 14, 2024" }).click();
  await page.getByRole("heading", { name: "Edit the manual event" }).waitFor();
  await page.getByLabel("Value (USD)").fill("0.45");
  await page.getByLabel("Notes").fill("Q2 dividend");
  await page.getByRole("button", { name: "Save event" }).click();
  await row.getByText("$0.45").waitFor();
  await row.getByText("Q2 dividend").waitFor();
  expect(await page.getByRole("row").filter({ hasText: "DIVIDEND" }).count()).toBe(1);

  await page.getByRole("button", { name: "Price source" }).click();
  await page.getByText("Prices are entered by hand.").waitFor();
  await page.getByLabel("Search providers").fill("ACME");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  // The test server's providers are offline: every one reports its failure, then the search ends.
  await page.getByText("No result.").waitFor({ timeout: 30_000 });
  expect(await page.getByText("Asking the providers…").count()).toBe(0);
}, 60_000);

test("keyboard only: the skip link, a dialog that takes the focus and gives it back on Escape", async () => {
  const page = await b.page({ user: "alice" });
  await page.goto(b.url("/brokers"));
  await page.getByRole("heading", { name: "Brokers" }).waitFor();
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
  const open = page.getByRole("button", { name: "New broker" });
  await open.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "New broker" });
  await dialog.waitFor();
  expect(await page.evaluate(() => !!document.activeElement?.closest("dialog"))).toBe(true);
  await page.keyboard.type("Typed broker");
  expect(await dialog.getByLabel("Name").inputValue()).toBe("Typed broker");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("New broker");
}, 60_000);

test("every page renders at desktop and phone size without sideways scrolling (screenshots for review, and for docs/web.md with SCREENSHOTS=docs/screenshots)", async () => {
  // The pair the earlier test found missing, now with a route and two months of rates, and a price
  // history for the fund, so the FX and asset pages show what they are for.
  const alice = b.api.as.alice!;
  const days = Array.from({ length: 60 }, (_, i) => new Date(Date.now() - (59 - i) * 86_400_000).toISOString().slice(0, 10));
  expect((await alice.post("/fx/providers/routes", [
    { base: "EUR", quote: "USD", priority: 1, chain_steps: [{ from: "EUR", to: "USD", provider: "ECB" }] },
    { base: "EUR", quote: "USD", priority: 999, chain_steps: [{ from: "EUR", to: "USD", provider: "MANUAL" }] },
  ])).status).toBe(201);
  expect((await alice.post("/fx/currencies/rate", days.map((date, i) => ({ date, base: "EUR", quote: "USD", rate: (1.05 + 0.03 * Math.sin(i / 9)).toFixed(4) })))).status).toBeLessThan(300);
  expect((await alice.post("/assets/prices", [{ asset_id: usdId, prices: days.map((date, i) => ({ date, close: (45 + 5 * Math.sin(i / 7) + i / 12).toFixed(2) })) }])).status).toBe(200);
  // [screenshot name, path, heading, name of its screenshot in docs/web.md]
  const pages: [string, string, string, string?][] = [
    ["dashboard", "/", "Dashboard", "dashboard"], ["brokers", "/brokers", "Brokers", "brokers"], ["broker", `/brokers/${brokerId}`, "Family account", "broker"],
    ["transactions", "/transactions", "Transactions", "transactions"], ["assets", "/assets", "Assets", "assets"],
    ["asset-overview", `/assets/${usdId}`, "US Tech", "asset"], ["asset-prices", `/assets/${usdId}?tab=prices`, "US Tech"],
    ["asset-events", `/assets/${usdId}?tab=events`, "US Tech"], ["asset-source", `/assets/${usdId}?tab=source`, "US Tech"],
    ["fx", "/fx/EUR-USD", "Exchange rates", "fx"], ["import", "/import", "Import", "import"], ["uploads", "/uploads", "Uploads", "uploads"],
    ["settings", "/settings", "Settings", "settings"], ["holdings", "/holdings", "Holdings", "holdings"],
    ["performance", "/performance", "Performance", "performance"], ["income", "/income", "Income", "income"],
    ["gains", "/gains", "Realised gains", "gains"], ["risk", "/risk", "Risk lab", "risk"], ["tools", "/tools", "Tools", "tools"],
    ["admin", "/admin", "Administration", "admin"], ["not-found", "/no/such/page", "Page not found"],
  ];
  for (const [size, viewport] of [["desktop", undefined], ["phone", { width: 390, height: 844 }]] as const) {
    const page = await b.page({ user: "alice", viewport });
    for (const [name, path, heading, doc] of pages) {
      await page.goto(b.url(path));
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      await page.waitForLoadState("networkidle");
      if (size === "phone") {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect({ name, overflow }).toEqual({ name, overflow: 0 });
      }
      await b.shot(page, `${size}-${name}`);
      if (size === "desktop" && doc) await b.docShot(page, doc);
    }
  }
  expect(scriptRan()).toEqual([]);
}, 180_000);
