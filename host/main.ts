import "reflect-metadata";
import { networkInterfaces } from "node:os";
import { CacheRegistry } from "../core/cache/cache-registry.ts";
import { FxSyncService } from "../core/fx/fx-sync.service.ts";
import { CurrentPriceService } from "../core/prices/current-price.service.ts";
import { PriceSyncService } from "../core/prices/price-sync.service.ts";
import { OUTBOUND_ALLOWED_HOSTS } from "../core/settings/global-defaults.ts";
import { GlobalSettingsService } from "../core/settings/global-settings.service.ts";
import { SDK_API_VERSION } from "../sdk/index.ts";
import { builtinPlugins } from "../plugins/index.ts";
import { createAuditLog } from "./audit.ts";
import { loadConfig, type AppConfig } from "./config.ts";
import { createContainer } from "./container.ts";
import { changeSource } from "./db/change-journal.ts";
import { databaseFile, databaseTarget, openDatabase } from "./db/data-source.ts";
import { createApp, MULTIPART_PATHS } from "./api/index.ts";
import { serveHttp } from "./http/server.ts";
import { credentialsProbe, sessionKey } from "./http/session.ts";
import { createLogger, type Logger } from "./logger.ts";
import { brimDir, BrimFileService } from "../core/brim/brim-file.service.ts";
import { loadPluginConfig } from "./plugin-config.ts";
import { createPluginContext } from "./plugins/context.ts";
import { loadPlugins } from "./plugins/loader.ts";
import { registerPluginPorts } from "./plugins/ports.ts";
import { MarketDataSchedule } from "./api/assets/market-data-schedule.ts";
import { currentPriceJob, historySyncJob } from "./api/assets/market-data.jobs.ts";
import { Scheduler } from "./scheduler/scheduler.ts";
import { slotClaims } from "./scheduler/slot-claims.ts";
import { shutdownWorkerPool } from "./workers/pool.ts";
import { warmRiskWorkers } from "./api/risk/warm-up.ts";
import { warmReportWorker } from "./api/portfolio/warm-up.ts";

/**
 * Everything up to the HTTP server: database (migrated), DI container, plugin registry, market
 * data, BRIM, scheduler and the app, nothing started. `boot` starts the schedules and serves it;
 * in-process tests (test/helpers/in-process.ts) call `app.handle` directly.
 */
export async function assemble(config: AppConfig, logger: Logger) {
  const db = await openDatabase(config.dataDir);
  // Where a write's time goes (queue, database, serialisation retries): read by bench/multiprocess.ts.
  db.observeWrites({
    retried: (e) => logger.debug("write retried", { attempt: e.attempt, code: e.code, delay_ms: Math.round(e.delayMs) }),
    ended: (e) => logger.debug("write ended", { queued_ms: Math.round(e.queuedMs), ms: Math.round(e.ms), attempts: e.attempts, committed: e.committed }),
  });
  const container = createContainer(config, logger, db);
  const registry = container.resolve(CacheRegistry);
  // Writes store what they changed (openDatabase); every cached read first applies what this process has not seen.
  await registry.followChanges(changeSource(db));
  await container.resolve(GlobalSettingsService).initialize();

  const pluginConfig = loadPluginConfig(config.dataDir, config.pluginsConfigFile);
  const settings = container.resolve(GlobalSettingsService);
  const allowedDestinations = async () => (await settings.str(OUTBOUND_ALLOWED_HOSTS)).split(",").map((s) => s.trim()).filter(Boolean);
  const plugins = await loadPlugins({
    builtins: builtinPlugins,
    pluginsDir: config.pluginsDir,
    configFor: (id) => pluginConfig[id],
    logger,
    createContext: (manifest, pluginCfg) => createPluginContext(manifest, pluginCfg, logger, { allowedDestinations }),
    acceptedApiVersions: [SDK_API_VERSION],
  });
  const { fxProviders } = registerPluginPorts(container, plugins, pluginConfig, databaseTarget(config.dataDir), logger);
  await container.resolve(BrimFileService).sweep(brimDir(config.dataDir));
  const scheduler = new Scheduler(config.dataDir, logger, slotClaims(db));
  const marketSchedule = new MarketDataSchedule(scheduler, container.resolve(GlobalSettingsService), {
    currentPrice: currentPriceJob(db, container.resolve(CurrentPriceService)),
    historySync: historySyncJob(db, container.resolve(PriceSyncService), {
      providers: fxProviders, syncs: container.resolve(FxSyncService),
    }, logger),
  }, logger);
  const key = sessionKey(config.jwtSecret);
  const deps = {
    audit: createAuditLog(config.dataDir, logger),
    config,
    container,
    logger,
    plugins,
    scheduler,
    settingsChanged: () => marketSchedule.reload(),
    sessionKey: key,
    startedAt: new Date(),
  };
  const app = createApp(deps);
  return { app, db, deps, container, scheduler, marketSchedule, sessionKey: key };
}

/** Boot order: config → database → DI container → plugin registry → scheduler → HTTP. */
export async function boot(config: AppConfig = loadConfig()) {
  const logger = createLogger(config.logLevel);
  const { app, db, scheduler, marketSchedule, container, sessionKey: key } = await assemble(config, logger);
  await marketSchedule.start();
  const server = serveHttp(app, config, logger, credentialsProbe(container, key), MULTIPART_PATHS);
  const urls = browserUrls(server.hostname ?? config.host, server.port ?? config.port);
  logger.info("listening", {
    url: `http://${server.hostname}:${server.port}`, port: server.port, data_dir: config.dataDir,
    web_app: urls.map((u) => `${u}/`), api_docs: `${urls[0]}/api/v1/docs`,
  });
  // In the background: the first risk query would otherwise pay for cold worker threads (docs/risk.md "Performance").
  if (config.riskWarmUp) {
    void warmRiskWorkers(databaseFile(config.dataDir), logger);
    // The report thread likewise (docs/portfolio.md "Performance"): the first dashboard after start ran on a cold thread.
    void warmReportWorker(databaseFile(config.dataDir), logger);
  }

  const stop = async () => {
    logger.info("shutting down");
    scheduler.stop();
    await server.stop();
    await shutdownWorkerPool();
    await db.close();
    logger.info("stopped");
  };
  return { app, server, stop };
}

/**
 * Addresses a browser can open: `localhost` and this machine's network addresses when the server
 * listens on every interface (`0.0.0.0`, `::`), else the one it listens on. The start-up log names
 * them, so a self-hoster does not have to guess what `0.0.0.0` means.
 */
export function browserUrls(hostname: string, port: number): string[] {
  if (hostname !== "0.0.0.0" && hostname !== "::") return [`http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`];
  const lan = Object.values(networkInterfaces()).flat()
    .filter((a) => a !== undefined && !a.internal && a.family === "IPv4")
    .map((a) => `http://${a!.address}:${port}`);
  return [`http://localhost:${port}`, ...lan];
}

/** Boots the server and stops it cleanly on SIGINT or SIGTERM (`bun host/main.ts`, or host/start.ts). */
export async function run(): Promise<void> {
  const { stop } = await boot();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void stop().finally(() => process.exit(0)));
  }
}

if (import.meta.main) await run();
