import { fileURLToPath } from "node:url";
import { type KindInstance, PLUGIN_KINDS, type PluginKind, type PluginManifest } from "../../sdk/index.ts";
import type { PluginDiagnostic, PluginSource } from "./diagnostics.ts";

/** A plugin that loaded: its manifest, the instance `create()` returned, and where it came from. */
export interface LoadedPlugin<K extends PluginKind = PluginKind> {
  readonly instance: KindInstance<K>;
  readonly manifest: PluginManifest & { readonly kind: K };
  readonly path: string | null;
  readonly source: PluginSource;
}

/** Totals for /system/info; `byKind` counts loaded plugins and lists every kind. */
export interface PluginCounts {
  byKind: Record<PluginKind, number>;
  disabled: number;
  failed: number;
  incompatible: number;
  loaded: number;
  total: number;
}

/**
 * The loaded plugins, typed per kind, plus the diagnostics of every candidate. Built once at boot by
 * `loadPlugins`; read-only afterwards. Lists are sorted by id so answers are stable.
 */
export class PluginRegistry {
  readonly #byKind = new Map<PluginKind, Map<string, LoadedPlugin>>();
  readonly #diagnostics: readonly PluginDiagnostic[];

  constructor(loaded: readonly LoadedPlugin[], diagnostics: readonly PluginDiagnostic[]) {
    for (const kind of PLUGIN_KINDS) this.#byKind.set(kind, new Map());
    const sorted = [...loaded].sort((a, b) => a.manifest.id.localeCompare(b.manifest.id));
    for (const entry of sorted) this.#byKind.get(entry.manifest.kind)?.set(entry.manifest.id, entry);
    this.#diagnostics = diagnostics.map((d) => ({ ...d }));
  }

  /** Local folder of a loaded plugin's static assets (from its manifest `assetsUrl`), if any. */
  assetsDir(kind: PluginKind, id: string): string | undefined {
    const url = this.get(kind, id)?.manifest.assetsUrl;
    return url === undefined ? undefined : fileURLToPath(url);
  }

  counts(): PluginCounts {
    const count = (status: PluginDiagnostic["status"]) => this.#diagnostics.filter((d) => d.status === status).length;
    const byKind = Object.fromEntries(PLUGIN_KINDS.map((kind) => [kind, this.list(kind).length])) as Record<PluginKind, number>;
    return {
      byKind,
      disabled: count("disabled"),
      failed: count("failed"),
      incompatible: count("incompatible"),
      loaded: count("loaded"),
      total: this.#diagnostics.length,
    };
  }

  /** Every candidate, loaded or not, in load order (built-ins first); fresh copies each call. */
  diagnostics(): PluginDiagnostic[] {
    return this.#diagnostics.map((d) => ({ ...d }));
  }

  get<K extends PluginKind>(kind: K, id: string): LoadedPlugin<K> | undefined {
    return this.#byKind.get(kind)?.get(id) as LoadedPlugin<K> | undefined;
  }

  instances<K extends PluginKind>(kind: K): KindInstance<K>[] {
    return this.list(kind).map((entry) => entry.instance);
  }

  list<K extends PluginKind>(kind: K): LoadedPlugin<K>[] {
    return [...(this.#byKind.get(kind)?.values() ?? [])] as LoadedPlugin<K>[];
  }
}
