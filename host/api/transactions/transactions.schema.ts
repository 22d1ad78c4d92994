import { z } from "zod";
import { ASSET_EVENT_TYPES } from "../../../core/events/asset-event.entity.ts";
import { Decimal, toDecimalString } from "../../../core/money/decimal.ts";
import { COST_BASIS_MODES, TRANSACTION_TYPES } from "../../../core/transactions/transaction.entity.ts";
import { CurrencyField, DayField, limited } from "../../http/fields.ts";

/** Batch limits: rows beyond these refuse the whole request (413 LIMIT_EXCEEDED, docs/security.md "Bulk-read limits"), not a batch issue. */
export const MAX_ROWS = 10_000;
export const MAX_PAIR_OPS = 100;
/** Rows per `POST /transactions/events/suggest` and `/promote-suggest`. */
export const MAX_SUGGEST_ITEMS = 1000;

const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const TxType = z.enum(TRANSACTION_TYPES);

/** A decimal as a plain string or a JSON number, normalised to a decimal string (never a float on the way in). */
export const DecimalField = z.union([
  z.string().trim().regex(/^[-+]?\d+(\.\d+)?$/, "a decimal such as -12.50"),
  z.number().refine(Number.isFinite, "a finite number"),
]).transform((v) => toDecimalString(new Decimal(typeof v === "number" ? String(v) : v)));

const NonNegativeDecimal = DecimalField.refine((s) => !s.startsWith("-"), "must not be negative");

/** Written amounts and quantities, within the supported range (docs/errors.md). */
const AmountField = limited(DecimalField, "amount");
const QuantityField = limited(DecimalField, "quantity");

export const MoneyField = z.object({ code: CurrencyField, amount: AmountField }).strict();
const CostBasisField = z.object({ code: CurrencyField, amount: limited(NonNegativeDecimal, "price") }).strict()
  .describe("Cost per unit of the quantity received");

/** Tags as an array or a comma-separated string; trimmed, empty ones dropped, duplicates removed. */
const TagsField = z.union([z.array(z.string().max(100)).max(50), z.string().max(5000)]).transform((v) => {
  const list = [...new Set((Array.isArray(v) ? v : v.split(",")).map((t) => t.trim()).filter(Boolean))];
  return list.length ? list : null;
});

const CostBasisMode = z.enum(COST_BASIS_MODES);

export const CreateRow = z.object({
  broker_id: Id.nullable().optional(),
  asset_id: Id.nullable().optional(),
  type: TxType,
  date: DayField,
  quantity: QuantityField.optional(),
  cash: MoneyField.nullable().optional(),
  link_uuid: z.string().min(1).max(36).nullable().optional(),
  tags: TagsField.nullable().optional(),
  description: z.string().max(500).nullable().optional(),
  cost_basis_override: CostBasisField.nullable().optional(),
  cost_basis_mode: CostBasisMode.nullable().optional(),
  asset_event_id: Id.nullable().optional(),
}).strict();

/** Keys an update may not carry (broker, asset and pairing are fixed after creation). */
export const NOT_UPDATABLE = ["broker_id", "asset_id", "related_transaction_id", "link_uuid"];

export const UpdateRow = z.object({
  id: Id,
  type: TxType.optional(),
  date: DayField.optional(),
  quantity: QuantityField.optional(),
  cash: MoneyField.nullable().optional(),
  tags: TagsField.nullable().optional(),
  description: z.string().max(500).nullable().optional(),
  cost_basis_override: CostBasisField.nullable().optional(),
  cost_basis_mode: CostBasisMode.nullable().optional(),
  asset_event_id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional()
    .describe("0 or null unlinks the event"),
}).strict();

export const SplitRow = z.object({ id_a: Id, id_b: Id }).strict();

const LinkRef = z.string().min(1).max(36);
export const PromoteRow = z.object({
  id_a: Id.optional(),
  link_uuid_a: LinkRef.optional(),
  id_b: Id.optional(),
  link_uuid_b: LinkRef.optional(),
  resolved_fields: z.object({
    description: z.string().max(500).nullable().optional(),
    tags: TagsField.nullable().optional(),
    date: DayField.optional(),
    cost_basis_override: CostBasisField.nullable().optional(),
  }).strict().nullable().optional(),
}).strict()
  .refine((p) => (p.id_a === undefined) !== (p.link_uuid_a === undefined), { message: "give exactly one of id_a and link_uuid_a", path: ["id_a"] })
  .refine((p) => (p.id_b === undefined) !== (p.link_uuid_b === undefined), { message: "give exactly one of id_b and link_uuid_b", path: ["id_b"] })
  ;

export const DeleteId = Id;

/** Rows stay unparsed; the OpenAPI document still types them (`items`, see transaction-rows.schema.ts). */
const rows = (what: string, max: number, items: Record<string, unknown>) => z.array(z.unknown()).max(max).default([])
  .meta({ items, description: `${what}; each row is validated on its own and a bad row comes back as an issue` });
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** The batch envelope. Rows stay unparsed here so one bad row is an issue, not a 422. */
export const BatchRequest = z.object({
  creates: rows("Transactions to create", MAX_ROWS, ref("TxCreateRow")),
  updates: rows("Changes to stored transactions", MAX_ROWS, ref("TxUpdateRow")),
  deletes: rows("Ids of transactions to delete (a paired transaction takes its partner with it)", MAX_ROWS, { type: "integer", minimum: 1 }),
  splits: rows("Paired transactions to unpair", MAX_PAIR_OPS, ref("TxSplitRow")),
  promotes: rows("Independent rows to pair", MAX_PAIR_OPS, ref("TxPromoteRow")),
}).strict();

