import { isoDate } from "@portfolio-tracker/sdk";
import { createFakeContext, expect, runQuoteProviderContract, test } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.ts";

// A fake upstream reached through the SDK's real HTTP client (injected fetch: no network, no port).
const BASE = "https://quotes.test/api/v1";
const requested: string[] = [];
const upstream = async (url: string) => {
  requested.push(url);
  const { pathname } = new URL(url);
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  if (pathname.endsWith("/quote/ACME")) return json({ currency: "USD", date: "2024-01-02", price: "101.25" });
  if (pathname.endsWith("/history/ACME")) {
    return json({ prices: [{ close: "100.50", date: "2024-01-02" }, { close: "99.75", date: "2023-12-29" }, { close: "102", date: "2024-02-01" }] });
  }
  if (pathname.endsWith("/search")) return json({ results: [{ currency: "USD", name: "Acme Corp", symbol: "ACME" }] });
  return json({ error: "unknown symbol" }, 404);
};
const context = createFakeContext(plugin, { baseUrl: BASE, config: { baseUrl: BASE }, fetch: upstream });
const range = { from: isoDate("2023-12-01"), to: isoDate("2024-01-31") };

runQuoteProviderContract(plugin, { context, sample: { identifiers: ["ACME", "NOPE"], query: "acme", range } });

test("prices come from the configured base URL; an unknown symbol fails alone", async () => {
  const provider = await plugin.create(context);
  const [acme, nope] = await provider.getQuotes({ identifiers: ["acme", "NOPE"] });
  expect(acme).toEqual({ ok: true, value: { currency: "USD", date: "2024-01-02", price: "101.25" } });
  expect(nope?.ok === false && nope.error.reason).toBe("not-found");
  expect(requested.every((url) => url.startsWith(`${BASE}/`))).toBe(true);
});

test("history keeps the days inside the range, oldest first", async () => {
  const points = await (await plugin.create(context)).getHistory({ identifier: "ACME", range });
  expect(points).toEqual([{ close: "99.75", date: "2023-12-29" }, { close: "100.50", date: "2024-01-02" }]);
});
