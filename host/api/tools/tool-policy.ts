import type { ToolLimitOverrides } from "../../config.ts";
import { poolSize } from "../../workers/pool.ts";

/**
 * Limits of the calculation-tool executor (docs/tools.md "Executor policy"). Defaults suit a small
 * server; each can be changed by an environment variable read once at start (host/config.ts
 * `ToolLimitOverrides`).
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

/** The defaults with the overrides of the environment (host/config.ts). */
export function toolPolicy(overrides: ToolLimitOverrides): ToolPolicy {
  return { ...defaultToolPolicy(), ...overrides };
}
