import type { DependencyContainer } from "tsyringe";
import { PROVIDER_DIRECTORY, type ProviderDirectory, type ProviderEntry } from "../../../core/assets/provider-assignment.service.ts";
import { CurrentPriceService, DEFAULT_CURRENT_PRICE_TIMEOUT_MS } from "../../../core/prices/current-price.service.ts";
import { MARKET_DATA_PROVIDERS, type MarketDataProviders } from "../../../core/prices/market-data-providers.ts";
import { PriceSyncService } from "../../../core/prices/price-sync.service.ts";
import type { PluginManifest } from "../../../sdk/index.ts";
import { pluginTimeoutMs } from "../../plugin-config.ts";
import type { PluginRegistry } from "../../plugins/registry.ts";

/**
 * Registers the price services' port over the plugin registry, the provider directory the asset
 * routes list and assign from, and the price services as singletons, so
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
  container.registerInstance(PROVIDER_DIRECTORY, providerDirectory(plugins));
  container.registerSingleton(CurrentPriceService);
  container.registerSingleton(PriceSyncService);
}

/** Core's provider port over the plugin registry: quote and scheduled-investment providers, by code. */
function providerDirectory(plugins: PluginRegistry): ProviderDirectory {
  const about = (m: PluginManifest) => ({ code: m.id, name: m.name, description: m.description, hidden: m.hidden ?? false });
  const entries: ProviderEntry[] = [
    ...plugins.list("quote-provider").map((p) => ({ ...about(p.manifest), kind: "quote-provider" as const, instance: p.instance })),
    ...plugins.list("scheduled-investment-provider")
      .map((p) => ({ ...about(p.manifest), kind: "scheduled-investment-provider" as const, instance: p.instance })),
  ].sort((a, b) => a.code.localeCompare(b.code));
  return { list: () => [...entries], find: (code) => entries.find((e) => e.code === code) };
}
