import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import type { TestServer } from "../../helpers/server.ts";
import { manualRoute, startFxServer, step } from "./fx-helpers.ts";

let server: TestServer;
let c: ApiClient;

beforeAll(async () => {
  server = await startFxServer();
  c = new ApiClient(server.base);
  await c.signUp("fxroutes");
});
afterAll(() => server.stop(true));

const post = async (items: unknown[]) => {
  const res = await c.post("/fx/providers/routes", items);
  return { status: res.status, body: await res.json() };
};
const routesOf = async (base: string, quote: string) =>
  (await (await c.get("/fx/providers/routes")).json()).filter((r: any) => r.base === base && r.quote === quote);

describe("POST /fx/providers/routes", () => {
  test("creates a route (201) and stores the pair alphabetically, chain running base→quote", async () => {
    const { status, body } = await post([{ base: "JPY", quote: "EUR", priority: 1, chain_steps: [step("JPY", "USD", "fxb"), step("USD", "EUR", "FXA")] }]);
    expect(status).toBe(201);
    expect(body).toEqual({
      results: [{
        base: "EUR", quote: "JPY", priority: 1, success: true, action: "created",
        chain_steps: [step("EUR", "USD", "FXA"), step("USD", "JPY", "FXB")],
      }],
      success_count: 1, errors: [], error_count: 0,
    });
    expect(await routesOf("EUR", "JPY")).toEqual([{ base: "EUR", quote: "JPY", priority: 1, chain_steps: [step("EUR", "USD", "FXA"), step("USD", "JPY", "FXB")] }]);
  });

  test("posting an existing priority of a pair updates that route", async () => {
    await post([{ base: "EUR", quote: "USD", priority: 1, chain_steps: [step("EUR", "USD", "FXA")] }]);
    const { body } = await post([{ base: "EUR", quote: "USD", priority: 1, chain_steps: [step("EUR", "GBP", "FXA"), step("GBP", "USD", "FXTEST")] }]);
    expect(body.results[0].action).toBe("updated");
    expect((await routesOf("EUR", "USD")).map((r: any) => r.chain_steps.length)).toEqual([2]);
  });

  test("a chain the pair already has at another priority cannot be created again", async () => {
    await post([{ base: "GBP", quote: "USD", priority: 1, chain_steps: [step("GBP", "EUR", "FXA"), step("EUR", "USD", "FXA")] }]);
    const { status, body } = await post([{ base: "USD", quote: "GBP", priority: 2, chain_steps: [step("USD", "EUR", "FXA"), step("EUR", "GBP", "FXA")] }]);
    expect(status).toBe(200); // nothing created
    expect(body.results[0]).toMatchObject({ success: false, action: "error" });
    expect(body.results[0].message).toContain("already configured");
    expect(body.error_count).toBe(1);
    expect((await routesOf("GBP", "USD")).length).toBe(1);
  });

  test("a new priority with another chain adds a fallback route", async () => {
    const { body } = await post([{ base: "GBP", quote: "USD", priority: 2, chain_steps: [step("GBP", "CHF", "FXTEST"), step("CHF", "USD", "FXTEST")] }]);
    expect(body.results[0].action).toBe("created");
    expect((await routesOf("GBP", "USD")).map((r: any) => r.priority)).toEqual([1, 2]);
  });

  test("a manual route is one MANUAL step at priority 999", async () => {
    const { body } = await post([manualRoute("CHF", "SEK")]);
    expect(body.results[0]).toMatchObject({ success: true, action: "created", priority: 999, chain_steps: [step("CHF", "SEK", "MANUAL")] });
  });

  test("adding a real route removes the pair's MANUAL placeholder", async () => {
    await post([manualRoute("CHF", "GBP")]);
    const { body } = await post([{ base: "CHF", quote: "GBP", priority: 1, chain_steps: [step("CHF", "EUR", "FXTEST"), step("EUR", "GBP", "FXA")] }]);
    expect(body.results[0].action).toBe("created");
    expect((await routesOf("CHF", "GBP")).map((r: any) => r.priority)).toEqual([1]);
  });

  test("a MANUAL route on a pair that has provider routes is added after them, as its fallback", async () => {
    const { body } = await post([manualRoute("EUR", "JPY")]);
    expect(body.results[0]).toMatchObject({ success: true, action: "created" });
    expect((await routesOf("EUR", "JPY")).map((r: any) => r.priority)).toEqual([1, 999]);
  });

  test("an unknown provider refuses the whole batch (400, detail message and results) and saves nothing", async () => {
    const res = await c.post("/fx/providers/routes", [
      { base: "AUD", quote: "EUR", priority: 1, chain_steps: [step("AUD", "EUR", "FXA")] },
      { base: "AUD", quote: "NZD", priority: 1, chain_steps: [step("AUD", "NZD", "NOPE")] },
    ]);
    const err = await expectError(res, 400, "FX_PROVIDER_UNKNOWN");
    expect(err.params.message).toBe(err.detail);
    expect(err.params.results.map((r: any) => r.success)).toEqual([false, false]);
    expect(err.params.results[1].message).toContain("NOPE");
    expect(await routesOf("AUD", "EUR")).toEqual([]);
  });
});

describe("chain rules", () => {
  const refused = async (item: Record<string, unknown>, fragment: string) => {
    const { status, body } = await post([item]);
    expect(status).toBe(200); // nothing created: a bulk create answers 200, not 201 (docs/decisions.md)
    expect(body.results[0]).toMatchObject({ success: false, action: "error" });
    expect(body.results[0].message).toContain(fragment);
  };

  test("steps must be continuous", () =>
    refused({ base: "EUR", quote: "NOK", priority: 1, chain_steps: [step("EUR", "USD", "FXA"), step("GBP", "NOK", "FXA")] }, "continuous"));

  test("endpoints must equal the pair", () =>
    refused({ base: "EUR", quote: "NOK", priority: 1, chain_steps: [step("EUR", "USD", "FXA")] }, "between EUR and NOK"));

  test("no repeated edge", () =>
    refused({ base: "EUR", quote: "NOK", priority: 1, chain_steps: [step("EUR", "USD", "FXA"), step("USD", "EUR", "FXB"), step("EUR", "NOK", "FXA")] }, "repeats"));

  test("MANUAL is not allowed in a multi-step chain", () =>
    refused({ base: "EUR", quote: "NOK", priority: 999, chain_steps: [step("EUR", "USD", "MANUAL"), step("USD", "NOK", "FXA")] }, "MANUAL"));

  test("MANUAL is only allowed at priority 999", () =>
    refused({ base: "EUR", quote: "NOK", priority: 1, chain_steps: [step("EUR", "NOK", "MANUAL")] }, "999"));

  test("base and quote must differ", () =>
    refused({ base: "EUR", quote: "EUR", priority: 1, chain_steps: [step("EUR", "EUR", "FXA")] }, "different"));

  test("priority is an integer of at least 1 and chain_steps is not empty (422)", async () => {
    expect((await c.post("/fx/providers/routes", [{ base: "EUR", quote: "NOK", priority: 0, chain_steps: [step("EUR", "NOK", "FXA")] }])).status).toBe(422);
    expect((await c.post("/fx/providers/routes", [{ base: "EUR", quote: "NOK", priority: 1, chain_steps: [] }])).status).toBe(422);
  });
});
