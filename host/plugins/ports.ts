import type { DependencyContainer } from "tsyringe";
import type { FxProviderLookup } from "../../core/fx/fx-sync.service.ts";
import { fxProviderLookup, registerMarketData } from "../api/assets/market-data-port.ts";
import { registerBrim } from "../api/brokers/import/brim-port.ts";
import type { DatabaseTarget } from "../db/dialect.ts";
import type { Logger } from "../logger.ts";
import type { PluginRegistry } from "./registry.ts";

/**
 * Hands the loaded plugins to the core services that use them, once at boot, one line per kind.
 * Core never imports plugins: each kind reaches its services through a port (an interface of core
 * registered in the DI container) built here over the registry. The kinds the HTTP areas read
 * directly from the registry (risk tools, calculation tools, AI-export datasets) need no port.
 */
export function registerPluginPorts(
  container: DependencyContainer, plugins: PluginRegistry, pluginConfig: Record<string, unknown>, db: DatabaseTarget, logger: Logger,
): { fxProviders: FxProviderLookup } {
  // quote-provider and scheduled-investment-provider: current prices, price history, scheduled investments.
  registerMarketData(container, plugins, pluginConfig);
  // import-plugin: BRIM, each parse in the worker pool under the plugin's time limit.
  registerBrim(container, plugins, pluginConfig, db, logger);
  // fx-provider: the exchange-rate sync the scheduler runs.
  return { fxProviders: fxProviderLookup(plugins) };
}
