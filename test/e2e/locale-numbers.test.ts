import { beforeAll, expect, test } from "bun:test";
import { useBrowser } from "../helpers/browser.ts";

// An Italian user types numbers the Italian way ("232,10", "1.234,56") and the API stores its
// canonical decimals; on a shared broker, shares read as percentages and only owners have a share box.
const b = useBrowser({ name: "locale-numbers", users: ["giulia", "marco"] });
const today = new Date().toISOString().slice(0, 10);
let brokerId = 0;
let assetId = 0;

beforeAll(async () => {
  const giulia = b.api.as.giulia!;
  expect((await giulia.put("/settings/user", { language: "it" })).status).toBe(200);
  const broker = await (await giulia.post("/brokers", [{ name: "Conto Italia", initial_balances: [{ code: "EUR", amount: "5000" }] }])).json();
  brokerId = broker.results[0].broker_id;
  const assets = await (await giulia.post("/assets", [{ name: "Enel SpA", currency: "EUR", asset_type: "STOCK" }])).json();
  assetId = assets.results[0].asset_id;
  expect((await giulia.post(`/brokers/${brokerId}/access`, { user_id: (await (await b.api.as.marco!.get("/auth/me")).json()).user.id, role: "VIEWER" })).status).toBe(201);
}, 30_000);

test("an Italian user enters a price of 232,10 and a buy of 1,5 units for 1.234,56", async () => {
  const giulia = b.api.as.giulia!;
  const page = await b.page({ user: "giulia" });
  await page.goto(b.url(`/assets/${assetId}?tab=prices`));
  await page.getByRole("heading", { name: "Aggiungi o modifica un prezzo" }).waitFor();
  await page.getByLabel("Data", { exact: true }).fill(today);
  // Ambiguous first: "1.234" could be a thousand or one point two; the user is told how to write each.
  await page.getByLabel("Chiusura (EUR)").fill("1.234");
  await page.getByRole("button", { name: "Salva prezzo" }).click();
  await page.getByRole("alert").getByText("«1.234» si può leggere in due modi").waitFor();
  await page.getByLabel("Chiusura (EUR)").fill("232,10");
  await page.getByRole("button", { name: "Salva prezzo" }).click();
  await page.getByRole("cell", { name: /^232,10\s€$/ }).waitFor();
  const query = await (await giulia.post("/assets/prices/query", [{ asset_id: assetId, date_range: { start: today, end: today }, include_prices: true }])).json();
  expect(query.items[0].prices.map((p: { close: string }) => p.close)).toEqual([expect.stringMatching(/^232\.10*$/)]);

  await page.goto(b.url("/transactions"));
  await page.getByRole("button", { name: "Nuova transazione" }).click();
  const tx = page.getByRole("dialog", { name: "Nuova transazione" });
  await tx.getByLabel("Tipo").selectOption("BUY");
  await tx.getByLabel("Broker").selectOption({ label: "Conto Italia" });
  await tx.getByLabel("Data").fill(today);
  await tx.getByLabel("Titolo").selectOption({ label: "Enel SpA" });
  await tx.getByLabel("Quantità").fill("1,5");
  await tx.getByLabel("Importo").fill("1.234,56");
  await b.shot(page, "italian-buy");
  await tx.getByRole("button", { name: "Salva" }).click();
  // Italian writes four-digit amounts without grouping ("-1234,56 €").
  await page.getByRole("row").filter({ hasText: "Enel SpA" }).getByText(/^-1\.?234,56\s€$/).waitFor();
  const rows = (await (await giulia.get(`/transactions?broker_id=${brokerId}`)).json()) as { type: string; quantity: string; cash: { amount: string } | null }[];
  const buy = rows.find((r) => r.type === "BUY")!;
  expect(buy.quantity).toMatch(/^1\.50*$/);
  expect(buy.cash!.amount).toMatch(/^-1234\.560*$/);
}, 60_000);

test("the sharing card: shares as percentages, no share box on a VIEWER row, roles explained", async () => {
  const page = await b.page({ user: "giulia" });
  await page.goto(b.url(`/brokers/${brokerId}`));
  const card = page.getByRole("region", { name: "Condivisione" });
  await card.getByText("un editor o un lettore conta tutto il broker").waitFor();
  const own = card.getByLabel("Quota di giulia (%)");
  expect(await own.inputValue()).toBe("100");
  const viewerRow = card.getByRole("row").filter({ hasText: "marco" });
  await viewerRow.getByLabel("Ruolo di marco").waitFor();
  expect(await viewerRow.getByRole("textbox").count()).toBe(0);
  // The add form asks for a share only when the new user is to be an owner.
  const form = card.getByRole("form", { name: "Condividi con un utente" });
  expect(await form.getByLabel("Quota (%)").count()).toBe(0);
  await form.getByLabel("Ruolo").selectOption("OWNER");
  await form.getByLabel("Quota (%)").waitFor();
  // Over 100 % is refused before anything is sent; 62,5 % is stored as 0.625.
  await own.fill("150");
  await own.press("Tab");
  await card.getByRole("alert").getByText("tra 0 e 100 %").waitFor();
  await own.fill("62,5");
  await own.press("Tab");
  await b.shot(page, "sharing-owner");
  const shareOf = async () => ((await (await b.api.as.giulia!.get(`/brokers/${brokerId}/access`)).json()).items as { username: string; share_percentage: string }[])
    .find((a) => a.username === "giulia")!.share_percentage;
  for (let i = 0; i < 50 && (await shareOf()) !== "0.625000"; i++) await Bun.sleep(100);
  expect(await shareOf()).toBe("0.625000");

  // The viewer reads the owner's share as a percentage in Italian formatting (set through the API).
  expect((await b.api.as.marco!.put("/settings/user", { language: "it" })).status).toBe(200);
  const marco = await b.page({ user: "marco" });
  await marco.goto(b.url(`/brokers/${brokerId}`));
  const seen = marco.getByRole("region", { name: "Condivisione" });
  await seen.getByRole("row").filter({ hasText: "giulia" }).getByText(/^62,5\s?%$/).waitFor();
  expect(await seen.getByRole("textbox").count()).toBe(0);
  await b.shot(marco, "sharing-viewer");
}, 60_000);
