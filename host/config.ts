import { resolve } from "node:path";

/** Process configuration, read once from the environment at start-up. */
export interface AppConfig {
  readonly dataDir: string;
  readonly host: string;
  /** Empty when JWT_SECRET is unset or empty: each process then makes its own random key. */
  readonly jwtSecret: string;
  readonly logLevel: LogLevel;
  readonly pluginsDir: string | undefined;
  /** JSON file with per-plugin configuration keyed by plugin id (default DATA_DIR/plugins.json). */
  readonly pluginsConfigFile: string | undefined;
  readonly port: number;
  /**
   * Reverse proxies whose `X-Forwarded-For` is believed (TRUSTED_PROXIES: comma-separated
   * addresses or CIDR ranges; default none, so a client cannot pick its own address).
   */
  readonly trustedProxies: readonly string[];
  /** Container registry queried by /system/container-image-status. */
  readonly registryUrl: string;
  readonly registryRepository: string;
  /** Calculation-tool executor limits set by TOOLS_* variables (docs/tools.md); the tools area has the defaults. */
  readonly tools: ToolLimitOverrides;
  /** Risk limits (docs/risk.md "Limits"): RISK_ANALYTIC_TIMEOUT_MS, RISK_MAX_QUEUED_TASKS; unset keeps the defaults. */
  readonly riskAnalyticTimeoutMs?: number;
  readonly riskMaxQueuedTasks?: number;
  /** Warm the pool threads for risk queries in the background after start-up (RISK_WARM_UP, default on; "0" or "false" turns it off). */
  readonly riskWarmUp: boolean;
  /**
   * Host names the MCP endpoint answers besides localhost (MCP_ALLOWED_HOSTS, comma-separated, such as
   * `tracker.example.org`): its Host and Origin must name one of them (docs/mcp.md, DNS rebinding).
   */
  readonly mcpAllowedHosts?: readonly string[];
}

/** Executor limits a TOOLS_* variable sets (host/api/tools/tool-policy.ts applies them over its defaults). */
export type ToolLimitOverrides = Partial<Record<keyof typeof TOOL_VARIABLES, number>>;

const TOOL_VARIABLES = {
  concurrency: "TOOLS_CONCURRENCY",
  executionTimeoutMs: "TOOLS_EXECUTION_TIMEOUT_MS",
  maxInputBytes: "TOOLS_MAX_INPUT_BYTES",
  maxOutputBytes: "TOOLS_MAX_OUTPUT_BYTES",
  maxQueue: "TOOLS_MAX_QUEUE",
  queueTimeoutMs: "TOOLS_QUEUE_TIMEOUT_MS",
} as const;

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const LOG_LEVELS: LogLevel[] = ["debug", "info", "warn", "error", "silent"];

export const DEFAULT_REGISTRY_URL = "https://ghcr.io";
export const DEFAULT_REGISTRY_REPOSITORY = "portfolio-tracker/portfolio-tracker";

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const port = env.PORT === undefined || env.PORT === "" ? 8000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer between 0 and 65535, got "${env.PORT}"`);
  }
  const logLevel = (env.LOG_LEVEL || "info").toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${env.LOG_LEVEL}"`);
  }
  return {
    dataDir: resolve(env.DATA_DIR || "./data"),
    host: env.HOST || "0.0.0.0",
    jwtSecret: env.JWT_SECRET ?? "",
    logLevel,
    pluginsDir: env.PLUGINS_DIR ? resolve(env.PLUGINS_DIR) : undefined,
    pluginsConfigFile: env.PLUGINS_CONFIG ? resolve(env.PLUGINS_CONFIG) : undefined,
    port,
    registryUrl: (env.CONTAINER_REGISTRY_URL || DEFAULT_REGISTRY_URL).replace(/\/+$/, ""),
    registryRepository: env.CONTAINER_IMAGE_REPOSITORY || DEFAULT_REGISTRY_REPOSITORY,
    tools: toolLimits(env),
    trustedProxies: (env.TRUSTED_PROXIES ?? "").split(",").map((s) => s.trim()).filter(Boolean),
    riskAnalyticTimeoutMs: positiveInt(env, "RISK_ANALYTIC_TIMEOUT_MS"),
    riskMaxQueuedTasks: positiveInt(env, "RISK_MAX_QUEUED_TASKS", 0),
    riskWarmUp: !["0", "false"].includes((env.RISK_WARM_UP ?? "").toLowerCase()),
    mcpAllowedHosts: (env.MCP_ALLOWED_HOSTS ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean),
  };
}

/** The TOOLS_* variables that are set; throws a clear message for a value that is not a whole number in range. */
function toolLimits(env: Record<string, string | undefined>): ToolLimitOverrides {
  const limits: ToolLimitOverrides = {};
  for (const [key, name] of Object.entries(TOOL_VARIABLES) as [keyof ToolLimitOverrides, string][]) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    const min = key === "maxQueue" ? 0 : 1;
    if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}, got "${raw}"`);
    limits[key] = value;
  }
  return limits;
}

/** An optional non-negative integer setting (at least `min`), or undefined when unset. */
function positiveInt(env: Record<string, string | undefined>, name: string, min = 1): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return n;
}
