import { beforeAll, expect, test } from "bun:test";
import type { Locator } from "playwright-core";
import { useBrowser } from "../helpers/browser.ts";

/** Waits until an input holds `value` (the prefill arrives after a round trip). */
async function valueOf(input: Locator, value: string): Promise<string> {
  let seen = "";
  for (let i = 0; i < 100 && (seen = await input.inputValue()) !== value; i++) await Bun.sleep(100);
  return seen;
}

// A broker funded in EUR buys a USD stock: the form offers to pay from the EUR cash, prefills the
// rate known for the day (changeable), and writes the conversion and the buy in one batch, so the
// USD cash never goes negative and nothing is half-written.
const b = useBrowser({ name: "foreign-currency-buy", users: ["ada", "alice"] });
let brokerId = 0;

beforeAll(async () => {
  // The administrator keeps the shared rates: 1 EUR = 1.085 USD from the start of 2025.
  expect((await b.api.as.ada!.post("/fx/currencies/rate", [{ date: "2025-01-02", base: "EUR", quote: "USD", rate: "1.085" }])).status).toBe(200);
  const alice = b.api.as.alice!;
  const broker = await (await alice.post("/brokers", [{ name: "Euro Broker", opened_at: "2025-01-02", initial_balances: [{ code: "EUR", amount: "5000" }] }])).json();
  brokerId = broker.results[0].broker_id;
  expect((await alice.post("/assets", [{ name: "Apple Inc", currency: "USD", asset_type: "STOCK" }])).status).toBe(201);
}, 30_000);

test("a USD buy from an EUR-funded broker is paid from the EUR cash through a conversion at a rate the user sees and can change", async () => {
  const page = await b.page({ user: "alice" });
  await page.goto(b.url(`/transactions?broker_id=${brokerId}`));
  await page.getByRole("button", { name: "New transaction" }).click();
  const tx = page.getByRole("dialog", { name: "New transaction" });
  await tx.getByLabel("Type").selectOption("BUY");
  await tx.getByLabel("Broker").selectOption({ label: "Euro Broker" });
  await tx.getByLabel("Date").fill("2025-03-10");
  await tx.getByLabel("Asset").selectOption({ label: "Apple Inc" });
  await tx.getByLabel("Quantity").fill("5");
  await tx.getByLabel("Amount").fill("1085");
  // The broker holds no USD: the form offers its EUR cash first, with the day's rate.
  const payFrom = tx.getByLabel("Pay from");
  await payFrom.waitFor();
  expect(await payFrom.locator("option:checked").textContent()).toBe("EUR cash (converted to USD)");
  const rate = tx.getByLabel("Exchange rate: 1 EUR in USD");
  expect(await valueOf(rate, "1.085")).toBe("1.085");
  await tx.getByText("€1,000.00 are converted into $1,085.00.").waitFor();
  // The broker's own rate that day was a little different.
  await rate.fill("1.085");
  await rate.fill("1.1");
  await tx.getByText("€986.37 are converted into $1,085.00.").waitFor();
  await b.shot(page, "pay-from-eur");
  await tx.getByRole("button", { name: "Save" }).click();
  await tx.waitFor({ state: "hidden" });
  await page.getByRole("row").filter({ hasText: "Apple Inc" }).getByText("-$1,085.00").waitFor();

  const rows = (await (await b.api.as.alice!.get(`/transactions?broker_id=${brokerId}`)).json()) as
    { type: string; date: string; cash: { code: string; amount: string } | null; link_uuid: string | null; related_transaction_id: number | null }[];
  const seen = rows.map((r) => [r.type, r.date, r.cash?.code, Number(r.cash?.amount)]);
  expect(seen).toContainEqual(["FX_CONVERSION", "2025-03-10", "EUR", -986.37]);
  expect(seen).toContainEqual(["FX_CONVERSION", "2025-03-10", "USD", 1085]);
  expect(seen).toContainEqual(["BUY", "2025-03-10", "USD", -1085]);
  const summary = await (await b.api.as.alice!.get(`/brokers/${brokerId}/summary`)).json();
  const cash = Object.fromEntries((summary.cash_balances as { code: string; amount: string }[]).map((c) => [c.code, Number(c.amount)]));
  expect(cash).toEqual({ EUR: 4013.63, USD: 0 });
}, 60_000);

test("paying from a currency the broker lacks is refused with a message that names the conversion option, and nothing is written", async () => {
  const page = await b.page({ user: "alice" });
  await page.goto(b.url(`/transactions?broker_id=${brokerId}`));
  const before = ((await (await b.api.as.alice!.get(`/transactions?broker_id=${brokerId}`)).json()) as unknown[]).length;
  await page.getByRole("button", { name: "New transaction" }).click();
  const tx = page.getByRole("dialog", { name: "New transaction" });
  await tx.getByLabel("Broker").selectOption({ label: "Euro Broker" });
  await tx.getByLabel("Date").fill("2025-03-11");
  await tx.getByLabel("Asset").selectOption({ label: "Apple Inc" });
  await tx.getByLabel("Quantity").fill("1");
  await tx.getByLabel("Amount").fill("200");
  // The user insists on paying from USD cash, which the broker does not have.
  await tx.getByLabel("Pay from").selectOption({ label: "USD cash" });
  await tx.getByRole("button", { name: "Save" }).click();
  const message = tx.getByText(/would go negative/);
  await message.waitFor();
  expect(await message.textContent()).toMatch(/"Euro Broker".*pay from the broker's EUR cash with a currency conversion/);
  // And the option it names is right there.
  await tx.getByLabel("Pay from").selectOption({ label: "EUR cash (converted to USD)" });
  expect(await valueOf(tx.getByLabel("Exchange rate: 1 EUR in USD"), "1.085")).toBe("1.085");
  await tx.getByRole("button", { name: "Save" }).click();
  await tx.waitFor({ state: "hidden" });
  const after = ((await (await b.api.as.alice!.get(`/transactions?broker_id=${brokerId}`)).json()) as unknown[]).length;
  expect(after).toBe(before + 3);
  expect(b.errors.filter((e) => !e.includes("status of 4"))).toEqual([]);
}, 60_000);
