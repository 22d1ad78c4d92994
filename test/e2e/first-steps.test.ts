import { expect, test } from "bun:test";
import { join } from "node:path";
import { PHONE, useBrowser } from "../helpers/browser.ts";
import { ROOT } from "../helpers/server.ts";

// A new self-hoster's first session, entirely in the browser: create the first account, a broker
// with cash, an asset with two prices, a purchase, and read the net worth on the dashboard.
const b = useBrowser({ name: "first-steps" });

const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const pageErrors = () => b.errors.filter((e) => !e.includes("Failed to load resource"));

test("sign-up → broker → asset with prices → buy → the dashboard shows the net worth", async () => {
  const page = await b.page();
  await page.goto(b.url("/"));
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  await b.shot(page, "login");
  await page.getByRole("link", { name: "Create one" }).click();
  await page.getByLabel("User name").fill("alice");
  await page.getByLabel("E-mail").fill("alice@example.com");
  await page.getByLabel("Password").fill("Secret-pass1");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  await page.getByText("No broker yet.").waitFor();

  // Broker with 10,000 EUR of initial cash.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Brokers" }).click();
  await page.getByRole("button", { name: "New broker" }).click();
  const brokerDialog = page.getByRole("dialog", { name: "New broker" });
  await brokerDialog.getByLabel("Name").fill("Main account");
  await brokerDialog.getByLabel("Initial cash balance (optional)").fill("10000");
  await brokerDialog.getByLabel("Currency").fill("EUR");
  await brokerDialog.getByRole("button", { name: "Create broker" }).click();
  const card = page.locator(".broker-card", { hasText: "Main account" });
  await card.getByText("€10,000.00").waitFor();
  await b.shot(page, "brokers");

  // Asset with a price yesterday and today.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Assets" }).click();
  await page.getByRole("button", { name: "New asset" }).click();
  const assetDialog = page.getByRole("dialog", { name: "New asset" });
  await assetDialog.getByLabel("Name").fill("ACME Corp");
  await assetDialog.getByLabel("Currency").fill("EUR");
  await assetDialog.getByRole("button", { name: "Create asset" }).click();
  await page.getByRole("heading", { name: "ACME Corp" }).waitFor();
  await page.getByRole("heading", { name: "Add or change a price" }).waitFor();
  for (const [date, close, shown] of [[yesterday, "10", "€10.00"], [today, "12.5", "€12.50"]] as const) {
    await page.getByLabel("Date", { exact: true }).fill(date);
    await page.getByLabel("Close (EUR)").fill(close);
    await page.getByRole("button", { name: "Save price" }).click();
    await page.getByRole("cell", { name: shown }).waitFor();
  }
  await b.shot(page, "asset-prices");

  // Buy 100 units for 1,000 EUR today.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Transactions" }).click();
  await page.getByRole("button", { name: "New transaction" }).click();
  const tx = page.getByRole("dialog", { name: "New transaction" });
  await tx.getByLabel("Type").selectOption("BUY");
  await tx.getByLabel("Broker").selectOption({ label: "Main account" });
  await tx.getByLabel("Date").fill(today);
  await tx.getByLabel("Asset").selectOption({ label: "ACME Corp" });
  await tx.getByLabel("Quantity").fill("100");
  await tx.getByLabel("Amount").fill("1000");
  expect(await tx.getByLabel("Currency", { exact: true }).inputValue()).toBe("EUR");
  await tx.getByRole("button", { name: "Save" }).click();
  await page.getByRole("row").filter({ hasText: "BUY" }).filter({ hasText: "ACME Corp" }).getByText("-€1,000.00").waitFor();
  await b.shot(page, "transactions");

  // Net worth: 10,000 − 1,000 cash + 100 × 12.50 = 10,250.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
  const netWorth = page.getByTestId("net-worth");
  await netWorth.getByText("€10,250.00").waitFor();
  await page.getByRole("row").filter({ hasText: "ACME Corp" }).getByText("€1,250.00").waitFor();
  await b.shot(page, "dashboard");

  // Privacy mode masks the amounts, and a reload keeps the session.
  await page.getByRole("button", { name: "Hide amounts" }).click();
  expect(await netWorth.textContent()).not.toContain("10,250");
  await page.getByRole("button", { name: "Show amounts" }).click();
  await page.reload();
  await netWorth.getByText("€10,250.00").waitFor();

  // Log out: the next page asks to sign in again.
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  await page.goto(b.url("/transactions"));
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  expect(new URL(page.url()).searchParams.get("next")).toBe("/transactions");
  expect(pageErrors()).toEqual([]);
}, 90_000);

