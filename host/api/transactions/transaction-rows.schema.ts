import { z } from "zod";
import type { FieldMode, SignRule } from "../../../core/transactions/transaction-rules.ts";
import { typeMetadata } from "../../../core/transactions/type-metadata.ts";
import { CreateRow, PromoteRow, SplitRow, UpdateRow } from "./transactions.schema.ts";

/**
 * Documentation of the batch rows (`POST /transactions/validate` and `/commit`): the batch
 * envelope keeps its rows unparsed so a bad row is an issue rather than a 422, so these schemas
 * describe the rows for clients only. The create row is a union discriminated by `type`, one
 * member per transaction type, built from the same rules table that checks the rows
 * (core/transactions/transaction-rules.ts): a field the type forbids is left out, a required one
 * is required, and the sign rule is in the field's description.
 */

const SIGN_TEXT: Record<SignRule, string> = {
  positive: "must be greater than 0",
  negative: "must be less than 0",
  zero: "must be 0",
  nonzero: "must not be 0",
  free: "any sign",
};

const pascal = (code: string) => code.toLowerCase().split("_").map((p) => p[0]!.toUpperCase() + p.slice(1)).join("");

function field<T extends z.ZodType>(schema: T, mode: FieldMode, text: string) {
  return mode === "required" ? schema.describe(text) : schema.optional().describe(text);
}

const base = CreateRow.shape;

const members = typeMetadata().map((t) => {
  const shape: Record<string, z.ZodType> = {
    type: z.enum([t.code]).describe(`${t.name}: ${t.description}`),
    broker_id: base.broker_id.unwrap().unwrap().describe("The broker the transaction is booked at (EDITOR or OWNER role needed)"),
    date: base.date.describe("Trade or booking date, YYYY-MM-DD"),
    link_uuid: base.link_uuid.describe(t.requiresLink
      ? "Pairs this row with the other leg of the same batch: both legs carry the same value (any string up to 36 characters)"
      : "Not used by this type"),
    tags: base.tags,
    description: base.description,
    asset_event_id: base.asset_event_id,
  };
  if (t.assetMode !== "forbidden") shape.asset_id = field(base.asset_id.unwrap().unwrap(), t.assetMode, "The asset traded or paying");
  if (t.quantityMode !== "forbidden") {
    shape.quantity = field(base.quantity.unwrap(), t.quantityMode, `Units of the asset, a decimal string; ${SIGN_TEXT[t.quantitySign]}`);
  }
  if (t.cashMode !== "forbidden") {
    shape.cash = field(base.cash.unwrap().unwrap(), t.cashMode, `Cash movement {code, amount}; the amount ${SIGN_TEXT[t.cashSign]} (negative leaves the account)`);
  }
  if (t.costBasisMode !== "forbidden" || t.costBasisPair?.some((r) => r !== "forbidden")) {
    shape.cost_basis_override = base.cost_basis_override.describe("Cost per unit of the quantity received; required in Manual mode when quantity is added");
    shape.cost_basis_mode = base.cost_basis_mode;
  }
  return z.object(shape).strict().meta({ id: `TxCreate${pascal(t.code)}`, description: `A ${t.code} row to create` });
});

/** A transaction to create, one layout per `type`. */
export const TxCreateRow = z.discriminatedUnion("type", members as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]])
  .meta({
    id: "TxCreateRow",
    description: "A transaction to create; the fields allowed depend on `type`",
    discriminator: {
      propertyName: "type",
      mapping: Object.fromEntries(typeMetadata().map((t) => [t.code, `#/components/schemas/TxCreate${pascal(t.code)}`])),
    },
  });

export const TxUpdateRow = UpdateRow.meta({ id: "TxUpdateRow", description: "Changes to one stored transaction; fields left out stay as they are" });
export const TxSplitRow = SplitRow.meta({ id: "TxSplitRow", description: "Unpair two linked transactions into two independent rows" });
export const TxPromoteRow = PromoteRow.meta({ id: "TxPromoteRow", description: "Pair two independent rows into one paired operation (TRANSFER, FX_CONVERSION or CASH_TRANSFER)" });

/** The schemas the batch envelope refers to by `$ref` (see `BatchRequest`). */
export const BATCH_ROW_SCHEMAS = [TxCreateRow, TxUpdateRow, TxSplitRow, TxPromoteRow];
