import { afterAll, expect, test } from "bun:test";
import { createFakeContext } from "../../sdk/testing/index.ts";

const upstream = Bun.serve({ fetch: (req) => Response.json({ path: new URL(req.url).pathname }), port: 0 });
afterAll(() => upstream.stop(true));

test("the fake clock is frozen at the given instant", () => {
  const ctx = createFakeContext({ now: "2023-12-31T23:59:59Z" });
  expect(ctx.clock.now().toISOString()).toBe("2023-12-31T23:59:59.000Z");
  expect(ctx.clock.today() as string).toBe("2023-12-31");
  ctx.clock.now().setFullYear(2000);
  expect(ctx.clock.now().getUTCFullYear()).toBe(2023);
});

test("the fake logger records every line in order instead of printing", () => {
  const ctx = createFakeContext();
  ctx.logger.info("fetched", { count: 3 });
  ctx.logger.error("gave up");
  expect(ctx.logs).toEqual([
    { fields: { count: 3 }, level: "info", message: "fetched" },
    { level: "error", message: "gave up" },
  ]);
});

test("config defaults to {} and is passed through otherwise", () => {
  expect(createFakeContext().config).toEqual({});
  expect(createFakeContext({ config: { apiKey: "k" } }).config).toEqual({ apiKey: "k" });
});

test("the real HTTP client is pointed at the given base URL", async () => {
  const ctx = createFakeContext({ allowedDestinations: [upstream.url.host], baseUrl: `${upstream.url.origin}/fake` });
  expect(await ctx.http.getJson("/latest")).toEqual({ path: "/fake/latest" });
});
