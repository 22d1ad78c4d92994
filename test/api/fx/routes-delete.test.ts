import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import type { TestServer } from "../../helpers/server.ts";
import { manualRoute, startFxServer, step } from "./fx-helpers.ts";

let server: TestServer;
let c: ApiClient;

beforeAll(async () => {
  server = await startFxServer();
  c = new ApiClient(server.base);
  await c.signUp("fxdelete");
});
afterAll(() => server.stop(true));

const del = async (items: unknown[]) => {
  const res = await c.request("DELETE", "/fx/providers/routes", items);
  expect(res.status).toBe(200);
  return res.json();
};
const routesOf = async (base: string, quote: string) =>
  (await (await c.get("/fx/providers/routes")).json()).filter((r: any) => r.base === base && r.quote === quote);
const seed = async (items: unknown[]) => expect((await c.post("/fx/providers/routes", items)).status).toBe(201);

describe("DELETE /fx/providers/routes", () => {
  test("deleting one priority keeps the pair's other routes", async () => {
    await seed([
      { base: "EUR", quote: "USD", priority: 1, chain_steps: [step("EUR", "USD", "FXA")] },
      { base: "EUR", quote: "USD", priority: 2, chain_steps: [step("EUR", "USD", "FXTEST")] },
    ]);
    const body = await del([{ base: "USD", quote: "EUR", priority: 2 }]);
    expect(body).toEqual({
      results: [{ success: true, deleted_count: 1, manual_reinstated: false, base: "EUR", quote: "USD", priority: 2 }],
      success_count: 1, errors: [], total_deleted: 1,
    });
    expect((await routesOf("EUR", "USD")).map((r: any) => r.priority)).toEqual([1]);
  });

  test("a pair that loses its last route by priority gets its MANUAL route back", async () => {
    const body = await del([{ base: "EUR", quote: "USD", priority: 1 }]);
    expect(body.results[0]).toMatchObject({ success: true, deleted_count: 1, manual_reinstated: true });
    expect(await routesOf("EUR", "USD")).toEqual([{ base: "EUR", quote: "USD", priority: 999, chain_steps: [step("EUR", "USD", "MANUAL")] }]);
  });

  test("deleting every route of a pair (no priority) reinstates its MANUAL route", async () => {
    await seed([
      { base: "GBP", quote: "USD", priority: 1, chain_steps: [step("GBP", "EUR", "FXA"), step("EUR", "USD", "FXA")] },
      { base: "GBP", quote: "USD", priority: 3, chain_steps: [step("GBP", "USD", "FXTEST")] },
    ]);
    const body = await del([{ base: "GBP", quote: "USD" }]);
    expect(body.results[0]).toMatchObject({ success: true, deleted_count: 2, manual_reinstated: true });
    expect(body.total_deleted).toBe(2);
    expect(await routesOf("GBP", "USD")).toEqual([{ base: "GBP", quote: "USD", priority: 999, chain_steps: [step("GBP", "USD", "MANUAL")] }]);
  });

  test("deleting a MANUAL-only pair's route removes the pair", async () => {
    await seed([manualRoute("CHF", "SEK")]);
    const body = await del([{ base: "CHF", quote: "SEK" }]);
    expect(body.results[0]).toMatchObject({ success: true, deleted_count: 1, manual_reinstated: false });
    expect(await routesOf("CHF", "SEK")).toEqual([]);
  });

  test("a delete that matches nothing is a failed item, the others still apply", async () => {
    await seed([manualRoute("AUD", "NZD")]);
    const body = await del([{ base: "EUR", quote: "NOK" }, { base: "AUD", quote: "NZD", priority: 999 }]);
    expect(body.results.map((r: any) => r.success)).toEqual([false, true]);
    expect(body.success_count).toBe(1);
    expect(body.errors).toHaveLength(1);
    expect(body.total_deleted).toBe(1);
  });

  test("the body is validated (422)", async () => {
    expect((await c.request("DELETE", "/fx/providers/routes", [])).status).toBe(422);
    expect((await c.request("DELETE", "/fx/providers/routes", [{ base: "EUR", quote: "USD", priority: 0 }])).status).toBe(422);
  });
});
