import { describe, expect, test } from "bun:test";
import type { AssetEventType } from "../../../core/events/asset-event.entity.ts";
import { checkRow, missesCostBasis, packRuleErrors, type RowFacts } from "../../../core/transactions/row-validation.calc.ts";
import { TRANSACTION_TYPES, type TransactionType } from "../../../core/transactions/transaction.entity.ts";
import { type CaseRow, TYPE_CASES, variant } from "./type-cases.ts";

const ASSET = 7;

function facts(type: TransactionType, c: CaseRow): RowFacts {
  const assetId = c.asset === true ? ASSET : c.asset === "unknown" ? 999 : null;
  const event = c.event === undefined || c.event === "missing" ? null
    : c.event === "other-asset" ? { assetId: ASSET + 1, type: "DIVIDEND" as AssetEventType }
    : { assetId: ASSET, type: c.event };
  return {
    row: {
      type, assetId, quantity: c.quantity ?? "0", amount: c.cash ?? null,
      assetEventId: c.event === undefined ? null : 1,
      costBasisOverride: c.costBasis ?? null, costBasisMode: c.mode ?? null,
    },
    assetKnown: assetId === ASSET,
    event,
    linkUuid: c.link ? "pair-1" : null,
    requireLink: true,
  };
}

const codes = (type: TransactionType, c: CaseRow): string[] => checkRow(facts(type, c)).map((e) => e.code);

describe("every type's field rules", () => {
  test("the table covers all twelve types", () => {
    expect(Object.keys(TYPE_CASES).sort()).toEqual([...TRANSACTION_TYPES].sort());
  });

  for (const type of TRANSACTION_TYPES) {
    describe(type, () => {
      TYPE_CASES[type].valid.forEach((row, i) => {
        test(`valid row ${i + 1} passes: ${JSON.stringify(row)}`, () => {
          expect(codes(type, row)).toEqual([]);
        });
      });
      for (const [name, change, code] of TYPE_CASES[type].invalid) {
        test(`${name} fails with ${code}`, () => {
          expect(codes(type, variant(type, change))).toEqual([code]);
        });
      }
    });
  }
});

describe("packing several rule errors of one row", () => {
  test("one error is reported as itself", () => {
    const issue = packRuleErrors([{ code: "qtyZero", msg: "m", field: "quantity" }], "create", 3);
    expect(issue).toEqual({ operation: "create", index: 3, code: "qtyZero", error: "m", field: "quantity" });
  });

  test("several errors become one multipleBusinessRuleErrors issue with params.errors", () => {
    const errors = checkRow(facts("BUY", { asset: false, quantity: "-1", cash: "5" }));
    const issue = packRuleErrors(errors, "update", 0, 42)!;
    expect(issue.code).toBe("multipleBusinessRuleErrors");
    expect(issue.refId).toBe(42);
    expect((issue.params!.errors as { code: string }[]).map((e) => e.code)).toEqual(["assetRequired", "cashSignNegative", "qtyPositive"]);
  });
});

describe("costBasisRequired: inbound TRANSFER and ADJUSTMENT in manual mode need an override", () => {
  const row = (type: TransactionType, quantity: string, extra: Partial<RowFacts["row"]> = {}) => ({
    type, quantity, amount: null, assetId: ASSET, assetEventId: null, costBasisOverride: null, costBasisMode: null, ...extra,
  });
  test("a positive ADJUSTMENT or TRANSFER without override, mode absent or manual, is refused", () => {
    expect(missesCostBasis(row("ADJUSTMENT", "5"), null)).toBe(true);
    expect(missesCostBasis(row("TRANSFER", "5", { costBasisMode: "manual" }), null)).toBe(true);
  });
  test("an override, an auto mode, a SPLIT link or an outbound quantity exempt the row", () => {
    expect(missesCostBasis(row("ADJUSTMENT", "5", { costBasisOverride: "0" }), null)).toBe(false);
    expect(missesCostBasis(row("TRANSFER", "5", { costBasisMode: "auto" }), null)).toBe(false);
    expect(missesCostBasis(row("ADJUSTMENT", "5", { costBasisMode: "auto-detail" }), null)).toBe(false);
    expect(missesCostBasis(row("ADJUSTMENT", "5", { assetEventId: 1 }), "SPLIT")).toBe(false);
    expect(missesCostBasis(row("ADJUSTMENT", "5", { assetEventId: 1 }), "PRICE_ADJUSTMENT")).toBe(true);
    expect(missesCostBasis(row("TRANSFER", "-5"), null)).toBe(false);
    expect(missesCostBasis(row("BUY", "5"), null)).toBe(false);
  });
});
