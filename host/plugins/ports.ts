import type { DependencyContainer } from "tsyringe";
import type { FxProviderLookup } from "../../core/fx/fx-sync.service.ts";
import { AiExportCatalog } from "../api/ai-export/catalog.ts";
import { registerMarketData } from "../api/assets/market-data-port.ts";
import { registerBrim } from "../api/brokers/import/brim-port.ts";
import { registerFxProviders } from "../api/fx/fx-port.ts";
import { RISK_TOOLS, riskTools } from "../api/risk/risk.service.ts";
import { ToolCatalog } from "../api/tools/tool-catalog.ts";
import type { DatabaseTarget } from "../db/dialect.ts";
import type { Logger } from "../logger.ts";
import type { PluginRegistry } from "./registry.ts";

/**
 * Hands the loaded plugins to the services that use them, once at boot, one line per kind. Core
 * never imports plugins and an area never builds its own view of the registry: each kind reaches
 * its services through a port registered in the DI container here. The kernel's one place that
 * names the areas owning those ports (host/main.ts calls it; test/architecture/boundaries.test.ts).
 */
export function registerPluginPorts(
  container: DependencyContainer, plugins: PluginRegistry, pluginConfig: Record<string, unknown>, db: DatabaseTarget, logger: Logger,
): { fxProviders: FxProviderLookup } {
  const configFor = (id: string) => pluginConfig[id];
  // quote-provider and scheduled-investment-provider: current prices, price history, scheduled investments, the /assets/provider listing.
  registerMarketData(container, plugins, pluginConfig);
  // import-plugin: BRIM, each parse in the worker pool under the plugin's time limit.
  registerBrim(container, plugins, pluginConfig, db, logger);
  // risk-tool: the /risk area's analytics; a PLUGINS_DIR tool's configuration goes to the worker that re-creates it.
  container.registerInstance(RISK_TOOLS, riskTools(plugins, configFor));
  // calculation-tool: described once (JSON Schemas, fingerprints), so every /tools request compares against the same values.
  container.registerInstance(ToolCatalog, new ToolCatalog(plugins, configFor));
  // ai-export-dataset: one catalog for /ai-export and the MCP server.
  container.registerInstance(AiExportCatalog, new AiExportCatalog(plugins));
  // fx-provider: the /fx listings and rate sync, and the sync the scheduler runs.
  return { fxProviders: registerFxProviders(container, plugins).lookup };
}
