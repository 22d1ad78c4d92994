import { z } from "zod";
import { PROVIDER_IDENTIFIER_TYPES } from "../../../core/assets/provider-assignment.entity.ts";
import {
  acceptedIdentifierTypes, type AssignmentView, type AssignOutcome, type ProviderEntry, type RemoveOutcome,
} from "../../../core/assets/provider-assignment.service.ts";
import type { ProviderSearchOutcome } from "../../../core/assets/provider-search.service.ts";
import { AssetId, MAX_ITEMS } from "./assets.schema.ts";

const KINDS = { "quote-provider": "online_scraper", "scheduled-investment-provider": "parametric_generation" } as const;

/** One provider parameter as a form field, derived from the provider's zod `paramsSchema`. */
export const ParamField = z.object({
  key: z.string(),
  type: z.enum(["string", "number", "select", "json"]),
  required: z.boolean(),
  label: z.string().nullable(),
  description: z.string(),
  options: z.array(z.string()).nullable(),
  default: z.unknown().optional(),
});
type ParamField = z.infer<typeof ParamField>;

/** A provider's info, as far as a plugin's manifest and instance tell it. */
export const ProviderInfo = z.object({
  code: z.string(),
  name: z.string(),
  description: z.string(),
  icon_url: z.string().nullable(),
  kind: z.enum(["online_scraper", "parametric_generation"]),
  supports_search: z.boolean(),
  accepted_identifier_types: z.array(z.enum(PROVIDER_IDENTIFIER_TYPES)),
  params_schema: z.array(ParamField),
  provider_help_url: z.string().nullable(),
});

interface JsonProperty {
  default?: unknown;
  description?: string;
  enum?: unknown[];
  title?: string;
  type?: string | string[];
}

function fieldType(p: JsonProperty): ParamField["type"] {
  if (Array.isArray(p.enum)) return "select";
  if (p.type === "string") return "string";
  if (p.type === "number" || p.type === "integer") return "number";
  return "json";
}

/** The top-level properties of the params schema's JSON Schema (input side); none when it cannot be converted. */
export function paramFields(schema: z.ZodType | undefined): ParamField[] {
  if (!schema) return [];
  let json: { properties?: Record<string, JsonProperty>; required?: string[] };
  try {
    json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as typeof json;
  } catch {
    return [];
  }
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([key, p]) => ({
    key,
    type: fieldType(p),
    required: required.has(key),
    label: p.title ?? null,
    description: p.description ?? "",
    options: Array.isArray(p.enum) ? p.enum.map(String) : null,
    ...(p.default !== undefined ? { default: p.default } : {}),
  }));
}

export function toProviderInfo(e: ProviderEntry): z.infer<typeof ProviderInfo> {
  return {
    code: e.code, name: e.name, description: e.description, icon_url: null, kind: KINDS[e.kind],
    supports_search: e.kind === "quote-provider", accepted_identifier_types: acceptedIdentifierTypes(e),
    params_schema: paramFields(e.instance.paramsSchema), provider_help_url: null,
  };
}

/** Comma-separated codes, or the key repeated. */
export const CodeList = z.preprocess(
  (v) => (v === undefined ? v : (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(",")).map((s) => s.trim()).filter(Boolean)),
  z.array(z.string().max(64)).max(50).optional(),
);

export const ProviderListQuery = z.object({ providers: CodeList });

export const AssignRequest = z.array(z.object({
  asset_id: AssetId,
  provider_code: z.string().trim().min(1).max(64),
  identifier: z.string().trim().max(2000).describe("Ticker, ISIN or URL; may be empty with AUTO_GENERATED (a UUID is generated)"),
  identifier_type: z.enum(PROVIDER_IDENTIFIER_TYPES),
  provider_params: z.record(z.string(), z.unknown()).nullable().optional(),
}).strict().refine((i) => i.identifier !== "" || i.identifier_type === "AUTO_GENERATED", {
  message: "identifier is required unless identifier_type is AUTO_GENERATED", path: ["identifier"],
})).min(1).max(MAX_ITEMS);

const Removed = {
  prices_deleted: z.number().int().optional(),
  events_deleted: z.number().int().optional(),
  transactions_unlinked: z.number().int().optional(),
};

const FieldIssue = z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() });

export const AssignResponse = z.object({
  results: z.array(z.object({
    asset_id: z.number().int(), success: z.boolean(), message: z.string(), assignment_id: z.number().int().optional(),
    code: z.string().optional(), fields_detail: z.array(FieldIssue).optional(), ...Removed,
  })),
  success_count: z.number().int(),
  errors: z.array(z.string()),
});

