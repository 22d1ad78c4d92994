import type { PluginKind } from "../../sdk/index.ts";

/** Outcome of loading one plugin, listed by `/system/plugin-diagnostics`. */
export type PluginStatus = "disabled" | "failed" | "incompatible" | "loaded";

/** Where a plugin came from: the built-in list in plugins/index.ts, or a folder in PLUGINS_DIR. */
export type PluginSource = "builtin" | "external";

/**
 * One row of /system/plugin-diagnostics. Identity fields are null when the plugin failed before its
 * manifest could be read; `path` is the entry file of an external plugin; `reason` is null when loaded.
 */
export interface PluginDiagnostic {
  id: string | null;
  kind: string | null;
  name: string | null;
  path: string | null;
  reason: string | null;
  source: PluginSource;
  status: PluginStatus;
  version: string | null;
}

/** The reference implementation's "system" names, used by its diagnostics and plugin-asset URLs. */
export type PluginSystemName = "ai_export" | "asset" | "brim" | "fx" | "risk" | "tools";

const SYSTEMS: Record<PluginKind, PluginSystemName> = {
  "ai-export-dataset": "ai_export",
  "calculation-tool": "tools",
  "fx-provider": "fx",
  "import-plugin": "brim",
  "quote-provider": "asset",
  "risk-tool": "risk",
  "scheduled-investment-provider": "asset",
};

/** The reference's system name of a kind, e.g. `fx-provider` → `fx`; null for an unknown kind. */
export function systemOf(kind: PluginKind): PluginSystemName;
export function systemOf(kind: string): PluginSystemName | null;
export function systemOf(kind: string): PluginSystemName | null {
  return Object.hasOwn(SYSTEMS, kind) ? SYSTEMS[kind as PluginKind] : null;
}
