import { Elysia } from "elysia";
import { BusyError, UnavailableError } from "../../../core/errors/domain-error.ts";
import { isLimitMessage } from "../../../core/money/decimal-limits.ts";
import { PortfolioEngineAdapter } from "../portfolio/engine-adapter.ts";
import { ToolCatalog, policyWire, type ToolDescriptor } from "./tool-catalog.ts";
import { type ItemOutcome, QueueFullError, ToolExecutor, type ToolIssue } from "./tool-executor.ts";
import { mergeHoldings, parametersCurrency } from "./positions-from.ts";
import { onWorkerPoolShutdown, poolSize } from "../../workers/pool.ts";
import { runCalculation } from "../run-calculation.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { errorResponses, ErrorBody } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { toolPolicy } from "./tool-policy.ts";
import { ComputeRequest, ComputeResponse, ToolsCatalog, ToolsDiagnostics } from "./tools.schema.ts";

type Item = ComputeRequest["items"][number];
type Prepared = { item: Item; outcome: ItemOutcome } | { item: Item; tool: ToolDescriptor; input: unknown };

/** Zod issues as tool issues; a value outside the supported range of decimals is `out_of_range` (docs/tools.md). */
function zodIssues(issues: readonly { code: string; message: string; path: readonly PropertyKey[] }[], prefix: (string | number)[]): ToolIssue[] {
  return issues.map((i) => ({
    code: isLimitMessage(i.message) ? "out_of_range" : i.code,
    path: [...prefix, ...i.path.filter((p) => typeof p !== "symbol") as (string | number)[]],
  }));
}

/** `/tools` (docs/tools.md): catalog, atomic batch compute on the worker pool, diagnostics. */
export function toolsRoutes(deps: HttpDeps, session: SessionPlugin) {
  const catalog = deps.container.resolve(ToolCatalog);
  const policy = toolPolicy(deps.config.tools);
  const executor = new ToolExecutor(policy, async (task, signal) => (await runCalculation("toolCompute", task, signal)).result);
  // At shutdown, items not yet running end with service_unavailable instead of meeting a stopped pool.
  onWorkerPoolShutdown(() => executor.close());
  const engine = new PortfolioEngineAdapter(deps.container, deps.config.dataDir);

  /** Checks done before an item may queue, in the order of docs/tools.md. */
  async function prepare(userId: number, item: Item): Promise<Prepared> {
    const tool = catalog.get(item.tool_code);
    if (!tool) return { item, outcome: executor.rejected(item.tool_code, catalog.isUnavailable(item.tool_code) ? "tool_unavailable" : "unknown_tool") };
    const mismatch: ToolIssue[] = [];
    if (item.contract_version !== tool.contractVersion) mismatch.push({ code: "contract_version_mismatch", path: ["contract_version"] });
    if (item.implementation_version !== tool.implementationVersion) mismatch.push({ code: "implementation_version_mismatch", path: ["implementation_version"] });
    if (item.schema_fingerprint !== tool.fingerprint) mismatch.push({ code: "schema_fingerprint_mismatch", path: ["schema_fingerprint"] });
    if (mismatch.length) return { item, outcome: executor.rejected(tool.toolCode, "version_mismatch", mismatch) };
    if (Buffer.byteLength(JSON.stringify(item.parameters)) > policy.maxInputBytes) {
      return { item, outcome: executor.rejected(tool.toolCode, "input_limit_exceeded", [{ code: "too_big", path: ["parameters"] }]) };
    }
    let parameters = item.parameters;
    if (item.positions_from) {
      const currency = parametersCurrency(parameters);
      if (currency === null) {
        return { item, outcome: executor.rejected(tool.toolCode, "invalid_parameters", [{ code: "currency_required", path: ["parameters", "budget", "code"] }]) };
      }
      const held = await engine.holdings(userId, item.positions_from.broker_ids, currency);
      const merged = mergeHoldings(parameters, held);
      if (!merged.ok) return { item, outcome: executor.rejected(tool.toolCode, "invalid_parameters", merged.issues) };
      parameters = merged.parameters;
    }
    const parsed = tool.tool.inputSchema.safeParse(parameters);
    if (!parsed.success) return { item, outcome: executor.rejected(tool.toolCode, "invalid_parameters", zodIssues(parsed.error.issues, ["parameters"])) };
    return { item, tool, input: parsed.data };
  }

  return new Elysia({ prefix: "/tools", tags: ["tools"] })
    .use(session)
    .get("/catalog", () => catalog.wire(policy), {
      auth: true,
      response: { 200: ToolsCatalog, ...errorResponses },
      detail: { summary: "Calculation tools with input/output JSON Schemas, versions, fingerprints and the executor policy" },
    })
    .post("/compute", async ({ body, user }) => {
      const t0 = performance.now();
      if (executor.closed) throw new UnavailableError("service_unavailable", "The tool executor is shutting down", { retryable: true });
      // Access checks (positions_from) happen here, before anything queues: a refused broker fails the whole batch.
      const prepared: Prepared[] = [];
      for (const item of body.items) prepared.push(await prepare(user.id, item));
      const runnable = prepared.filter((p): p is Extract<Prepared, { tool: ToolDescriptor }> => "tool" in p);
      let tickets: Array<() => Promise<number>>;
      try {
        tickets = executor.admit(runnable.length);
      } catch (error) {
        if (error instanceof QueueFullError) {
          throw new BusyError("queue_full", "The tool queue is full; retry shortly", { retryable: true, max_queue: policy.maxQueue });
        }
        throw error;
      }
      const outcomes = new Map<Item, ItemOutcome>();
      await Promise.all(runnable.map(async (p, i) => outcomes.set(p.item, await executor.execute(p.tool, p.input, tickets[i]!))));
      const results = prepared.map((p) => {
        const outcome = "outcome" in p ? p.outcome : outcomes.get(p.item)!;
        return {
          correlation_id: p.item.correlation_id,
          tool_code: p.item.tool_code,
          contract_version: p.item.contract_version,
          implementation_version: p.item.implementation_version,
          schema_fingerprint: p.item.schema_fingerprint,
          ...outcome,
        };
      });
      const success = results.filter((r) => r.status === "success").length;
      return {
        request_id: body.request_id,
        results,
        metrics: { server_processing_ms: Math.round((performance.now() - t0) * 1000) / 1000 },
        success_count: success,
        failed_count: results.length - success,
      };
    }, {
      auth: true,
      body: ComputeRequest,
      response: { 200: ComputeResponse, 429: ErrorBody, 503: ErrorBody, ...errorResponses, 404: ErrorBody },
      detail: { summary: "Atomic batch of 1–4 tool items run on the worker pool; per-item success or error" },
    })
    .get("/diagnostics", () => ({
      policy: policyWire(policy),
      workers: { pool_size: poolSize(), tool_slots: policy.concurrency, running: executor.diagnostics().running },
      queue: { waiting: executor.diagnostics().queued, max: policy.maxQueue },
      completed: executor.diagnostics().completed,
      failures_by_code: executor.diagnostics().failures_by_code,
      recent_failures: executor.diagnostics().recent_failures,
      tools: { available: catalog.wire(policy).items.length, unavailable: catalog.wire(policy).unavailable.length },
    }), {
      auth: true,
      response: { 200: ToolsDiagnostics, ...errorResponses },
      detail: { summary: "Sanitised executor state: workers, queue, recent failures by code (no user data)" },
    });
}
