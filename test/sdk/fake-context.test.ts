import { afterAll, expect, test } from "bun:test";
import { definePlugin, z } from "../../sdk/index.ts";
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

test("given the plugin, config is written as a self-hoster writes it and parsed with its schema: defaults apply and the types fit", async () => {
  const Config = z.object({ baseUrl: z.url().default("https://rates.example"), retries: z.number().int().default(2) });
  const plugin = definePlugin({
    configSchema: Config, description: "d", id: "defaulted", kind: "fx-provider", name: "Defaulted", version: "0.1.0",
    create: (ctx) => ({ baseCurrencies: [], targetCurrencies: [], getRates: async () => [], retries: ctx.config.retries }),
  });
  // Type-checked by `tsc -p .`: the config's input type (defaulted keys optional) in, its output type out.
  const ctx = createFakeContext(plugin, { config: { baseUrl: "https://other.example" } });
  const retries: number = ctx.config.retries;
  expect({ config: ctx.config, retries }).toEqual({ config: { baseUrl: "https://other.example", retries: 2 }, retries: 2 });
  expect(createFakeContext(plugin, { config: {} }).config).toEqual({ baseUrl: "https://rates.example", retries: 2 });
  expect(createFakeContext(plugin).config).toEqual({ baseUrl: "https://rates.example", retries: 2 });
  expect(((await plugin.create(createFakeContext(plugin))) as unknown as { retries: number }).retries).toBe(2);
  // @ts-expect-error a configured key of the wrong type is a type error, and a clear one at run time
  expect(() => createFakeContext(plugin, { config: { retries: "3" } })).toThrow('invalid config for "defaulted": retries');
});

test("the real HTTP client is pointed at the given base URL", async () => {
  const ctx = createFakeContext({ allowedDestinations: [upstream.url.host], baseUrl: `${upstream.url.origin}/fake` });
  expect(await ctx.http.getJson("/latest")).toEqual({ path: "/fake/latest" });
});
