import { createHash } from "node:crypto";
import { type CalculationTool, z } from "../../../sdk/index.ts";
import type { PluginRegistry } from "../../plugins/registry.ts";
import type { ToolPolicy } from "./tool-policy.ts";

/** Version of the catalog's own shape (docs/tools.md "Catalog"). */
export const TOOLS_CATALOG_VERSION = "2";

/** JSON with keys sorted at every level and no whitespace (the fingerprint's canonical JSON). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 hex of the canonical JSON of `{input_schema, output_schema}`. */
export function schemaFingerprint(inputSchema: unknown, outputSchema: unknown): string {
  return createHash("sha256").update(canonicalJson({ input_schema: inputSchema, output_schema: outputSchema })).digest("hex");
}

export interface ToolDescriptor {
  readonly category: string;
  readonly config: unknown;
  readonly contractVersion: string;
  readonly description: string;
  /** The external plugin's entry file, null for a built-in. */
  readonly entry: string | null;
  readonly fingerprint: string;
  readonly iconKey: string;
  readonly implementationVersion: string;
  readonly inputJsonSchema: unknown;
  readonly name: string;
  readonly operation: string;
  readonly outputJsonSchema: unknown;
  readonly tool: CalculationTool;
  readonly toolCode: string;
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): unknown {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" });
}

/**
 * The calculation tools of the registry, described once at boot: JSON Schemas and fingerprints are
 * computed here, so every request compares against the same values. Tools whose plugin did not load
 * (failed or disabled) are listed as unavailable.
 */
export class ToolCatalog {
  readonly #tools = new Map<string, ToolDescriptor>();
  readonly #unavailable: string[];

  constructor(registry: PluginRegistry, configFor: (id: string) => unknown) {
    for (const loaded of registry.list("calculation-tool")) {
      const tool = loaded.instance as CalculationTool;
      const input = jsonSchema(tool.inputSchema as z.ZodType, "input");
      const output = jsonSchema(tool.outputSchema as z.ZodType, "output");
      this.#tools.set(loaded.manifest.id, {
        category: tool.catalog.category,
        config: configFor(loaded.manifest.id),
        contractVersion: tool.catalog.contractVersion,
        description: loaded.manifest.description,
        entry: loaded.source === "builtin" ? null : loaded.path,
        fingerprint: schemaFingerprint(input, output),
        iconKey: tool.catalog.iconKey ?? "calculator",
        implementationVersion: loaded.manifest.version,
        inputJsonSchema: input,
        name: loaded.manifest.name,
        operation: tool.catalog.operation ?? "compute",
        outputJsonSchema: output,
        tool,
        toolCode: loaded.manifest.id,
      });
    }
    this.#unavailable = registry.diagnostics()
      .filter((d) => d.kind === "calculation-tool" && d.status !== "loaded" && d.id !== null && !this.#tools.has(d.id))
      .map((d) => d.id!)
      .sort();
  }

  get(toolCode: string): ToolDescriptor | undefined {
    return this.#tools.get(toolCode);
  }

  isUnavailable(toolCode: string): boolean {
    return this.#unavailable.includes(toolCode);
  }

  /** The wire catalog (docs/tools.md "Catalog"). */
  wire(policy: ToolPolicy) {
    return {
      catalog_version: TOOLS_CATALOG_VERSION,
      policy: policyWire(policy),
      items: [...this.#tools.values()].map((t) => ({
        tool_code: t.toolCode,
        contract_version: t.contractVersion,
        implementation_version: t.implementationVersion,
        schema_fingerprint: t.fingerprint,
        name: t.name,
        description: t.description,
        name_i18n_key: `tools.${t.toolCode}.name`,
        description_i18n_key: `tools.${t.toolCode}.description`,
        category: t.category,
        icon_key: t.iconKey,
        ui: { kind: "custom" as const, component_key: t.toolCode, contract_version: t.contractVersion },
        documentation: { path: `docs/tools.md#${t.toolCode.replaceAll("_", "-")}`, version: t.contractVersion },
        input_schema: t.inputJsonSchema,
        output_schema: t.outputJsonSchema,
        operations: [{
          operation: t.operation,
          pure: true,
          deterministic: true,
          max_input_bytes: policy.maxInputBytes,
          max_output_bytes: policy.maxOutputBytes,
          execution_timeout_ms: policy.executionTimeoutMs,
        }],
      })),
      unavailable: this.#unavailable.map((toolCode) => ({ tool_code: toolCode, reason: "unavailable" as const })),
    };
  }
}

export function policyWire(policy: ToolPolicy) {
  return {
    workers: policy.concurrency,
    max_batch_items: policy.maxBatchItems,
    max_queue: policy.maxQueue,
    queue_timeout_ms: policy.queueTimeoutMs,
    execution_timeout_ms: policy.executionTimeoutMs,
    max_input_bytes: policy.maxInputBytes,
    max_output_bytes: policy.maxOutputBytes,
  };
}
