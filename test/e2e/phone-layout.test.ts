import { beforeAll, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { useBrowser } from "../helpers/browser.ts";

// On a 375×812 phone every page of the navigation is one tap away behind the menu button (no
// entry off-screen in a sideways strip), and the transactions table turns into cards that show
// every row's cash amount.
const PHONE = { width: 375, height: 812 };
const b = useBrowser({ name: "phone-layout", users: ["pia"] });
let brokerId = 0;

beforeAll(async () => {
  const pia = b.api.as.pia!;
  const broker = brokerId = (await (await pia.post("/brokers", [{ name: "Pocket Broker", opened_at: "2025-01-02", initial_balances: [{ code: "EUR", amount: "3000" }] }])).json()).results[0].broker_id;
  const asset = (await (await pia.post("/assets", [{ name: "Phone Maker AG", currency: "EUR" }])).json()).results[0].asset_id;
  const commit = await pia.post("/transactions/commit", { creates: [
    { broker_id: broker, type: "BUY", date: "2025-02-03", asset_id: asset, quantity: "4", cash: { code: "EUR", amount: "-1205.50" } },
    { broker_id: broker, type: "DIVIDEND", date: "2025-06-03", asset_id: asset, quantity: "0", cash: { code: "EUR", amount: "12.40" } },
  ] });
  expect((await commit.json()).committed).toBe(true);
}, 30_000);

/** Whether the element lies wholly inside the phone's viewport. */
async function onScreen(el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  return !!box && box.x >= 0 && box.y >= 0 && box.x + box.width <= PHONE.width && box.y + box.height <= PHONE.height;
}

const noSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test("on a phone every navigation entry is reachable and visible through the menu button", async () => {
  const page = await b.page({ user: "pia", viewport: PHONE });
  await page.goto(b.url("/"));
  const nav = page.getByRole("navigation", { name: "Main" });
  const menu = nav.getByRole("button", { name: /Menu/ });
  await menu.waitFor();
  expect(await onScreen(menu)).toBe(true);
  expect(await menu.getAttribute("aria-expanded")).toBe("false");
  const entries: [string, string][] = [
    ["Dashboard", "Dashboard"], ["Brokers", "Brokers"], ["Transactions", "Transactions"], ["Assets", "Assets"],
    ["FX", "Exchange rates"], ["Import", "Import"], ["Uploads", "Uploads"], ["Settings", "Settings"],
  ];
  for (const [label, heading] of entries) {
    await menu.click();
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    // The whole list is on screen at once, not in a strip to scroll sideways.
    for (const [other] of entries) expect({ other, visible: await onScreen(nav.getByRole("link", { name: other, exact: true })) }).toEqual({ other, visible: true });
    if (label === "Transactions") await b.shot(page, "menu-open");
    await nav.getByRole("link", { name: label, exact: true }).click();
    await page.getByRole("heading", { level: 1, name: heading }).waitFor();
    // Following a link folds the menu again, and the button says where the user is.
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    expect(await nav.getByRole("link", { name: label, exact: true }).isVisible()).toBe(false);
    expect(await menu.textContent()).toContain(label);
    expect(await noSideways(page)).toBeLessThanOrEqual(0);
  }
  expect(b.errors).toEqual([]);
}, 60_000);

test("on a phone the transactions become cards that show each row's cash amount", async () => {
  const page = await b.page({ user: "pia", viewport: PHONE });
  await page.goto(b.url("/transactions"));
  const buy = page.getByRole("row").filter({ hasText: "Phone Maker AG" }).filter({ hasText: "Buy" });
  const cash = buy.getByRole("cell").filter({ hasText: "-€1,205.50" });
  await cash.waitFor();
  expect(await onScreen(cash)).toBe(true);
  expect(await onScreen(buy.getByRole("cell").filter({ hasText: "Pocket Broker" }))).toBe(true);
  expect(await onScreen(buy.getByRole("button", { name: /^Delete transaction/ }))).toBe(true);
  const dividend = page.getByRole("row").filter({ hasText: "Dividend" }).getByRole("cell").filter({ hasText: "€12.40" });
  expect(await onScreen(dividend)).toBe(true);
  expect(await noSideways(page)).toBeLessThanOrEqual(0);
  await b.shot(page, "transaction-cards");

  // The broker's holdings are cards too: every value labelled and on screen.
  await page.goto(b.url(`/brokers/${brokerId}`));
  const holding = page.getByRole("region", { name: "Holdings" }).locator("tr", { hasText: "Phone Maker AG" });
  const cost = holding.locator("td[data-label='Total cost']");
  await cost.getByText("€1,205.50").waitFor();
  await cost.scrollIntoViewIfNeeded();
  expect(await onScreen(cost)).toBe(true);
  expect(await noSideways(page)).toBeLessThanOrEqual(0);
  await b.shot(page, "broker-cards");
  expect(b.errors).toEqual([]);
}, 60_000);
