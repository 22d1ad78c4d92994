import { z } from "zod";

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const TOKEN = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

export const ComputeItem = z.object({
  correlation_id: z.string().regex(TOKEN).max(64),
  tool_code: z.string().min(1).max(64),
  contract_version: z.string().regex(SEMVER).max(64),
  implementation_version: z.string().min(1).max(64),
  schema_fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  parameters: z.record(z.string(), z.unknown()),
  /** Fill the tool's `positions` from the caller's holdings at these brokers (access rows apply). */
  positions_from: z.object({ broker_ids: z.array(z.number().int().positive()).min(1).max(100) }).strict().optional(),
}).strict();

export const ComputeRequest = z.object({
  request_id: z.string().regex(TOKEN).max(64),
  items: z.array(ComputeItem).min(1).max(4),
}).strict().superRefine((body, ctx) => {
  const seen = new Set<string>();
  body.items.forEach((item, i) => {
    if (seen.has(item.correlation_id)) {
      ctx.addIssue({ code: "custom", path: ["items", i, "correlation_id"], message: "correlation_id must be unique within the batch" });
    }
    seen.add(item.correlation_id);
  });
});
export type ComputeRequest = z.infer<typeof ComputeRequest>;

const Metrics = z.object({ queue_ms: z.number(), execution_ms: z.number() });
const Issue = z.object({ code: z.string(), path: z.array(z.union([z.string(), z.number()])) });
const Common = {
  correlation_id: z.string(),
  tool_code: z.string(),
  contract_version: z.string(),
  implementation_version: z.string(),
  schema_fingerprint: z.string(),
  execution_id: z.string(),
  metrics: Metrics,
};

export const ComputeResponse = z.object({
  request_id: z.string(),
  results: z.array(z.discriminatedUnion("status", [
    z.object({ ...Common, status: z.enum(["success"]), result: z.unknown() }),
    z.object({
      ...Common,
      status: z.enum(["error"]),
      error: z.object({ code: z.string(), retryable: z.boolean(), issues: z.array(Issue), issue_count: z.number().int() }),
    }),
  ])),
  metrics: z.object({ server_processing_ms: z.number() }),
  success_count: z.number().int(),
  failed_count: z.number().int(),
});

const Policy = z.object({
  workers: z.number().int(),
  max_batch_items: z.number().int(),
  max_queue: z.number().int(),
  queue_timeout_ms: z.number().int(),
  execution_timeout_ms: z.number().int(),
  max_input_bytes: z.number().int(),
  max_output_bytes: z.number().int(),
});

export const ToolsCatalog = z.object({
  catalog_version: z.string(),
  policy: Policy,
  items: z.array(z.object({
    tool_code: z.string(),
    contract_version: z.string(),
    implementation_version: z.string(),
    schema_fingerprint: z.string(),
    name: z.string(),
    description: z.string(),
    name_i18n_key: z.string(),
    description_i18n_key: z.string(),
    category: z.string(),
    icon_key: z.string(),
    ui: z.object({ kind: z.enum(["custom"]), component_key: z.string(), contract_version: z.string() }),
    documentation: z.object({ path: z.string(), version: z.string() }),
    input_schema: z.unknown(),
    output_schema: z.unknown(),
    operations: z.array(z.object({
      operation: z.string(),
      pure: z.boolean(),
      deterministic: z.boolean(),
      max_input_bytes: z.number().int(),
      max_output_bytes: z.number().int(),
      execution_timeout_ms: z.number().int(),
    })),
  })),
  unavailable: z.array(z.object({ tool_code: z.string().optional(), reason: z.enum(["unavailable"]) })),
});

export const ToolsDiagnostics = z.object({
  policy: Policy,
  workers: z.object({ pool_size: z.number().int(), tool_slots: z.number().int(), running: z.number().int() }),
  queue: z.object({ waiting: z.number().int(), max: z.number().int() }),
  completed: z.number().int(),
  failures_by_code: z.record(z.string(), z.number().int()),
  recent_failures: z.array(z.object({ at: z.string(), code: z.string(), tool_code: z.string() })),
  tools: z.object({ available: z.number().int(), unavailable: z.number().int() }),
});
