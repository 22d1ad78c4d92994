import { afterAll, describe, expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { pluginsDirWith } from "../../plugins-host/fixture-dir.ts";

// One tool slot and one queue place make queue_full and queue_timeout reachable without load.
const plugins = pluginsDirWith(["broken-create-throws"]);
cpSync(join(import.meta.dir, "../../fixtures/tool-plugins/tool-probe"), join(plugins.dir, "tool-probe"), { recursive: true });
afterAll(() => plugins.remove());
const api = useApi({
  users: ["alice"],
  env: {
    PLUGINS_DIR: plugins.dir,
    TOOLS_CONCURRENCY: "1",
    TOOLS_MAX_QUEUE: "1",
    TOOLS_QUEUE_TIMEOUT_MS: "300",
    TOOLS_EXECUTION_TIMEOUT_MS: "2000",
    TOOLS_MAX_INPUT_BYTES: "4096",
    TOOLS_MAX_OUTPUT_BYTES: "4096",
  },
});

let probe: { contract_version: string; implementation_version: string; schema_fingerprint: string };

function item(id: string, parameters: Record<string, unknown>, over: Record<string, unknown> = {}) {
  return { correlation_id: id, tool_code: "tool_probe", ...probe, parameters, ...over };
}

async function compute(items: unknown[]) {
  const res = await api.as.alice.post("/tools/compute", { request_id: "r1", items });
  expect(res.status).toBe(200);
  return res.json() as Promise<{ results: any[]; success_count: number; failed_count: number }>;
}

async function codeOf(parameters: Record<string, unknown>, over: Record<string, unknown> = {}) {
  const body = await compute([item("a", parameters, over)]);
  return body.results[0].status === "error" ? body.results[0].error.code : "success";
}

describe("tools executor", () => {
  test("the catalog lists each tool with JSON Schemas, versions, fingerprint, operations and the policy", async () => {
    const res = await api.as.alice.get("/tools/catalog");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.policy).toEqual({
      workers: 1, max_batch_items: 4, max_queue: 1, queue_timeout_ms: 300, execution_timeout_ms: 2000, max_input_bytes: 4096, max_output_bytes: 4096,
    });
    const entry = body.items.find((i: any) => i.tool_code === "tool_probe");
    expect(entry.contract_version).toBe("1.0.0");
    expect(entry.implementation_version).toBe("1.0.0");
    expect(entry.schema_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(entry.input_schema.properties.mode.enum).toContain("echo");
    expect(entry.output_schema.required).toEqual(["text"]);
    expect(entry.operations[0]).toMatchObject({ operation: "compute", pure: true, deterministic: true });
    expect(body.unavailable).toEqual([{ tool_code: "create-throws", reason: "unavailable" }]);
    probe = { contract_version: entry.contract_version, implementation_version: entry.implementation_version, schema_fingerprint: entry.schema_fingerprint };
  });

  test("the schema fingerprint is the SHA-256 of the canonical JSON of both schemas", async () => {
    const body = await (await api.as.alice.get("/tools/catalog")).json();
    const entry = body.items.find((i: any) => i.tool_code === "tool_probe");
    const canonical = (v: unknown): string => Array.isArray(v) ? `[${v.map(canonical).join(",")}]`
      : v && typeof v === "object" ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as any)[k])}`).join(",")}}`
        : JSON.stringify(v);
    const hash = new Bun.CryptoHasher("sha256").update(canonical({ input_schema: entry.input_schema, output_schema: entry.output_schema })).digest("hex");
    expect(entry.schema_fingerprint).toBe(hash);
  });

  test("a valid item succeeds with its result, ids and metrics", async () => {
    const body = await compute([item("a", { mode: "echo", text: "hi" })]);
    expect(body.success_count).toBe(1);
    expect(body.results[0]).toMatchObject({ correlation_id: "a", tool_code: "tool_probe", status: "success", result: { text: "hi" } });
    expect(body.results[0].execution_id).toBeString();
  });

  test("unknown_tool and tool_unavailable", async () => {
    expect(await codeOf({}, { tool_code: "no_such_tool" })).toBe("unknown_tool");
    expect(await codeOf({}, { tool_code: "create-throws" })).toBe("tool_unavailable");
  });

  test("version_mismatch for a contract version, implementation version or fingerprint that differs from the catalog", async () => {
    const body = await compute([
      item("a", { mode: "echo" }, { contract_version: "2.0.0" }),
      item("b", { mode: "echo" }, { implementation_version: "0.9.0" }),
      item("c", { mode: "echo" }, { schema_fingerprint: "0".repeat(64) }),
    ]);
    expect(body.results.map((r) => r.error.code)).toEqual(["version_mismatch", "version_mismatch", "version_mismatch"]);
    expect(body.results.map((r) => r.error.issues[0].path[0])).toEqual(["contract_version", "implementation_version", "schema_fingerprint"]);
  });

  test("invalid_parameters from the input schema (with paths) and from the tool", async () => {
    const body = await compute([item("a", { mode: "nope" })]);
    expect(body.results[0].error).toMatchObject({ code: "invalid_parameters", retryable: false, issue_count: 1 });
    expect(body.results[0].error.issues[0].path).toEqual(["parameters", "mode"]);
    expect(await codeOf({ mode: "invalid-input" })).toBe("invalid_parameters");
  });

  test("input_limit_exceeded and output_limit_exceeded", async () => {
    expect(await codeOf({ mode: "echo", text: "x".repeat(5000) })).toBe("input_limit_exceeded");
    expect(await codeOf({ mode: "big-output", ms: 5000 })).toBe("output_limit_exceeded");
  });

  test("invalid_output: the output is validated against the output schema", async () => {
    expect(await codeOf({ mode: "bad-output" })).toBe("invalid_output");
  });

  test("execution_failed and execution_limit", async () => {
    expect(await codeOf({ mode: "throw" })).toBe("execution_failed");
    expect(await codeOf({ mode: "limit" })).toBe("execution_limit");
  });

  test("execution_timeout: a tool that never returns is stopped and the pool recovers", async () => {
    const body = await compute([item("a", { mode: "spin" })]);
    expect(body.results[0].error).toMatchObject({ code: "execution_timeout", retryable: true });
    expect(await codeOf({ mode: "echo" })).toBe("success");
  });

  test("worker_crashed: a worker that dies mid-run fails only its item and the pool recovers", async () => {
    const body = await compute([item("a", { mode: "exit" })]);
    expect(body.results[0].error).toMatchObject({ code: "worker_crashed", retryable: true });
    expect(await codeOf({ mode: "echo" })).toBe("success");
  });

  test("queue_timeout: an item that waits longer than the queue limit is not run", async () => {
    const body = await compute([item("a", { mode: "sleep", ms: 1500 }), item("b", { mode: "echo" })]);
    expect(body.results[0].status).toBe("success");
    expect(body.results[1].error).toMatchObject({ code: "queue_timeout", retryable: true });
  });

  test("queue_full: a batch that does not fit the queue is refused whole with 429", async () => {
    const res = await api.as.alice.post("/tools/compute", {
      request_id: "r2", items: [item("a", { mode: "echo" }), item("b", { mode: "echo" }), item("c", { mode: "echo" })],
    });
    const body = await expectError(res, 429, "queue_full");
    expect(body.params.retryable).toBe(true);
  });

  test("the envelope is validated: 1–4 items, unique correlation ids, a 64-hex fingerprint", async () => {
    const post = (items: unknown[]) => api.as.alice.post("/tools/compute", { request_id: "r", items });
    await expectError(await post([]), 422, "VALIDATION_ERROR");
    await expectError(await post(Array.from({ length: 5 }, (_, i) => item(`i${i}`, { mode: "echo" }))), 422, "VALIDATION_ERROR");
    await expectError(await post([item("a", { mode: "echo" }), item("a", { mode: "echo" })]), 422, "VALIDATION_ERROR");
    await expectError(await post([item("a", { mode: "echo" }, { schema_fingerprint: "xyz" })]), 422, "VALIDATION_ERROR");
  });

  test("the tools routes need a session", async () => {
    await expectError(await api.client().get("/tools/catalog"), 401, "NOT_AUTHENTICATED");
    await expectError(await api.client().get("/tools/diagnostics"), 401, "NOT_AUTHENTICATED");
    await expectError(await api.client().post("/tools/compute", { request_id: "r", items: [] }), 401, "NOT_AUTHENTICATED");
  });

  test("diagnostics are sanitised: workers, queue and failures by code, no inputs or users", async () => {
    const res = await api.as.alice.get("/tools/diagnostics");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.workers.tool_slots).toBe(1);
    expect(body.queue).toEqual({ waiting: 0, max: 1 });
    expect(body.failures_by_code.execution_timeout).toBe(1);
    expect(body.failures_by_code.worker_crashed).toBe(1);
    const text = JSON.stringify(body);
    expect(text).not.toContain("alice");
    expect(text).not.toContain("x".repeat(100));
  });
});
