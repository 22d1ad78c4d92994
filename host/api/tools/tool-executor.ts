import { randomUUID } from "node:crypto";
import type { ToolTask, ToolTaskResult } from "./tool.task.ts";
import type { ToolDescriptor } from "./tool-catalog.ts";
import type { ToolPolicy } from "./tool-policy.ts";

/** Per-item error codes this executor produces (docs/tools.md lists when). */
export type ToolErrorCode =
  | "execution_failed" | "execution_limit" | "execution_timeout" | "input_limit_exceeded" | "invalid_output"
  | "invalid_parameters" | "output_limit_exceeded" | "queue_full" | "queue_timeout" | "service_unavailable"
  | "tool_unavailable" | "unknown_tool" | "version_mismatch" | "worker_crashed";

const RETRYABLE: ReadonlySet<ToolErrorCode> = new Set([
  "queue_full", "queue_timeout", "execution_timeout", "worker_crashed", "service_unavailable",
]);

export interface ToolIssue {
  code: string;
  path: (string | number)[];
}

export interface ToolError {
  code: ToolErrorCode;
  retryable: boolean;
  issues: ToolIssue[];
  issue_count: number;
}

export function toolError(code: ToolErrorCode, issues: ToolIssue[] = []): ToolError {
  return { code, retryable: RETRYABLE.has(code), issues, issue_count: issues.length };
}

export type ItemOutcome =
  | { status: "success"; execution_id: string; metrics: { queue_ms: number; execution_ms: number }; result: unknown }
  | { status: "error"; execution_id: string; metrics: { queue_ms: number; execution_ms: number }; error: ToolError };

/** Runs one task on the worker pool; rejects with an AbortError when `signal` fires. */
export type ToolRunner = (task: ToolTask, signal: AbortSignal) => Promise<ToolTaskResult>;

/** Thrown by `admit` when a batch does not fit: the whole batch is refused (429 queue_full). */
export class QueueFullError extends Error {}

interface Waiter {
  resolve(): void;
  timer: ReturnType<typeof setTimeout>;
}

const RECENT_LIMIT = 50;

/**
 * Runs calculation-tool items on the shared worker pool under the policy's limits: at most
 * `concurrency` items at once, at most `maxQueue` waiting (a batch is admitted whole or not at all),
 * a wait limit, a run-time limit (the worker is terminated and replaced), an output size limit and
 * the output schema. Keeps sanitised counters for /tools/diagnostics: codes and tool codes only.
 */
export class ToolExecutor {
  #running = 0;
  readonly #waiting: Waiter[] = [];
  readonly #recent: { at: string; code: ToolErrorCode; tool_code: string }[] = [];
  readonly #failuresByCode = new Map<ToolErrorCode, number>();
  #completed = 0;
  #closed = false;

  constructor(readonly policy: ToolPolicy, private readonly run: ToolRunner) {}

  /** Reserves places for `count` items at once, or throws QueueFullError: batches are atomic. */
  admit(count: number): Array<() => Promise<number>> {
    const free = Math.max(0, this.policy.concurrency - this.#running);
    const mustWait = Math.max(0, count - free);
    if (this.#waiting.length + mustWait > this.policy.maxQueue) {
      for (let i = 0; i < count; i++) this.#fail("queue_full", "");
      throw new QueueFullError();
    }
    // Take the free slots now and queue the rest now, so a concurrent batch cannot take them.
    const tickets: Array<() => Promise<number>> = [];
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      if (i < free) {
        this.#running++;
        tickets.push(async () => performance.now() - t0);
      } else {
        const wait = new Promise<void>((resolve, reject) => {
          const waiter: Waiter = {
            resolve,
            timer: setTimeout(() => {
              const at = this.#waiting.indexOf(waiter);
              if (at >= 0) this.#waiting.splice(at, 1);
              reject(new Error("queue_timeout"));
            }, this.policy.queueTimeoutMs),
          };
          this.#waiting.push(waiter);
        });
        wait.catch(() => {});
        tickets.push(async () => { await wait; return performance.now() - t0; });
      }
    }
    return tickets;
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve(); // the slot passes on to the waiter
    } else {
      this.#running--;
    }
  }

  /** Runs one admitted item: waits for its slot, runs it, checks size and output schema. */
  async execute(tool: ToolDescriptor, input: unknown, ticket: () => Promise<number>): Promise<ItemOutcome> {
    const execution_id = randomUUID();
    let queue_ms = 0;
    try {
      queue_ms = await ticket();
    } catch {
      return this.#error(tool, execution_id, { queue_ms: 0, execution_ms: 0 }, "queue_timeout");
    }
    const t0 = performance.now();
    const metrics = () => ({ queue_ms: round(queue_ms), execution_ms: round(performance.now() - t0) });
    try {
      if (this.#closed) return this.#error(tool, execution_id, metrics(), "service_unavailable");
      let out: ToolTaskResult;
      try {
        out = await this.run({ config: tool.config, entry: tool.entry, id: tool.toolCode, input }, AbortSignal.timeout(this.policy.executionTimeoutMs));
      } catch (error) {
        const aborted = error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
        return this.#error(tool, execution_id, metrics(), aborted ? "execution_timeout" : "worker_crashed");
      }
      if (!out.ok) return this.#error(tool, execution_id, metrics(), out.code);
      if (Buffer.byteLength(out.json) > this.policy.maxOutputBytes) {
        return this.#error(tool, execution_id, metrics(), "output_limit_exceeded");
      }
      const parsed = tool.tool.outputSchema.safeParse(JSON.parse(out.json));
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ code: i.code, path: i.path.filter((p) => typeof p !== "symbol") as (string | number)[] }));
        return this.#error(tool, execution_id, metrics(), "invalid_output", issues);
      }
      this.#completed++;
      return { status: "success", execution_id, metrics: metrics(), result: parsed.data };
    } finally {
      this.#release();
    }
  }

  /** Records a failure decided before execution (unknown tool, bad input, ...) for diagnostics. */
  rejected(toolCode: string, code: ToolErrorCode, issues: ToolIssue[] = []): ItemOutcome {
    this.#fail(code, toolCode);
    return { status: "error", execution_id: randomUUID(), metrics: { queue_ms: 0, execution_ms: 0 }, error: toolError(code, issues) };
  }

  #error(tool: ToolDescriptor, execution_id: string, metrics: { queue_ms: number; execution_ms: number }, code: ToolErrorCode, issues: ToolIssue[] = []): ItemOutcome {
    this.#fail(code, tool.toolCode);
    return { status: "error", execution_id, metrics, error: toolError(code, issues) };
  }

  #fail(code: ToolErrorCode, toolCode: string): void {
    this.#failuresByCode.set(code, (this.#failuresByCode.get(code) ?? 0) + 1);
    this.#recent.push({ at: new Date().toISOString(), code, tool_code: toolCode });
    if (this.#recent.length > RECENT_LIMIT) this.#recent.shift();
  }

  /** Stops accepting work: later items end with service_unavailable. */
  close(): void {
    this.#closed = true;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Sanitised state: counts and codes only, never inputs, outputs or users. */
  diagnostics() {
    return {
      running: this.#running,
      queued: this.#waiting.length,
      completed: this.#completed,
      failures_by_code: Object.fromEntries([...this.#failuresByCode].sort(([a], [b]) => a.localeCompare(b))),
      recent_failures: [...this.#recent].reverse(),
    };
  }
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