const Money = z.object({ code: z.string(), amount: z.string() });
const Operation = z.enum(["create", "update", "delete", "split", "promote"]);

export const BatchResponse = z.object({
  results: z.array(z.object({
    operation: Operation,
    index: z.number().int(),
    ids: z.array(z.number().int()),
    link_uuid: z.string().nullable(),
    status: z.enum(["success", "simulated", "failed", "not_attempted"]),
  })),
  success_count: z.number().int(),
  errors: z.array(z.string()),
  committed: z.boolean(),
  issues: z.array(z.object({
    operation: Operation,
    index: z.number().int(),
    ref_id: z.number().int().nullable(),
    error: z.string(),
    code: z.string().nullable(),
    params: z.record(z.string(), z.unknown()).nullable(),
    field: z.string().nullable(),
  })),
  wac_results: z.array(z.object({
    operation: Operation,
    index: z.number().int(),
    transaction_id: z.number().int(),
    sender_broker_id: z.number().int(),
    asset_id: z.number().int(),
    date: z.string(),
    quantity_held: z.string(),
    total_cost: Money.nullable(),
    wac_per_unit: Money.nullable(),
  })).optional(),
});

export const TxRead = z.object({
  id: z.number().int(),
  broker_id: z.number().int(),
  asset_id: z.number().int().nullable(),
  type: TxType,
  date: z.string(),
  quantity: z.string(),
  cash: Money.nullable(),
  related_transaction_id: z.number().int().nullable(),
  partner_broker_id: z.number().int().nullable(),
  tags: z.array(z.string()).nullable(),
  description: z.string().nullable(),
  cost_basis_override: Money.nullable(),
  cost_basis_mode: CostBasisMode.nullable(),
  asset_event_id: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A repeated query key arrives as one string or as an array; both read as a list. */
const many = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).max(MAX_ROWS)).optional();
const QueryId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const flag = z.enum(["true", "false", "1", "0"]).optional().transform((v) => v === "true" || v === "1");

export const ListQuery = z.object({
  broker_id: QueryId.optional(),
  asset_id: QueryId.optional(),
  types: many(TxType),
  date_start: DayField.optional(),
  date_end: DayField.optional(),
  tags: many(z.string().max(100)),
  currency: CurrencyField.optional(),
  ids: many(QueryId),
  limit: z.coerce.number().int().min(1).max(MAX_ROWS).default(1000),
  offset: z.coerce.number().int().min(0).default(0),
  amount_abs_min: NonNegativeDecimal.optional(),
  amount_abs_max: NonNegativeDecimal.optional(),
  only_unlinked: flag,
  exclude_ids: many(QueryId),
});

export const EventSuggestRequest = z.array(z.object({
  asset_id: Id,
  date: DayField,
  type: TxType,
  tolerance_days: z.number().int().min(0).max(7).default(0),
}).strict()).max(MAX_SUGGEST_ITEMS);

export const EventSuggestResponse = z.array(z.object({
  asset_id: z.number().int(),
  date: z.string(),
  type: TxType,
  candidates: z.array(z.object({
    id: z.number().int(), asset_id: z.number().int(), date: z.string(), type: z.enum(ASSET_EVENT_TYPES),
    value: z.string(), currency: z.string(), is_auto: z.boolean(), distance_days: z.number().int(),
  })),
  skipped_reason: z.enum(["type_not_event_compatible"]).nullable(),
}));

export const PromoteSuggestRequest = z.array(z.object({
  id: z.number().int().refine((n) => n !== 0, "0 is not an id; unsaved rows use negative ids"),
  type: TxType,
  broker_id: Id,
  date: DayField,
  currency: CurrencyField.nullable().optional(),
  asset_id: Id.nullable().optional(),
  amount: DecimalField.nullable().optional(),
  quantity: DecimalField.nullable().optional(),
}).strict()).max(MAX_SUGGEST_ITEMS);

export const PromoteSuggestQuery = z.object({ tolerance_days: z.coerce.number().int().min(1).max(30).default(7) });

export const PromoteSuggestResponse = z.object({
  results: z.record(z.string(), z.array(z.object({
    id: z.number().int(), broker_id: z.number().int(), date: z.string(), type: z.string(),
    currency: z.string().nullable(), asset_id: z.number().int().nullable(),
  }))),
});

export const TransferPromoteRequest = z.object({
  from_tx_id: Id,
  to_tx_id: Id,
  new_type: z.enum(["TRANSFER", "FX_CONVERSION", "CASH_TRANSFER"]),
  asset_id: Id.optional(),
  quantity: limited(DecimalField.refine((s) => !s.startsWith("-") && s !== "0", "must be positive"), "quantity").optional(),
  cost_basis_override: CostBasisField.optional(),
}).strict();

export const TransferPromoteResponse = z.object({
  rolled_back: z.boolean(),
  new_from_tx_id: z.number().int().nullable(),
  new_to_tx_id: z.number().int().nullable(),
  errors: z.array(z.string()),
});
