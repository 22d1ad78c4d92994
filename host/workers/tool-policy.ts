import { poolSize } from "./pool.ts";

/**
 * Limits of the calculation-tool executor (docs/tools.md "Executor policy"). Defaults suit a small
 * server; each can be changed by an environment variable read once at start (host/config.ts).
 */
export interface ToolPolicy {
  /** Tool items running at once (each on one worker of the shared pool). */
  readonly concurrency: number;
  readonly executionTimeoutMs: number;
  readonly maxBatchItems: number;
  /** Bytes of an item's `parameters` as JSON. */
  readonly maxInputBytes: number;
  /** Bytes of a tool's output as JSON. */
  readonly maxOutputBytes: number;
  /** Items waiting for a slot, over all requests. */
  readonly maxQueue: number;
  readonly queueTimeoutMs: number;
}

const VARIABLES: Record<Exclude<keyof ToolPolicy, "maxBatchItems">, string> = {
  concurrency: "TOOLS_CONCURRENCY",
  executionTimeoutMs: "TOOLS_EXECUTION_TIMEOUT_MS",
  maxInputBytes: "TOOLS_MAX_INPUT_BYTES",
  maxOutputBytes: "TOOLS_MAX_OUTPUT_BYTES",
  maxQueue: "TOOLS_MAX_QUEUE",
  queueTimeoutMs: "TOOLS_QUEUE_TIMEOUT_MS",
};

export function defaultToolPolicy(): ToolPolicy {
  return {
    concurrency: poolSize(),
    executionTimeoutMs: 10_000,
    maxBatchItems: 4,
    maxInputBytes: 256 * 1024,
    maxOutputBytes: 1024 * 1024,
    maxQueue: 16,
    queueTimeoutMs: 5_000,
  };
}

/** The policy with environment overrides; throws a clear message for a value that is not a whole number in range. */
export function toolPolicyFrom(env: Record<string, string | undefined>): ToolPolicy {
  const policy: Record<string, number> = { ...defaultToolPolicy() };
  for (const [key, name] of Object.entries(VARIABLES)) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    const min = key === "maxQueue" ? 0 : 1;
    if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}, got "${raw}"`);
    policy[key] = value;
  }
  return policy as unknown as ToolPolicy;
}
