import type { DependencyContainer } from "tsyringe";
import type { AuditLog } from "../audit.ts";
import type { AppConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { PluginRegistry } from "../plugins/registry.ts";
import type { Scheduler } from "../scheduler/scheduler.ts";

/** What every route area is built from. */
export interface HttpDeps {
  readonly audit: AuditLog;
  readonly config: AppConfig;
  readonly container: DependencyContainer;
  readonly logger: Logger;
  /**
   * What the routes read about the plugins themselves (counts, diagnostics, asset folders). A kind's
   * instances reach its area through the port registered at boot (host/plugins/ports.ts).
   */
  readonly plugins: Pick<PluginRegistry, "assetsDir" | "counts" | "diagnostics">;
  readonly scheduler: Scheduler;
  readonly sessionKey: Uint8Array;
  /** Called after global settings were written, so schedules follow at once. */
  readonly settingsChanged: () => Promise<void>;
  readonly startedAt: Date;
}
