import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Per-plugin configuration: a JSON object keyed by plugin id, from the file named by
 * PLUGINS_CONFIG, else DATA_DIR/plugins.json when present. Upstream URLs live here, so tests
 * point plugins at local fakes.
 */
export function loadPluginConfig(dataDir: string, file: string | undefined): Record<string, unknown> {
  const path = file || join(dataDir, "plugins.json");
  if (!existsSync(path)) {
    if (file) throw new Error(`PLUGINS_CONFIG file not found: ${path}`);
    return {};
  }
  const parsed = JSON.parse(readFileSync(path, "utf8"));
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error(`${path} must hold a JSON object keyed by plugin id`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * A plugin's time limit: its configuration's `timeoutMs` when a positive number (tests use short
 * ones), else `fallback`. The one place that reads it, for every kind that has a limit.
 */
export function pluginTimeoutMs(pluginConfig: Record<string, unknown>, id: string, fallback: number): number {
  const value = (pluginConfig[id] as { timeoutMs?: unknown } | undefined)?.timeoutMs;
  return typeof value === "number" && value > 0 ? value : fallback;
}
