import { beforeAll, expect, test } from "bun:test";
import { useBrowser } from "../helpers/browser.ts";

// The transactions table with 20,000 rows: only the rows in view are in the page, scrolling and
// the keyboard reach the oldest row, filters narrow it, and a row opens in the edit form.
const b = useBrowser({ name: "transactions-20k", users: ["alice"] });
const ROWS = 20_000;
let brokerId = 0;

const dayPlus = (start: string, n: number) => new Date(Date.parse(`${start}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  const alice = b.api.as.alice!;
  const broker = await (await alice.post("/brokers", [{ name: "Big ledger", opened_at: "2015-01-01", initial_balances: [{ code: "EUR", amount: "1000000" }] }])).json();
  brokerId = broker.results[0].broker_id;
  const asset = await (await alice.post("/assets", [{ name: "Index Fund", currency: "EUR", asset_type: "ETF" }])).json();
  const assetId = asset.results[0].asset_id;
  for (let batch = 0; batch < ROWS / 10_000; batch++) {
    const creates = Array.from({ length: 10_000 }, (_, i) => {
      const n = batch * 10_000 + i;
      return { broker_id: brokerId, type: "BUY", date: dayPlus("2015-01-02", Math.floor(n / 6)), asset_id: assetId, quantity: "1", cash: { code: "EUR", amount: "-10" }, description: `row ${n}` };
    });
    const r = await (await alice.post("/transactions/commit", { creates })).json();
    expect(r.committed).toBe(true);
  }
}, 120_000);

test("20,000 rows: a few dozen in the page, scroll and keyboard reach the end, filters and edit work", async () => {
  const page = await b.page({ user: "alice" });
  await page.goto(b.url(`/transactions?broker_id=${brokerId}`));
  await page.getByText("20,001 transactions").waitFor();
  const body = page.getByLabel("Transaction rows, scroll for more");
  const rendered = () => body.locator("[role=row]").count();
  expect(await rendered()).toBeLessThan(80);
  await page.getByRole("row").filter({ hasText: "row 19999" }).waitFor(); // newest first
  await b.shot(page, "top");

  // Scroll to the bottom: the oldest row, the initial deposit, is drawn; the DOM stays small.
  await body.evaluate((el) => { el.scrollTop = el.scrollHeight; });
  await page.getByRole("row").filter({ hasText: "Initial balance" }).waitFor();
  expect(await rendered()).toBeLessThan(80);
  // Keyboard: Home on the focused list goes back to the newest rows.
  await body.focus();
  await page.keyboard.press("Home");
  await page.getByRole("row").filter({ hasText: "row 19999" }).waitFor();

  // The middle of the list, by scrolling to row 10,000.
  await body.evaluate((el) => { el.scrollTop = 10_000 * 40; });
  const middle = page.getByRole("row").filter({ hasText: /row 999\d(?!\d)/ }).first();
  await middle.waitFor();
  const description = (await middle.textContent())!.match(/row \d+/)![0];
  await middle.getByRole("button", { name: /Edit transaction/ }).click();
  const dialog = page.getByRole("dialog", { name: "Edit transaction" });
  expect(await dialog.getByLabel("Description").inputValue()).toBe(description);
  expect(await dialog.getByLabel("Amount").inputValue()).toBe("10");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // Filters narrow the list through the URL.
  await page.getByLabel("Type").selectOption("DEPOSIT");
  await page.getByText("1 transaction", { exact: true }).waitFor();
  expect(new URL(page.url()).searchParams.get("type")).toBe("DEPOSIT");
  await page.getByLabel("Type").selectOption("");
  await page.getByLabel("From").fill("2024-01-01");
  await page.getByLabel("From").press("Tab");
  await page.getByText(/^[\d,]+ transactions$/).filter({ hasNotText: "20,001" }).waitFor();
  await b.shot(page, "filtered");
  expect(b.errors.filter((e) => !e.includes("Failed to load resource"))).toEqual([]);
}, 120_000);
