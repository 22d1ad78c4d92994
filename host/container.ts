import "reflect-metadata";
import { container as root, type DependencyContainer } from "tsyringe";
import { Database } from "../core/db/database.ts";
import { THROTTLE_NOW } from "../core/users/login-throttle.service.ts";
import type { AppConfig } from "./config.ts";
import type { Logger } from "./logger.ts";

export const CONFIG = Symbol("AppConfig");
export const LOGGER = Symbol("Logger");

/** The DI container of this process: infrastructure instances; services resolve themselves. */
export function createContainer(config: AppConfig, logger: Logger, db: Database): DependencyContainer {
  const c = root.createChildContainer();
  c.registerInstance(CONFIG, config);
  c.registerInstance(LOGGER, logger);
  c.registerInstance(Database, db);
  c.registerInstance(THROTTLE_NOW, () => Date.now());
  return c;
}
