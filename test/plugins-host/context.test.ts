import { afterAll, expect, test } from "bun:test";
import { createPluginContext } from "../../host/plugins/context.ts";
import { PluginManifestSchema } from "../../sdk/index.ts";

const manifest = PluginManifestSchema.parse({
  apiVersion: 1, description: "d", id: "ecb", kind: "fx-provider", name: "ECB", version: "1.0.0",
});

function recordingLogger() {
  const lines: Array<[string, string, unknown]> = [];
  const at = (level: string) => (message: string, fields?: unknown) => void lines.push([level, message, fields]);
  return { lines, logger: { debug: at("debug"), error: at("error"), info: at("info"), warn: at("warn") } };
}

const server = Bun.serve({ fetch: (req) => Response.json({ path: new URL(req.url).pathname }), port: 0 });
afterAll(() => server.stop(true));

test("the plugin's config key baseUrl becomes the HTTP client's base URL", async () => {
  const { logger } = recordingLogger();
  const ctx = createPluginContext(manifest, { baseUrl: `${server.url.origin}/ecb` }, logger, {
    allowedDestinations: async () => [server.url.host],
  });
  expect(ctx.http.baseUrl).toBe(`${server.url.origin}/ecb`);
  expect(await ctx.http.getJson("/daily")).toEqual({ path: "/ecb/daily" });
});

test("without a baseUrl in config, relative paths are refused", async () => {
  const ctx = createPluginContext(manifest, {}, recordingLogger().logger);
  expect(ctx.http.baseUrl).toBeUndefined();
  await expect(ctx.http.fetch("/daily")).rejects.toMatchObject({ reason: "invalid-input" });
});

test("every log line is prefixed with the plugin id and tagged with its kind", () => {
  const { lines, logger } = recordingLogger();
  const ctx = createPluginContext(manifest, {}, logger);
  ctx.logger.warn("quota low", { left: 3 });
  ctx.logger.debug("tick");
  expect(lines).toEqual([
    ["warn", "[ecb] quota low", { left: 3, plugin_kind: "fx-provider" }],
    ["debug", "[ecb] tick", { plugin_kind: "fx-provider" }],
  ]);
});

test("the clock is the real one and today() is the current UTC day", () => {
  const ctx = createPluginContext(manifest, {}, recordingLogger().logger);
  expect(Math.abs(ctx.clock.now().getTime() - Date.now())).toBeLessThan(1000);
  expect(ctx.clock.today() as string).toBe(new Date().toISOString().slice(0, 10));
});

test("the config object is passed through as parsed", () => {
  const config = { baseUrl: "http://127.0.0.1:1", retries: 2 };
  expect(createPluginContext(manifest, config, recordingLogger().logger).config).toBe(config);
});
