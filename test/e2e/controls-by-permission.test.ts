import { beforeAll, expect, test } from "bun:test";
import { useBrowser } from "../helpers/browser.ts";

// Controls that could only be refused are not shown: a VIEWER of a shared broker, who is not the
// keeper of its asset, sees no price or event form and no Delete button, and is told who may change
// shared market data; the keeper sees them all. A first buy with no asset creates one in the form.
const b = useBrowser({ name: "controls-by-permission", users: ["ada", "vera", "nico"] });
let brokerId = 0;
let assetId = 0;

beforeAll(async () => {
  const ada = b.api.as.ada!;
  brokerId = (await (await ada.post("/brokers", [{ name: "Shared Fund", opened_at: "2025-01-02", initial_balances: [{ code: "EUR", amount: "2000" }] }])).json()).results[0].broker_id;
  assetId = (await (await ada.post("/assets", [{ name: "Keeper Corp", currency: "EUR", asset_type: "STOCK" }])).json()).results[0].asset_id;
  expect((await ada.post("/assets/prices", [{ asset_id: assetId, prices: [{ date: "2025-02-03", close: "101.5" }] }])).status).toBe(200);
  expect((await ada.post("/assets/events", [{ asset_id: assetId, events: [{ date: "2025-03-03", type: "DIVIDEND", value: { code: "EUR", amount: "1.2" } }] }])).status).toBe(200);
  const commit = await ada.post("/transactions/commit", { creates: [{ broker_id: brokerId, type: "BUY", date: "2025-02-03", asset_id: assetId, quantity: "3", cash: { code: "EUR", amount: "-304.50" } }] });
  expect((await commit.json()).committed).toBe(true);
  expect((await ada.post(`/brokers/${brokerId}/access`, { user_id: b.api.users.vera!.id, role: "VIEWER" })).status).toBe(201);
  expect((await b.api.as.nico!.post("/brokers", [{ name: "Nico's First", opened_at: "2025-01-02", initial_balances: [{ code: "EUR", amount: "1000" }] }])).ok).toBe(true);
}, 30_000);

test("a VIEWER who is not the asset's keeper sees no form or Delete button that would be refused, and who may change it", async () => {
  const page = await b.page({ user: "vera" });
  await page.goto(b.url(`/assets/${assetId}?tab=prices`));
  await page.getByRole("cell", { name: "€101.50" }).waitFor();
  await page.getByText("only its keeper (the user who created it) or an administrator can change them").waitFor();
  expect(await page.getByRole("heading", { name: "Add or change a price" }).count()).toBe(0);
  expect(await page.getByRole("button", { name: /Delete/ }).count()).toBe(0);
  await b.shot(page, "viewer-prices");

  await page.getByRole("button", { name: "Events" }).click();
  await page.getByRole("cell", { name: "€1.20" }).waitFor();
  expect(await page.getByRole("heading", { name: "Add a manual event" }).count()).toBe(0);
  expect(await page.getByRole("button", { name: /Delete|Edit/ }).count()).toBe(0);

  await page.getByRole("button", { name: "Overview" }).click();
  await page.getByLabel("Name").waitFor();
  expect(await page.getByLabel("Name").isDisabled()).toBe(true);
  expect(await page.getByRole("button", { name: /Save|Delete market data/ }).count()).toBe(0);

  await page.getByRole("button", { name: "Price source" }).click();
  await page.getByRole("heading", { name: "Current source" }).waitFor();
  expect(await page.getByRole("heading", { name: "Assign a provider" }).count()).toBe(0);

  // The shared broker's ledger: read only, so no New transaction, Edit or Delete.
  await page.goto(b.url("/transactions"));
  await page.getByRole("row").filter({ hasText: "Keeper Corp" }).waitFor();
  expect(await page.getByRole("button", { name: /New transaction|Edit|Delete/ }).count()).toBe(0);
  await page.goto(b.url(`/brokers/${brokerId}`));
  await page.getByText("You can view this broker; only its owners and editors can change it.").waitFor();
  expect(await page.getByRole("button", { name: "Edit broker" }).count()).toBe(0);
  expect(b.errors).toEqual([]);
}, 60_000);

test("the asset's keeper sees the price form and the Delete buttons", async () => {
  const page = await b.page({ user: "ada" });
  await page.goto(b.url(`/assets/${assetId}?tab=prices`));
  await page.getByRole("heading", { name: "Add or change a price" }).waitFor();
  await page.getByRole("button", { name: "Delete the price of Feb 3, 2025" }).waitFor();
  expect(await page.getByText("only its keeper").count()).toBe(0);
}, 60_000);

test("a first buy of an asset nobody has entered yet creates the asset inside the transaction form", async () => {
  const page = await b.page({ user: "nico" });
  await page.goto(b.url("/transactions"));
  await page.getByRole("button", { name: "New transaction" }).click();
  const tx = page.getByRole("dialog", { name: "New transaction" });
  await tx.getByLabel("Broker").selectOption({ label: "Nico's First" });
  // Assets are shared, so Nico's list holds Ada's; the one he wants is not there yet.
  await tx.getByRole("button", { name: "Create an asset" }).click();
  await tx.getByLabel("Name of the new asset").fill("First Share plc");
  await tx.getByLabel("Its currency").fill("EUR");
  await tx.getByRole("button", { name: "Create asset" }).click();
  await b.shot(page, "inline-asset");
  expect(await tx.getByLabel("Asset").locator("option:checked").textContent()).toBe("First Share plc");
  await tx.getByLabel("Date").fill("2025-04-01");
  await tx.getByLabel("Quantity").fill("2");
  await tx.getByLabel("Amount").fill("50");
  await tx.getByRole("button", { name: "Save" }).click();
  await tx.waitFor({ state: "hidden" });
  await page.getByRole("row").filter({ hasText: "First Share plc" }).getByText("-€50.00").waitFor();
  expect(b.errors).toEqual([]);
}, 60_000);
