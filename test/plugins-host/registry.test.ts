import { expect, test } from "bun:test";
import { systemOf } from "../../host/plugins/diagnostics.ts";
import { PluginRegistry } from "../../host/plugins/registry.ts";
import { PLUGIN_KINDS, PluginManifestSchema } from "../../sdk/index.ts";

const manifestOf = (id: string, kind: string, assetsUrl?: string) =>
  PluginManifestSchema.parse({ apiVersion: 1, assetsUrl, description: "d", id, kind, name: id, version: "1.0.0" });

const diagnostic = (id: string, kind: string, status: "disabled" | "failed" | "incompatible" | "loaded") => ({
  id, kind, name: id, path: null, reason: status === "loaded" ? null : "why", source: "builtin" as const, status, version: "1.0.0",
});

const registry = new PluginRegistry(
  [
    { instance: { name: "zeta" } as never, manifest: manifestOf("zeta", "fx-provider"), path: null, source: "builtin" },
    { instance: { name: "alpha" } as never, manifest: manifestOf("alpha", "fx-provider", "file:///srv/alpha/assets/"), path: null, source: "builtin" },
    { instance: { name: "calc" } as never, manifest: manifestOf("calc", "calculation-tool"), path: null, source: "builtin" },
  ],
  [
    diagnostic("zeta", "fx-provider", "loaded"),
    diagnostic("alpha", "fx-provider", "loaded"),
    diagnostic("calc", "calculation-tool", "loaded"),
    diagnostic("old", "quote-provider", "incompatible"),
    diagnostic("off", "quote-provider", "disabled"),
    diagnostic("bad", "risk-tool", "failed"),
  ],
);

test("list, get and instances are per kind and sorted by id", () => {
  expect(registry.list("fx-provider").map((p) => p.manifest.id)).toEqual(["alpha", "zeta"]);
  expect(registry.instances("fx-provider")).toEqual([{ name: "alpha" }, { name: "zeta" }] as never);
  expect(registry.get("calculation-tool", "calc")?.manifest.name).toBe("calc");
  expect(registry.get("fx-provider", "calc")).toBeUndefined();
  expect(registry.list("risk-tool")).toEqual([]);
});

test("counts total every status and list loaded plugins for every kind", () => {
  const counts = registry.counts();
  expect(counts).toMatchObject({ disabled: 1, failed: 1, incompatible: 1, loaded: 3, total: 6 });
  expect(Object.keys(counts.byKind).sort()).toEqual([...PLUGIN_KINDS]);
  expect(counts.byKind).toMatchObject({ "calculation-tool": 1, "fx-provider": 2, "risk-tool": 0 });
});

test("diagnostics are copies: callers cannot change the registry's record", () => {
  registry.diagnostics()[0]!.status = "failed";
  expect(registry.diagnostics()[0]!.status).toBe("loaded");
});

test("assetsDir turns the assetsUrl into a local path, undefined without one", () => {
  expect(registry.assetsDir("fx-provider", "alpha")).toBe("/srv/alpha/assets/");
  expect(registry.assetsDir("fx-provider", "zeta")).toBeUndefined();
  expect(registry.assetsDir("fx-provider", "missing")).toBeUndefined();
});

test("each kind maps to the reference's system name", () => {
  expect(Object.fromEntries(PLUGIN_KINDS.map((kind) => [kind, systemOf(kind)]))).toEqual({
    "ai-export-dataset": "ai_export",
    "calculation-tool": "tools",
    "fx-provider": "fx",
    "import-plugin": "brim",
    "quote-provider": "asset",
    "risk-tool": "risk",
    "scheduled-investment-provider": "asset",
  });
  expect(systemOf("unknown-kind")).toBeNull();
});
