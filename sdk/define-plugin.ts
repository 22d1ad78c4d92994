import type { z } from "zod";
import type { PluginContext } from "./context.ts";
import { describeZodError } from "./errors.ts";
import type { AiExportDataset } from "./kinds/ai-export-dataset.ts";
import type { CalculationTool } from "./kinds/calculation-tool.ts";
import type { FxProvider } from "./kinds/fx-provider.ts";
import type { ImportPlugin } from "./kinds/import-plugin.ts";
import type { QuoteProvider } from "./kinds/quote-provider.ts";
import type { RiskTool } from "./kinds/risk-tool.ts";
import type { ScheduledInvestmentProvider } from "./kinds/scheduled-investment-provider.ts";
import { type PluginKind, type PluginManifest, PluginManifestSchema } from "./manifest.ts";
import { SDK_API_VERSION } from "./version.ts";

/**
 * The contract each kind's instance implements, by kind id. Input and parameter types are `any`
 * here so that `compute(input: MyInput)` written as an arrow function type-checks; the schemas
 * validate at run time.
 */
export interface KindInstanceMap {
  "ai-export-dataset": AiExportDataset;
  "calculation-tool": CalculationTool<any, any>;
  "fx-provider": FxProvider;
  "import-plugin": ImportPlugin;
  "quote-provider": QuoteProvider;
  "risk-tool": RiskTool<any, any>;
  "scheduled-investment-provider": ScheduledInvestmentProvider<any>;
}

/** The instance type of kind `K`, e.g. `KindInstance<"fx-provider">` is `FxProvider`. */
export type KindInstance<K extends PluginKind> = KindInstanceMap[K];

/**
 * The `$$type` brand of every plugin value. The host recognises plugins by this
 * string (not by `instanceof`), so a plugin bundling its own SDK copy still counts.
 */
export const PLUGIN_BRAND = "@portfolio-tracker/plugin" as const;

/**
 * A plugin: what `definePlugin` returns and a plugin module default-exports.
 * Frozen. `create(ctx)` builds the kind's instance; the host calls it once at
 * boot, with a timeout.
 */
export interface Plugin<K extends PluginKind = PluginKind, C = unknown, I = C> {
  readonly $$type: typeof PLUGIN_BRAND;
  readonly apiVersion: number;
  create(ctx: PluginContext<C>): KindInstance<K> | Promise<KindInstance<K>>;
  /** `configSchema` keeps its types: `C` the parsed config, `I` the config as written (defaulted keys optional). */
  readonly manifest: PluginManifest & { readonly configSchema?: z.ZodType<C, I>; readonly kind: K };
}

/**
 * What a plugin author passes to `definePlugin`: the manifest fields except
 * `apiVersion` (stamped from the SDK), and `create`. `C` is the parsed config
 * type, inferred from `configSchema`; without a schema the config is `{}`. `I` is the schema's
 * input type (what a self-hoster writes: keys with a `.default()` may be left out).
 */
export interface PluginSpec<K extends PluginKind, C, I = C> {
  readonly assetsUrl?: string;
  readonly configSchema?: z.ZodType<C, I>;
  create(ctx: PluginContext<C>): KindInstance<K> | Promise<KindInstance<K>>;
  readonly description: string;
  readonly hidden?: boolean;
  readonly id: string;
  readonly kind: K;
  readonly name: string;
  readonly version: string;
}

const MEMBERS: { readonly [K in PluginKind]: Readonly<Record<string, "function" | "value">> } = {
  "ai-export-dataset": { build: "function", datasetVersion: "value", describe: "function", id: "value" },
  "calculation-tool": { catalog: "value", compute: "function", inputSchema: "value", outputSchema: "value" },
  "fx-provider": { baseCurrencies: "value", getRates: "function", targetCurrencies: "value" },
  "import-plugin": { accepts: "function", parse: "function" },
  "quote-provider": { getHistory: "function", getQuotes: "function", search: "function" },
  "risk-tool": { catalog: "value", compute: "function", inputSchema: "value", outputSchema: "value" },
  "scheduled-investment-provider": { generateEvents: "function", generatePrices: "function", paramsSchema: "value" },
};

/**
 * The required members of kind `kind` that `instance` lacks (or has with the
 * wrong type: a method that isn't a function), sorted; empty when complete.
 * Optional members (such as `getEvents`) are not checked. Never throws.
 * Example: `missingMembers("fx-provider", {})` is `["baseCurrencies", "getRates", "targetCurrencies"]`.
 */
export function missingMembers(kind: PluginKind, instance: unknown): string[] {
  const members = MEMBERS[kind];
  if (!members) return [];
  const target = (typeof instance === "object" && instance !== null ? instance : {}) as Record<string, unknown>;
  return Object.entries(members)
    .filter(([name, type]) => (type === "function" ? typeof target[name] !== "function" : target[name] === undefined))
    .map(([name]) => name)
    .sort();
}

/**
 * Declares a plugin. Validates eagerly and throws an `Error` naming every
 * problem: an invalid manifest (bad id, unknown kind, non-semver version, ...)
 * or a missing `create` function. Returns a frozen, branded {@link Plugin}
 * stamped with {@link SDK_API_VERSION}; `K` (and so the instance type `create`
 * must return) is inferred from `kind`.
 * Example: `export default definePlugin({ kind: "fx-provider", id: "ecb", ..., create: (ctx) => new EcbProvider(ctx) })`.
 */
export function definePlugin<K extends PluginKind, C = Readonly<Record<string, never>>, I = C>(spec: PluginSpec<K, C, I>): Plugin<K, C, I> {
  const label = typeof spec?.id === "string" ? `"${spec.id}"` : "(no id)";
  const parsed = PluginManifestSchema.safeParse({ ...spec, apiVersion: SDK_API_VERSION });
  if (!parsed.success) throw new Error(`definePlugin ${label}: invalid manifest: ${describeZodError(parsed.error)}`);
  if (typeof spec.create !== "function") throw new Error(`definePlugin ${label}: create must be a function`);
  const manifest = Object.freeze(parsed.data) as Plugin<K, C, I>["manifest"];
  return Object.freeze({
    $$type: PLUGIN_BRAND,
    apiVersion: SDK_API_VERSION,
    create: (ctx: PluginContext<C>) => spec.create(ctx),
    manifest,
  });
}

/**
 * True when `value` carries the plugin brand and a `create` function: the
 * host's first check on a module's default export. Never throws.
 * Example: `isPlugin({})` is false; `isPlugin(definePlugin({...}))` is true.
 */
export function isPlugin(value: unknown): value is Plugin {
  try {
    const candidate = value as Partial<Plugin> | null;
    return typeof candidate === "object" && candidate !== null && candidate.$$type === PLUGIN_BRAND && typeof candidate.create === "function";
  } catch {
    return false; // a throwing getter is not a plugin
  }
}
