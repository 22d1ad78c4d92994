import type { DependencyContainer } from "tsyringe";
import { fxProviderCode } from "../../../core/fx/fx-providers.ts";
import type { FxProviderLookup } from "../../../core/fx/fx-sync.service.ts";
import { CurrentPriceService, DEFAULT_CURRENT_PRICE_TIMEOUT_MS } from "../../../core/prices/current-price.service.ts";
import { MARKET_DATA_PROVIDERS, type MarketDataProviders } from "../../../core/prices/market-data-providers.ts";
import { PriceSyncService } from "../../../core/prices/price-sync.service.ts";
import type { FxProvider } from "../../../sdk/index.ts";
import { pluginTimeoutMs } from "../../plugin-config.ts";
import type { PluginRegistry } from "../../plugins/registry.ts";

/**
 * Registers the price services' port over the plugin registry, and the services as singletons, so
 * the HTTP routes and the scheduler share one current-price limiter (at most 5 provider calls in
 * flight per process) and one set of caches. A provider's time limit is its plugin config's
 * `timeoutMs` when set (tests use a short one), else 10 s.
 */
export function registerMarketData(container: DependencyContainer, plugins: PluginRegistry, pluginConfig: Record<string, unknown>): void {
  const port: MarketDataProviders = {
    quoteProvider: (code) => plugins.get("quote-provider", code)?.instance,
    scheduledProvider: (code) => plugins.get("scheduled-investment-provider", code)?.instance,
    timeoutMs: (code) => pluginTimeoutMs(pluginConfig, code, DEFAULT_CURRENT_PRICE_TIMEOUT_MS),
  };
  container.registerInstance(MARKET_DATA_PROVIDERS, port);
  container.registerSingleton(CurrentPriceService);
  container.registerSingleton(PriceSyncService);
}

/** The loaded `fx-provider` plugins by wire code (plugin id upper-cased), hidden ones included. */
export function fxProviderLookup(plugins: PluginRegistry): FxProviderLookup {
  const byCode = new Map<string, FxProvider>(plugins.list("fx-provider").map((p) => [fxProviderCode(p.manifest.id), p.instance]));
  return (code) => byCode.get(code);
}
