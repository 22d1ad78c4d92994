import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import type { TestServer } from "../../helpers/server.ts";
import { startFxServer } from "./fx-helpers.ts";

let server: TestServer;
let c: ApiClient;

beforeAll(async () => {
  server = await startFxServer();
  c = new ApiClient(server.base);
  await c.signUp("fxprov");
});
afterAll(() => server.stop(true));

describe("GET /fx/providers", () => {
  test("lists providers with upper-cased codes and their currencies; hidden providers are left out", async () => {
    const res = await c.get("/fx/providers");
    expect(res.status).toBe(200);
    const body = await res.json();
    const ours = body.filter((p: any) => p.code.startsWith("FX"));
    expect(ours).toEqual([
      { code: "FXA", name: "Test fxa", description: "Test FX provider fxa", base_currency: "EUR", base_currencies: ["EUR"], target_currencies: ["USD", "GBP"] },
      { code: "FXB", name: "Test fxb", description: "Test FX provider fxb", base_currency: "USD", base_currencies: ["USD"], target_currencies: ["JPY"] },
    ]);
    expect(body.map((p: any) => p.code)).not.toContain("FXTEST");
    expect(body.map((p: any) => p.code)).not.toContain("MANUAL");
  });

  test("?providers= narrows the list (repeated or comma-separated, any case)", async () => {
    const repeated = await (await c.get("/fx/providers?providers=FXB&providers=nope")).json();
    expect(repeated.map((p: any) => p.code)).toEqual(["FXB"]);
    const comma = await (await c.get("/fx/providers?providers=fxb,FXA")).json();
    expect(comma.map((p: any) => p.code)).toEqual(["FXA", "FXB"]);
    expect(await (await c.get("/fx/providers?providers=FXTEST,MANUAL")).json()).toEqual([]);
  });

  test("requires a session", async () => {
    const res = await new ApiClient(server.base).get("/fx/providers");
    expect(res.status).toBe(401);
  });
});

/** Paths over the test providers only (built-in FX providers may be loaded too). */
const ours = (body: any) => body.paths.filter((p: any) => p.chain_steps.every((s: any) => s.provider.startsWith("FX")));

describe("GET /fx/providers/routes/suggest", () => {
  test("proposes chain_steps from the visible providers, shortest first, with reversed steps marked", async () => {
    const res = await c.get("/fx/providers/routes/suggest?base=gbp&quote=JPY");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.base).toBe("GBP");
    expect(body.quote).toBe("JPY");
    expect(ours(body)[0]).toEqual({
      length: 3,
      chain_steps: [
        { from: "GBP", to: "EUR", provider: "FXA", reversed: true },
        { from: "EUR", to: "USD", provider: "FXA", reversed: false },
        { from: "USD", to: "JPY", provider: "FXB", reversed: false },
      ],
    });
  });

  test("a direct pair comes first", async () => {
    const body = await (await c.get("/fx/providers/routes/suggest?base=EUR&quote=USD")).json();
    expect(body.paths[0].length).toBe(1);
    expect(ours(body)[0]).toEqual({ length: 1, chain_steps: [{ from: "EUR", to: "USD", provider: "FXA", reversed: false }] });
    const lengths = body.paths.map((p: any) => p.length);
    expect(lengths).toEqual([...lengths].sort((a: number, b: number) => a - b));
  });

  test("hidden providers are not suggested", async () => {
    const body = await (await c.get("/fx/providers/routes/suggest?base=CHF&quote=EUR&limit=500")).json();
    expect(body.paths.flatMap((p: any) => p.chain_steps.map((s: any) => s.provider))).not.toContain("FXTEST");
  });

  test("malformed codes are refused", async () => {
    expect((await c.get("/fx/providers/routes/suggest?base=EURO&quote=USD")).status).toBe(422);
    expect((await c.get("/fx/providers/routes/suggest?base=EUR")).status).toBe(422);
  });
});