const removedFields = (r: { events: number; prices: number; transactionsUnlinked: number } | null) =>
  (r ? { prices_deleted: r.prices, events_deleted: r.events, transactions_unlinked: r.transactionsUnlinked } : {});

export function toAssignResult(o: AssignOutcome): z.infer<typeof AssignResponse>["results"][number] {
  if (o.success) return { asset_id: o.assetId, success: true, message: o.message, assignment_id: o.assignmentId, ...removedFields(o.removed) };
  return { asset_id: o.assetId, success: false, message: o.message, code: o.code, ...(o.issues ? { fields_detail: o.issues } : {}) };
}

export const RemoveResponse = z.object({
  results: z.array(z.object({ asset_id: z.number().int(), success: z.boolean(), message: z.string(), code: z.string().optional(), ...Removed })),
  success_count: z.number().int(),
  errors: z.array(z.string()),
});

export function toRemoveResult(o: RemoveOutcome): z.infer<typeof RemoveResponse>["results"][number] {
  if (o.success) return { asset_id: o.assetId, success: true, message: o.message, ...removedFields(o.removed) };
  return { asset_id: o.assetId, success: false, message: o.message, code: o.code };
}

export const AssignmentRead = z.object({
  id: z.number().int(), asset_id: z.number().int(), provider_code: z.string(), identifier: z.string(),
  identifier_type: z.enum(PROVIDER_IDENTIFIER_TYPES), provider_params: z.record(z.string(), z.unknown()).nullable(),
  last_fetch_at: z.string().nullable(), provider_url: z.string().nullable(), created_at: z.string(), updated_at: z.string(),
});

export function toAssignmentRead({ assignment: a, providerUrl }: AssignmentView): z.infer<typeof AssignmentRead> {
  return {
    id: a.id, asset_id: a.assetId, provider_code: a.providerCode, identifier: a.identifier, identifier_type: a.identifierType,
    provider_params: a.providerParams === null ? null : JSON.parse(a.providerParams), provider_url: providerUrl,
    last_fetch_at: a.lastFetchAt ? new Date(a.lastFetchAt).toISOString() : null,
    created_at: new Date(a.createdAt).toISOString(), updated_at: new Date(a.updatedAt).toISOString(),
  };
}

export const SearchQuery = z.object({ q: z.string().trim().min(1).max(200), providers: CodeList });

const SearchHitBody = z.object({
  provider_code: z.string(), identifier: z.string(), name: z.string(), currency: z.string().nullable(), identifier_type: z.string().nullable(),
});

/** One provider's answer: `success` with its hits counted, or the error that replaced them. */
const ProviderOutcomeBody = z.object({
  provider_code: z.string(), success: z.boolean(), result_count: z.number().int(), cached: z.boolean(),
  error: z.string().nullable(), reason: z.string().nullable(),
});

export const SearchResponse = z.object({
  query: z.string(), results: z.array(SearchHitBody), providers: z.array(ProviderOutcomeBody), total_results: z.number().int(),
});

export function toHits(o: ProviderSearchOutcome): z.infer<typeof SearchHitBody>[] {
  if (!o.ok) return [];
  return o.hits.map((h) => ({ provider_code: h.providerCode, identifier: h.identifier, name: h.name, currency: h.currency, identifier_type: h.identifierType }));
}

export function toProviderOutcome(o: ProviderSearchOutcome): z.infer<typeof ProviderOutcomeBody> {
  return o.ok
    ? { provider_code: o.providerCode, success: true, result_count: o.hits.length, cached: o.cached, error: null, reason: null }
    : { provider_code: o.providerCode, success: false, result_count: 0, cached: false, error: o.error, reason: o.reason };
}

export function toSearchResponse(query: string, outcomes: ProviderSearchOutcome[]): z.infer<typeof SearchResponse> {
  const results = outcomes.flatMap(toHits);
  return { query, results, providers: outcomes.map(toProviderOutcome), total_results: results.length };
}

/** The data of each server-sent event; the event name is in the `event:` line. */
export const SearchStreamEvent = z.union([
  z.object({ event: z.enum(["provider_results"]), data: z.object({ provider_code: z.string(), cached: z.boolean(), results: z.array(SearchHitBody) }) }),
  z.object({ event: z.enum(["provider_error"]), data: z.object({ provider_code: z.string(), error: z.string(), reason: z.string() }) }),
  z.object({ event: z.enum(["done"]), data: z.object({ query: z.string(), total_results: z.number().int(), provider_count: z.number().int(), error_count: z.number().int() }) }),
]).describe("Sent as text/event-stream: one `provider_results` or `provider_error` per provider as it answers, then `done`");
