import type { TransactionType } from "../../../core/transactions/transaction.entity.ts";

/**
 * The per-type rules (docs/transactions.md "The twelve types") restated by hand, independently of
 * core/transactions/transaction-rules.ts: for every type a valid row and each invalid variant with
 * the code it must fail with. Used by the unit test of the row checks and by the API test that
 * sends the same rows through /validate.
 */
export type EventKind = "DIVIDEND" | "INTEREST" | "SPLIT" | "PRICE_ADJUSTMENT" | "MATURITY_SETTLEMENT" | "missing" | "other-asset";

export interface CaseRow {
  asset?: boolean | "unknown";
  cash?: string | null;
  costBasis?: string;
  event?: EventKind;
  link?: boolean;
  mode?: "auto" | "auto-detail" | "manual";
  quantity?: string;
}

export interface TypeCase {
  invalid: [name: string, change: CaseRow, code: string][];
  valid: CaseRow[];
}

const event = "DIVIDEND" as const;

export const TYPE_CASES: Record<TransactionType, TypeCase> = {
  BUY: {
    valid: [{ asset: true, quantity: "10", cash: "-100" }],
    invalid: [
      ["without asset", { asset: false }, "assetRequired"], ["with an unknown asset", { asset: "unknown" }, "assetIdInvalid"],
      ["without cash", { cash: null }, "cashRequired"], ["with zero cash", { cash: "0" }, "cashRequired"],
      ["with positive cash", { cash: "100" }, "cashSignNegative"], ["with negative quantity", { quantity: "-10" }, "qtyPositive"],
      ["with zero quantity", { quantity: "0" }, "qtyPositive"], ["with an event", { event }, "eventTypeIncompatible"],
      ["with a cost basis", { costBasis: "1" }, "costBasisModeIncompatible"],
    ],
  },
  SELL: {
    valid: [{ asset: true, quantity: "-10", cash: "100" }],
    invalid: [
      ["without asset", { asset: false }, "assetRequired"], ["without cash", { cash: null }, "cashRequired"],
      ["with negative cash", { cash: "-100" }, "cashSignPositive"], ["with positive quantity", { quantity: "10" }, "qtyNegative"],
      ["with zero quantity", { quantity: "0" }, "qtyNegative"], ["with an event", { event }, "eventTypeIncompatible"],
      ["with cost basis mode auto", { mode: "auto" }, "costBasisModeIncompatible"],
    ],
  },
  DIVIDEND: {
    valid: [{ asset: true, quantity: "0", cash: "5" }, { asset: true, quantity: "0", cash: "5", event: "DIVIDEND" }],
    invalid: [
      ["without asset", { asset: false }, "assetRequired"], ["with quantity", { quantity: "1" }, "qtyZero"],
      ["with negative cash", { cash: "-5" }, "cashSignPositive"], ["without cash", { cash: null }, "cashRequired"],
      ["linked to an INTEREST event", { event: "INTEREST" }, "eventTypeIncompatible"],
      ["linked to another asset's event", { event: "other-asset" }, "assetEventIdInvalid"],
      ["linked to a missing event", { event: "missing" }, "assetEventIdInvalid"],
      ["with a cost basis", { costBasis: "1" }, "costBasisModeIncompatible"],
    ],
  },
  INTEREST: {
    valid: [
      { quantity: "0", cash: "5" }, { asset: true, quantity: "0", cash: "5", event: "INTEREST" },
      { asset: true, quantity: "0", cash: "5", event: "MATURITY_SETTLEMENT" },
    ],
    invalid: [
      ["linked to an event without asset", { event: "INTEREST" }, "eventRequiresAsset"],
      ["linked to a DIVIDEND event", { asset: true, event: "DIVIDEND" }, "eventTypeIncompatible"],
      ["with quantity", { quantity: "1" }, "qtyZero"], ["with negative cash", { cash: "-5" }, "cashSignPositive"],
      ["with an unknown asset", { asset: "unknown" }, "assetIdInvalid"], ["without cash", { cash: null }, "cashRequired"],
    ],
  },
  DEPOSIT: {
    valid: [{ quantity: "0", cash: "100" }],
    invalid: [
      ["with an asset", { asset: true }, "assetForbidden"], ["with negative cash", { cash: "-100" }, "cashSignPositive"],
      ["without cash", { cash: null }, "cashRequired"], ["with quantity", { quantity: "1" }, "qtyZero"],
    ],
  },
  WITHDRAWAL: {
    valid: [{ quantity: "0", cash: "-100" }],
    invalid: [
      ["with an asset", { asset: true }, "assetForbidden"], ["with positive cash", { cash: "100" }, "cashSignNegative"],
      ["without cash", { cash: null }, "cashRequired"], ["with quantity", { quantity: "-1" }, "qtyZero"],
    ],
  },
  FEE: {
    valid: [{ quantity: "0", cash: "-1" }, { asset: true, quantity: "0", cash: "-1" }],
    invalid: [
      ["with positive cash", { cash: "1" }, "cashSignNegative"], ["with quantity", { quantity: "1" }, "qtyZero"],
      ["without cash", { cash: null }, "cashRequired"], ["with an event", { asset: true, event }, "eventTypeIncompatible"],
    ],
  },
  TAX: {
    valid: [{ quantity: "0", cash: "-1" }, { asset: true, quantity: "0", cash: "-1" }],
    invalid: [
      ["with positive cash", { cash: "1" }, "cashSignNegative"], ["with quantity", { quantity: "1" }, "qtyZero"],
      ["without cash", { cash: null }, "cashRequired"],
    ],
  },
  ADJUSTMENT: {
    valid: [
      { asset: true, quantity: "5", costBasis: "10" }, { asset: true, quantity: "-5" }, { asset: true, quantity: "5", event: "SPLIT" },
      { asset: true, quantity: "5", costBasis: "10", event: "PRICE_ADJUSTMENT" },
    ],
    invalid: [
      ["without asset", { asset: false }, "assetRequired"], ["with zero quantity", { quantity: "0", costBasis: undefined }, "qtyNonzero"],
      ["with cash", { cash: "-1" }, "cashForbidden"], ["linked to a DIVIDEND event", { event: "DIVIDEND" }, "eventTypeIncompatible"],
      ["removing quantity with a cost basis", { quantity: "-5" }, "costBasisModeIncompatible"],
    ],
  },
  TRANSFER: {
    valid: [{ asset: true, quantity: "-5", link: true }, { asset: true, quantity: "5", costBasis: "10", link: true }],
    invalid: [
      ["without link_uuid", { link: false }, "linkUuidRequired"], ["without asset", { asset: false }, "assetRequired"],
      ["with zero quantity", { quantity: "0" }, "qtyNonzero"], ["with cash", { cash: "-1" }, "cashForbidden"],
      ["linked to a SPLIT event", { event: "SPLIT" }, "eventTypeIncompatible"],
      ["sending with a cost basis", { costBasis: "10" }, "costBasisModeIncompatible"],
    ],
  },
  FX_CONVERSION: {
    valid: [{ quantity: "0", cash: "-100", link: true }],
    invalid: [
      ["without cash", { cash: null }, "fxConversionCashRequired"], ["with quantity", { quantity: "1" }, "fxConversionQtyZero"],
      ["with an asset", { asset: true }, "assetForbidden"], ["without link_uuid", { link: false }, "linkUuidRequired"],
    ],
  },
  CASH_TRANSFER: {
    valid: [{ quantity: "0", cash: "-100", link: true }],
    invalid: [
      ["without cash", { cash: null }, "cashRequired"], ["with quantity", { quantity: "1" }, "qtyZero"],
      ["with an asset", { asset: true }, "assetForbidden"], ["without link_uuid", { link: false }, "linkUuidRequired"],
    ],
  },
};

/** The row a variant describes: the type's first valid row with the change applied. */
export function variant(type: TransactionType, change: CaseRow): CaseRow {
  return { ...TYPE_CASES[type].valid[0]!, ...change };
}
