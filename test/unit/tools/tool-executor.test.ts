import { describe, expect, test } from "bun:test";
import { z } from "zod";
import type { ToolDescriptor } from "../../../host/api/tools/tool-catalog.ts";
import { QueueFullError, ToolExecutor } from "../../../host/api/tools/tool-executor.ts";
import type { ToolPolicy } from "../../../host/api/tools/tool-policy.ts";

const policy: ToolPolicy = {
  concurrency: 1, executionTimeoutMs: 1000, maxBatchItems: 4, maxInputBytes: 1000, maxOutputBytes: 1000, maxQueue: 1, queueTimeoutMs: 1000,
};

const tool = { toolCode: "t", config: {}, entry: null, tool: { outputSchema: z.object({ ok: z.boolean() }) } } as unknown as ToolDescriptor;

describe("tool executor", () => {
  test("service_unavailable: a closed executor runs nothing", async () => {
    let runs = 0;
    const executor = new ToolExecutor(policy, async () => { runs++; return { ok: true, json: "{\"ok\":true}", computeMs: 0 }; });
    executor.close();
    const [ticket] = executor.admit(1);
    const out = await executor.execute(tool, {}, ticket!);
    expect(out.status).toBe("error");
    expect(out.status === "error" && out.error).toMatchObject({ code: "service_unavailable", retryable: true });
    expect(runs).toBe(0);
  });

  test("batches are admitted whole: a batch larger than the free slots plus the queue is refused and takes nothing", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const executor = new ToolExecutor(policy, async () => { await gate; return { ok: true, json: "{\"ok\":true}", computeMs: 0 }; });
    const first = executor.admit(2); // one slot, one queue place
    expect(() => executor.admit(1)).toThrow(QueueFullError);
    const runs = first.map((ticket) => executor.execute(tool, {}, ticket));
    release();
    const outs = await Promise.all(runs);
    expect(outs.map((o) => o.status)).toEqual(["success", "success"]);
    expect(executor.diagnostics()).toMatchObject({ running: 0, queued: 0, completed: 2 });
    expect(executor.diagnostics().failures_by_code).toEqual({ queue_full: 1 });
  });
});
