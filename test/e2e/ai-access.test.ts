import { beforeAll, expect, test } from "bun:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { useBrowser } from "../helpers/browser.ts";

// Settings > AI access: the user creates an assistant token with a grade and a broker, copies its
// secret, the assistant drafts a deposit through the MCP server (the ledger is untouched), and the
// user commits the draft on the page and sees the call in the assistant activity; then revokes the token.
const b = useBrowser({ name: "ai-access", users: ["ada"] });
let brokerId: number;

beforeAll(async () => {
  const res = await b.api.as.ada!.post("/brokers", [{ name: "Assistant Broker", opened_at: "2024-01-01" }]);
  brokerId = (await res.json()).results[0].broker_id;
}, 30_000);

test("a token made on the AI access page lets an assistant draft, and the user commits the draft there", async () => {
  const page = await b.page({ user: "ada" });
  await page.goto(b.url("/settings"));
  await page.getByRole("link", { name: "AI access" }).click();
  await page.getByRole("heading", { name: "New assistant token" }).waitFor();
  await page.getByLabel("Name").fill("my assistant");
  await page.getByLabel("Data grade").selectOption("full");
  await page.getByLabel("Assistant Broker").check();
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = (await page.getByTestId("ai-secret").textContent())!;
  expect(secret).toStartWith("pt_");
  await page.getByText("claude mcp add --transport http portfolio").waitFor();
  const row = page.getByRole("row").filter({ hasText: "my assistant" });
  await row.getByText("Assistant Broker").waitFor();

  const client = new Client({ name: "e2e", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${b.api.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
  const drafted = await client.callTool({ name: "draft_transactions", arguments: { creates: [{ broker_id: brokerId, type: "DEPOSIT", date: "2024-02-01", cash: { code: "EUR", amount: "250" } }] } });
  await client.close();
  expect(drafted.isError).toBeFalsy();
  expect(await (await b.api.as.ada!.get(`/transactions?broker_id=${brokerId}`)).json()).toEqual([]);

  await page.reload();
  const drafts = page.getByRole("region", { name: "Pending drafts" });
  await drafts.getByText("1 new, 0 changed, 0 deleted").waitFor();
  await b.shot(page, "pending-draft");
  await drafts.getByRole("button", { name: "Commit" }).click();
  await page.getByRole("status").filter({ hasText: "Draft committed." }).waitFor();
  await drafts.getByText("No pending draft.").waitFor();
  expect((await (await b.api.as.ada!.get(`/transactions?broker_id=${brokerId}`)).json()).length).toBe(1);

  // The assistant's call is in its owner's activity list: which token, which tool, that it was answered.
  const activity = page.getByRole("region", { name: "Assistant activity" });
  const call = activity.getByRole("row").filter({ hasText: "draft_transactions" });
  await call.getByText("my assistant").waitFor();
  await call.getByText("answered").waitFor();

  // On a phone the activity rows are cards: nothing to scroll sideways.
  const phone = await b.page({ user: "ada", viewport: { width: 375, height: 812 } });
  await phone.goto(b.url("/settings/ai-access"));
  await phone.getByRole("region", { name: "Assistant activity" }).getByText("draft_transactions").waitFor();
  expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  await page.getByRole("button", { name: "Revoke my assistant" }).click();
  await page.getByText("No assistant token yet.").waitFor();
  // A revoked token's calls stay listed, under its id.
  await call.getByText(/revoked token #\d+/).waitFor();
  expect(b.errors).toEqual([]);
}, 60_000);