test("the dashboard fits a phone screen", async () => {
  const page = await b.page({ viewport: PHONE });
  await page.goto(b.url("/login"));
  await page.getByLabel("User name or e-mail").fill("alice");
  await page.getByLabel("Password").fill("Secret-pass1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("net-worth").getByText("€10,250.00").waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await page.getByTestId("net-worth").boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
  await b.shot(page, "dashboard-phone");
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("preferences: German text and formats, dark theme; an expired session returns to the same page after sign-in", async () => {
  const page = await b.page();
  await page.goto(b.url("/settings"));
  await page.getByLabel("User name or e-mail").fill("alice");
  await page.getByLabel("Password").fill("Secret-pass1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Preferences" }).waitFor();
  await page.getByLabel("Language", { exact: true }).selectOption("de");
  await page.getByLabel("Theme", { exact: true }).selectOption("dark");
  await page.getByRole("button", { name: "Save preferences" }).click();
  // The interface switches to German at once (docs/web.md, "Language").
  await page.getByText("Einstellungen gespeichert.").waitFor();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
  expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
  const nav = page.getByRole("navigation", { name: "Hauptmenü" });
  expect(await nav.getByRole("link").allTextContents())
    .toEqual(["Übersicht", "Bestände", "Wertentwicklung", "Erträge", "Realisierte Gewinne", "Broker", "Buchungen", "Anlagen", "Devisen", "Import", "Dateien", "Einstellungen"]);
  await nav.getByRole("link", { name: "Übersicht" }).click();
  await page.getByRole("heading", { name: "Übersicht" }).waitFor();
  await page.getByTestId("net-worth").getByText("10.250,00\u00a0€").waitFor();
  await page.getByRole("heading", { name: "Größte Positionen" }).waitFor();
  await b.shot(page, "dashboard-dark-de");

  // The session cookie disappears (expiry): the next API call sends the user to sign in (in the
  // browser's language, English here), then back to the page, in German again.
  await page.context().clearCookies();
  await nav.getByRole("link", { name: "Broker" }).click();
  await page.getByText("Your session has expired. Sign in again to continue.").waitFor();
  await page.getByLabel("User name or e-mail").fill("alice");
  await page.getByLabel("Password").fill("Secret-pass1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Broker" }).waitFor();
  await page.getByRole("button", { name: "Neuer Broker" }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/brokers");
  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "Einstellungen" }).click();
  await page.getByLabel("Sprache", { exact: true }).selectOption("en");
  await page.getByLabel("Design", { exact: true }).selectOption("light");
  await page.getByRole("button", { name: "Einstellungen speichern", exact: true }).click();
  await page.getByText("Preferences saved.").waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).waitFor();
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("a user whose language is German sees German navigation from the first page", async () => {
  const bruno = b.api.client();
  await bruno.signUp("bruno");
  expect((await bruno.put("/settings/user", { language: "de" })).status).toBe(200);
  expect((await bruno.post("/brokers", [{ name: "Depot" }])).status).toBe(200);
  b.api.as.bruno = bruno;
  const page = await b.page({ user: "bruno" });
  await page.goto(b.url("/transactions"));
  const nav = page.getByRole("navigation", { name: "Hauptmenü" });
  await nav.getByRole("link", { name: "Buchungen" }).waitFor();
  expect(await nav.getByRole("link", { name: "Buchungen" }).getAttribute("aria-current")).toBe("page");
  await page.getByRole("heading", { name: "Buchungen" }).waitFor();
  await page.getByRole("button", { name: "Neue Buchung" }).click();
  await page.getByRole("dialog", { name: "Neue Buchung" }).getByLabel("Typ").waitFor();
  await b.shot(page, "transactions-de");
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("a French user sees French text, and transaction types as French names (the code stays the filter's value)", async () => {
  const chloe = b.api.client();
  await chloe.signUp("chloe");
  expect((await chloe.put("/settings/user", { language: "fr-FR" })).status).toBe(200);
  const broker = await (await chloe.post("/brokers", [{ name: "Compte titres" }])).json();
  const brokerId = broker.results[0].broker_id;
  const commit = await (await chloe.post("/transactions/commit", { creates: [
    { broker_id: brokerId, type: "DEPOSIT", date: yesterday, cash: { code: "EUR", amount: "500" } },
    { broker_id: brokerId, type: "WITHDRAWAL", date: today, cash: { code: "EUR", amount: "-120" } },
  ] })).json();
  expect(commit.committed).toBe(true);
  b.api.as.chloe = chloe;
  const page = await b.page({ user: "chloe" });
  await page.goto(b.url("/transactions"));
  const nav = page.getByRole("navigation", { name: "Navigation principale" });
  await nav.getByRole("link", { name: "Opérations" }).waitFor();
  expect(await nav.getByRole("link").allTextContents())
    .toEqual(["Tableau de bord", "Positions", "Performance", "Revenus", "Plus-values réalisées", "Courtiers", "Opérations", "Actifs", "Change", "Importer", "Fichiers", "Paramètres"]);
  await page.getByRole("heading", { name: "Opérations" }).waitFor();
  const rows = page.getByRole("row");
  await rows.filter({ hasText: "Dépôt" }).filter({ hasText: "Compte titres" }).waitFor();
  await rows.filter({ hasText: "Retrait" }).waitFor();
  expect(await rows.filter({ hasText: "WITHDRAWAL" }).count()).toBe(0);
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Retrait" });
  await page.waitForURL((url) => url.searchParams.get("type") === "WITHDRAWAL");
  await page.getByText("1 opération", { exact: true }).waitFor();
  await b.shot(page, "transactions-fr");
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("registration disabled by the administrator: a new visitor is told so in words", async () => {
  const admin = await b.page();
  await admin.goto(b.url("/login?next=/settings"));
  await admin.getByLabel("User name or e-mail").fill("alice");
  await admin.getByLabel("Password").fill("Secret-pass1");
  await admin.getByRole("button", { name: "Sign in" }).click();
  await admin.getByRole("heading", { name: "Server settings" }).waitFor();
  await admin.getByLabel("enable_registration").selectOption("false");
  await admin.getByRole("button", { name: "Save server settings" }).click();
  await admin.getByText("Settings saved.").waitFor();
  await b.shot(admin, "settings-admin");

  const visitor = await b.page();
  await visitor.goto(b.url("/register"));
  await visitor.getByLabel("User name").fill("mallory");
  await visitor.getByLabel("E-mail").fill("mallory@example.com");
  await visitor.getByLabel("Password").fill("Secret-pass1");
  await visitor.getByRole("button", { name: "Create account" }).click();
  await visitor.getByRole("alert").getByText("Registration is disabled on this server. Ask the administrator to create an account for you.").waitFor();
  expect(pageErrors()).toEqual([]);
}, 60_000);

test("import a broker report: upload, read, map assets, commit; the rows appear in the ledger", async () => {
  const page = await b.page();
  await page.goto(b.url("/login?next=/import"));
  await page.getByLabel("User name or e-mail").fill("alice");
  await page.getByLabel("Password").fill("Secret-pass1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "1. Upload a broker report" }).waitFor();
  await page.getByLabel("Into broker").selectOption({ label: "Main account" });
  await page.getByLabel("Report file").setInputFiles(join(ROOT, "test/fixtures/brim/generic/generic-en.csv"));
  await page.getByRole("button", { name: "Upload" }).click();
  await page.getByText("recognised by broker_generic_csv").waitFor();
  await page.getByRole("button", { name: "Read the report" }).click();
  await page.getByRole("heading", { name: "3. Assets" }).waitFor();
  const accumulating = page.getByLabel("Asset for Vanguard FTSE All-World UCITS ETF Acc", { exact: false });
  expect(await accumulating.inputValue()).toBe("new");
  await b.shot(page, "import-preview");
  await page.getByRole("button", { name: /^Import \d+ rows$/ }).click();
  await page.getByText(/^Imported \d+ transactions\./).waitFor();
  await page.getByRole("link", { name: "See them" }).click();
  await page.getByRole("row").filter({ hasText: "WITHDRAWAL" }).getByText("-€100.00").waitFor();
  await page.getByRole("row").filter({ hasText: "SELL" }).getByText("Vanguard FTSE All-World UCITS ETF Acc").waitFor();
  expect(pageErrors()).toEqual([]);
}, 60_000);
