import { z } from "zod";
import { ASSET_EVENT_TYPES } from "../../../core/events/asset-event.entity.ts";
import { TRANSACTION_TYPES } from "../../../core/transactions/transaction.entity.ts";
import { eventTypeMetadata, typeMetadata } from "../../../core/transactions/type-metadata.ts";
import { validationCodeList } from "../../../core/transactions/validation-codes.ts";

const FieldMode = z.enum(["required", "optional", "forbidden"]);
const Sign = z.enum(["positive", "negative", "zero", "nonzero", "free"]);
const CostBasisRule = z.enum(["forbidden", "optional", "required_qty_pos"]);
const PairConstraint = z.object({
  field: z.enum(["asset_id", "broker_id", "cash_amount", "cash_currency", "quantity"]),
  relation: z.enum(["equal", "opposite", "opposite_sign", "different"]),
});

const TxType = z.enum(TRANSACTION_TYPES);
const EventType = z.enum(ASSET_EVENT_TYPES);

/** One transaction type and its rules: the web form reads its fields and signs from these (docs/transactions.md). */
export const TxTypeRule = z.object({
  code: TxType.describe("The transaction type"),
  name: z.string(), description: z.string(), icon_slug: z.string(), doc_slug: z.string().nullable(),
  asset_mode: FieldMode, cash_mode: FieldMode, quantity_mode: FieldMode, requires_link: z.boolean(),
  quantity_sign: Sign, cash_sign: Sign, event_compatible: z.boolean(), compatible_event_types: z.array(EventType),
  pair_form_layout: z.enum(["fx", "transfer_asset", "transfer_cash"]).nullable(),
  split_into: z.object({ from_type: TxType, to_type: TxType }).nullable(),
  promote_from: z.array(z.object({ type_a: TxType, type_b: TxType, field_constraints: z.array(PairConstraint) })).nullable(),
  pair_field_constraints: z.array(PairConstraint).nullable(),
  swap_group: z.array(TxType),
  cost_basis_mode: CostBasisRule.describe("Cost-basis rule of a single row: required_qty_pos asks for it when units are added"),
  cost_basis_pair: z.array(CostBasisRule).nullable(),
});

export const TypesResponse = z.object({
  transaction_types: z.array(TxTypeRule),
  event_types: z.array(z.object({ code: EventType, name: z.string(), emoji: z.string(), compatible_tx_types: z.array(TxType) })),
  validation_codes: z.array(z.object({ code: z.string(), description: z.string(), severity: z.enum(["error", "warning"]) })),
});

/** `GET /transactions/types`, built once from the core rules table. */
export function typesResponse(): z.infer<typeof TypesResponse> {
  return {
    transaction_types: typeMetadata().map((t) => ({
      code: t.code, name: t.name, description: t.description, icon_slug: t.iconSlug, doc_slug: t.docSlug,
      asset_mode: t.assetMode, cash_mode: t.cashMode, quantity_mode: t.quantityMode, requires_link: t.requiresLink,
      quantity_sign: t.quantitySign, cash_sign: t.cashSign, event_compatible: t.eventCompatible,
      compatible_event_types: t.compatibleEventTypes, pair_form_layout: t.pairLayout,
      split_into: t.splitInto ? { from_type: t.splitInto.from, to_type: t.splitInto.to } : null,
      promote_from: t.promoteFrom?.map((p) => ({ type_a: p.typeA, type_b: p.typeB, field_constraints: [...p.fieldConstraints] })) ?? null,
      pair_field_constraints: t.pairConstraints ? [...t.pairConstraints] : null,
      swap_group: t.swapGroup, cost_basis_mode: t.costBasisMode, cost_basis_pair: t.costBasisPair,
    })),
    event_types: eventTypeMetadata().map((e) => ({ code: e.code, name: e.name, emoji: e.emoji, compatible_tx_types: e.compatibleTxTypes })),
    validation_codes: validationCodeList(),
  };
}
