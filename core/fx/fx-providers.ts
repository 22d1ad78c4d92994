import { MANUAL_PROVIDER, type ProviderEdges } from "./route-search.calc.ts";

/** An FX provider as core sees it; the host builds these from the loaded `fx-provider` plugins. */
export interface FxProviderEntry {
  baseCurrencies: readonly string[];
  /** Wire code: the plugin id upper-cased (`ecb` → `ECB`). */
  code: string;
  description: string;
  /** Test-only providers: left out of lists and suggestions, still usable in routes by code. */
  hidden: boolean;
  name: string;
  targetCurrencies: readonly string[];
  warningI18n?: Readonly<Record<string, string>>;
}

/** The wire code of a plugin id. */
export const fxProviderCode = (pluginId: string) => pluginId.toUpperCase();

const visible = (p: FxProviderEntry) => !p.hidden && p.code !== MANUAL_PROVIDER;

/**
 * The providers a user sees (MANUAL, a placeholder rather than a provider, and test-only ones
 * hidden), sorted by code; `codes` (case-insensitive) narrows the list, unknown codes are ignored.
 */
export function listFxProviders(entries: readonly FxProviderEntry[], codes?: readonly string[]): FxProviderEntry[] {
  const wanted = codes && codes.length > 0 ? new Set(codes.map((c) => c.trim().toUpperCase())) : null;
  return entries
    .filter((p) => visible(p) && (wanted === null || wanted.has(p.code)))
    .sort((a, b) => a.code.localeCompare(b.code));
}

/** The route-search graph of the visible providers: one entry per base currency. */
export function fxProviderEdges(entries: readonly FxProviderEntry[]): ProviderEdges[] {
  return listFxProviders(entries).flatMap((p) => p.baseCurrencies.map((base) => ({ base, provider: p.code, targets: p.targetCurrencies })));
}
