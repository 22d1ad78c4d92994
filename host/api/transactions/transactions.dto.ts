import type { z } from "zod";
import { ValidationError } from "../../../core/errors/domain-error.ts";
import { isLimitMessage } from "../../../core/money/decimal-limits.ts";
import { shapeAt, unknownFieldMessage } from "../../../core/errors/input-hints.ts";
import type {
  BatchInput, BatchOutcome, CreateInput, Parsed, PromoteInput, RuleError, UpdateInput,
} from "../../../core/transactions/batch.types.ts";
import type { EventSuggestResult } from "../../../core/transactions/event-suggest.service.ts";
import type { PromoteCandidate } from "../../../core/transactions/promote-suggest.service.ts";
import type { TransactionQuery, TransactionRecord } from "../../../core/transactions/transaction-query.service.ts";
import type { ValidationCode } from "../../../core/transactions/validation-codes.ts";
import {
  type BatchRequest, type BatchResponse, CreateRow, DeleteId, type EventSuggestResponse, type ListQuery, NOT_UPDATABLE, PromoteRow,
  type PromoteSuggestResponse, SplitRow, type TxRead, UpdateRow,
} from "./transactions.schema.ts";

type Operation = "create" | "update" | "delete" | "split" | "promote";

/** Field → the reference's rule code when that field fails its schema; anything else is `parseError`. */
const FIELD_CODES: Record<string, ValidationCode> = {
  asset_id: "assetIdInvalid", asset_event_id: "assetEventIdInvalid", broker_id: "brokerRequired",
};

function ruleErrors(error: z.ZodError, operation: Operation, raw: unknown, schema: z.ZodType): RuleError[] {
  const given = (key: string) => typeof raw === "object" && raw !== null && (raw as Record<string, unknown>)[key] != null;
  return error.issues.flatMap((issue): RuleError[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => operation === "update" && NOT_UPDATABLE.includes(key)
        ? { code: "fieldNotUpdatable", field: key, msg: `${key} cannot be changed by an update` }
        : { code: "parseError", field: [...issue.path, key].join("."), msg: unknownFieldMessage(shapeAt(schema, issue.path), key) });
    }
    const field = issue.path.join(".") || undefined;
    const top = String(issue.path[0] ?? "");
    const code: ValidationCode = operation === "update" && top === "id" && !given("id") ? "idRequired" : FIELD_CODES[top] ?? "parseError";
    return [{ code, msg: field ? `${field}: ${issue.message}` : issue.message, ...(field ? { field } : {}) }];
  });
}

function parseRows<S extends z.ZodType, T>(raw: unknown[], schema: S, operation: Operation, map: (v: z.output<S>) => T): Parsed<T>[] {
  const outOfRange: ValidationError["issues"] = [];
  const parsed = raw.map((row, index): Parsed<T> => {
    const result = schema.safeParse(row);
    if (result.success) return { ok: true, value: map(result.data) };
    for (const issue of result.error.issues) {
      if (isLimitMessage(issue.message)) {
        outOfRange.push({ loc: ["body", `${operation}s`, index, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))], msg: issue.message, type: "out_of_range" });
      }
    }
    return { ok: false, errors: ruleErrors(result.error, operation, row, schema) };
  });
  // Amounts outside the supported range refuse the whole request with 422 (docs/errors.md "Supported range of amounts"), not a row issue.
  if (outOfRange.length) throw new ValidationError(outOfRange);
  return parsed;
}

const money = (m: { code: string; amount: string } | null | undefined) => (m ? { code: m.code, amount: m.amount } : null);

function toCreate(r: z.output<typeof CreateRow>): CreateInput {
  return {
    brokerId: r.broker_id ?? null, assetId: r.asset_id ?? null, type: r.type, date: r.date, quantity: r.quantity ?? "0",
    cash: money(r.cash), linkUuid: r.link_uuid ?? null, tags: r.tags ?? null, description: r.description ?? null,
    costBasisOverride: money(r.cost_basis_override), costBasisMode: r.cost_basis_mode ?? null, assetEventId: r.asset_event_id ?? null,
  };
}

/** Only the keys sent are set: absent keeps the stored value, null clears it. */
function toUpdate(r: z.output<typeof UpdateRow>): UpdateInput {
  const u: UpdateInput = { id: r.id };
  if (r.type !== undefined) u.type = r.type;
  if (r.date !== undefined) u.date = r.date;
  if (r.quantity !== undefined) u.quantity = r.quantity;
  if (r.cash !== undefined) u.cash = money(r.cash);
  if (r.tags !== undefined) u.tags = r.tags;
  if (r.description !== undefined) u.description = r.description;
  if (r.cost_basis_override !== undefined) u.costBasisOverride = money(r.cost_basis_override);
  if (r.cost_basis_mode !== undefined) u.costBasisMode = r.cost_basis_mode;
  if (r.asset_event_id !== undefined) u.assetEventId = r.asset_event_id;
  return u;
}

