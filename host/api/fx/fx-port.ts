import type { DependencyContainer } from "tsyringe";
import { type FxProviderEntry, fxProviderCode } from "../../../core/fx/fx-providers.ts";
import type { FxProviderLookup } from "../../../core/fx/fx-sync.service.ts";
import type { FxProvider } from "../../../sdk/index.ts";
import type { PluginRegistry } from "../../plugins/registry.ts";

/** The loaded `fx-provider` plugins as the FX area uses them: instances by wire code for the rate sync, entries for the listings. */
export interface FxProviders {
  readonly lookup: FxProviderLookup;
  readonly entries: readonly FxProviderEntry[];
}

export const FX_PROVIDERS = Symbol("FxProviders");

/**
 * Registers the FX area's port over the plugin registry (wire code = plugin id upper-cased, hidden
 * providers included), once at boot; the routes and the scheduled sync read it from the container.
 */
export function registerFxProviders(container: DependencyContainer, plugins: PluginRegistry): FxProviders {
  const loaded = plugins.list("fx-provider");
  const byCode = new Map<string, FxProvider>(loaded.map((p) => [fxProviderCode(p.manifest.id), p.instance]));
  const port: FxProviders = {
    lookup: (code) => byCode.get(code),
    entries: loaded.map((p) => ({
      baseCurrencies: [...p.instance.baseCurrencies],
      code: fxProviderCode(p.manifest.id),
      description: p.manifest.description,
      hidden: p.manifest.hidden === true,
      name: p.manifest.name,
      targetCurrencies: [...p.instance.targetCurrencies],
    })),
  };
  container.registerInstance(FX_PROVIDERS, port);
  return port;
}
