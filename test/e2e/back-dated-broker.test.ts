import { expect, test } from "bun:test";
import { useBrowser } from "../helpers/browser.ts";

// A new user's first past trades: the "New broker" dialog asks when the account was opened, so the
// opening deposit is dated then and a BUY of last spring fits after it; a BUY before that date is
// refused with a message that names the broker and says how to fix it.
const b = useBrowser({ name: "back-dated-broker", users: ["alice"] });

test("a broker opened in the past takes back-dated trades; one before its opening is refused with a fix to act on", async () => {
  const alice = b.api.as.alice!;
  const asset = await alice.post("/assets", [{ name: "Old Trade SA", currency: "EUR" }]);
  expect(asset.status).toBe(201);
  const page = await b.page({ user: "alice" });
  await page.goto(b.url("/brokers"));
  await page.getByRole("button", { name: "New broker" }).click();
  const dialog = page.getByRole("dialog", { name: "New broker" });
  await dialog.getByLabel("Name").fill("Since 2025");
  await dialog.getByLabel("Opened on").fill("2025-01-02");
  await dialog.getByLabel("Initial cash balance (optional)").fill("5000");
  await dialog.getByLabel("Currency").fill("EUR");
  await dialog.getByRole("button", { name: "Create broker" }).click();
  await page.locator(".broker-card", { hasText: "Since 2025" }).getByText("€5,000.00").waitFor();

  const brokers = (await (await alice.get("/brokers")).json()).items as { id: number; name: string; opened_at: string | null }[];
  const broker = brokers.find((x) => x.name === "Since 2025")!;
  expect(broker.opened_at).toBe("2025-01-02");
  const deposits = (await (await alice.get(`/transactions?broker_id=${broker.id}`)).json()) as { type: string; date: string }[];
  expect(deposits.map((d) => [d.type, d.date])).toEqual([["DEPOSIT", "2025-01-02"]]);

  // A BUY in March 2025 through the transaction form: accepted.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Transactions" }).click();
  const enter = async (date: string, amount: string) => {
    await page.getByRole("button", { name: "New transaction" }).click();
    const tx = page.getByRole("dialog", { name: "New transaction" });
    await tx.getByLabel("Type").selectOption("BUY");
    await tx.getByLabel("Broker").selectOption({ label: "Since 2025" });
    await tx.getByLabel("Date").fill(date);
    await tx.getByLabel("Asset").selectOption({ label: "Old Trade SA" });
    await tx.getByLabel("Quantity").fill("10");
    await tx.getByLabel("Amount").fill(amount);
    await tx.getByRole("button", { name: "Save" }).click();
    return tx;
  };
  await enter("2025-03-10", "1205");
  await page.getByRole("row").filter({ hasText: "BUY" }).filter({ hasText: "Old Trade SA" }).getByText("-€1,205.00").waitFor();

  // A BUY before the opening date: refused, and the message names the broker and the fix.
  const tx = await enter("2024-12-20", "800");
  // Shown at the amount field, the one the user can change.
  const message = tx.getByText(/would go negative/);
  await message.waitFor();
  await b.shot(page, "refused");
  const text = (await message.textContent()) ?? "";
  expect(text).toContain("\"Since 2025\"");
  expect(text).toContain("2024-12-20");
  expect(text).toMatch(/deposit|opening/i);
  expect(text).not.toMatch(/broker \d+/);
});