function toPromote(r: z.output<typeof PromoteRow>): PromoteInput {
  const ref = (id?: number, linkUuid?: string) => (id !== undefined ? { id } : { linkUuid: linkUuid! });
  const f = r.resolved_fields;
  const resolved: PromoteInput["resolved"] = {};
  if (f?.description !== undefined) resolved.description = f.description;
  if (f?.tags !== undefined) resolved.tags = f.tags;
  if (f?.date !== undefined) resolved.date = f.date;
  if (f?.cost_basis_override !== undefined) resolved.costBasisOverride = money(f.cost_basis_override);
  return { a: ref(r.id_a, r.link_uuid_a), b: ref(r.id_b, r.link_uuid_b), ...(f ? { resolved } : {}) };
}

/** The envelope's rows, each parsed on its own: a row that cannot be read becomes that row's issue. */
export function toBatchInput(body: z.output<typeof BatchRequest>): BatchInput {
  return {
    creates: parseRows(body.creates, CreateRow, "create", toCreate),
    updates: parseRows(body.updates, UpdateRow, "update", toUpdate),
    deletes: parseRows(body.deletes, DeleteId, "delete", (id) => id),
    splits: parseRows(body.splits, SplitRow, "split", (s) => ({ idA: s.id_a, idB: s.id_b })),
    promotes: parseRows(body.promotes, PromoteRow, "promote", toPromote),
  };
}

export function toBatchResponse(o: BatchOutcome): z.infer<typeof BatchResponse> {
  return {
    results: o.results.map((r) => ({ operation: r.operation, index: r.index, ids: r.ids, link_uuid: r.linkUuid ?? null, status: r.status })),
    success_count: o.successCount,
    errors: o.errors,
    committed: o.committed,
    issues: o.issues.map((i) => ({
      operation: i.operation, index: i.index, ref_id: i.refId ?? null, error: i.error, code: i.code,
      params: i.params ?? null, field: i.field ?? null,
    })),
    ...(o.wacResults.length ? {
      wac_results: o.wacResults.map((w) => ({
        operation: w.operation, index: w.index, transaction_id: w.transactionId, sender_broker_id: w.senderBrokerId,
        asset_id: w.assetId, date: w.date, quantity_held: w.quantityHeld, total_cost: w.totalCost, wac_per_unit: w.wacPerUnit,
      })),
    } : {}),
  };
}

export function toTxRead(t: TransactionRecord): z.infer<typeof TxRead> {
  return {
    id: t.id, broker_id: t.brokerId, asset_id: t.assetId, type: t.type, date: t.date, quantity: t.quantity, cash: t.cash,
    related_transaction_id: t.relatedTransactionId, partner_broker_id: t.partnerBrokerId, tags: t.tags,
    description: t.description, cost_basis_override: t.costBasisOverride, cost_basis_mode: t.costBasisMode,
    asset_event_id: t.assetEventId, created_at: t.createdAt, updated_at: t.updatedAt,
  };
}

export function toTransactionQuery(q: z.output<typeof ListQuery>): TransactionQuery {
  return {
    brokerId: q.broker_id, assetId: q.asset_id, types: q.types, dateStart: q.date_start, dateEnd: q.date_end, tags: q.tags,
    currency: q.currency, ids: q.ids, limit: q.limit, offset: q.offset, amountAbsMin: q.amount_abs_min,
    amountAbsMax: q.amount_abs_max, onlyUnlinked: q.only_unlinked, excludeIds: q.exclude_ids,
  };
}

export function toEventSuggestion(r: EventSuggestResult): z.infer<typeof EventSuggestResponse>[number] {
  return {
    asset_id: r.assetId, date: r.date, type: r.type, skipped_reason: r.skippedReason ?? null,
    candidates: r.candidates.map((c) => ({
      id: c.id, asset_id: c.assetId, date: c.date, type: c.type, value: c.value, currency: c.currency, is_auto: c.isAuto, distance_days: c.distanceDays,
    })),
  };
}

export function toPromoteSuggestions(found: Map<number, PromoteCandidate[]>): z.infer<typeof PromoteSuggestResponse> {
  return {
    results: Object.fromEntries([...found].map(([id, list]) => [String(id), list.map((c) => ({
      id: c.id, broker_id: c.brokerId, date: c.date, type: c.type, currency: c.currency, asset_id: c.assetId,
    }))])),
  };
}
