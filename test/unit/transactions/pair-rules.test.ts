import { describe, expect, test } from "bun:test";
import { checkPair, type PairLeg, promoteTarget, splitTypes } from "../../../core/transactions/pair-validation.calc.ts";
import { canChangeType } from "../../../core/transactions/transaction-rules.ts";

const leg = (l: Partial<PairLeg> & Pick<PairLeg, "type">): PairLeg =>
  ({ brokerId: 1, assetId: null, quantity: "0", amount: null, currency: null, ...l });
const codes = (a: PairLeg, b: PairLeg) => checkPair(a, b).map((e) => e.code);

describe("pair constraints", () => {
  const out = leg({ type: "TRANSFER", brokerId: 1, assetId: 5, quantity: "-3" });
  const inn = leg({ type: "TRANSFER", brokerId: 2, assetId: 5, quantity: "3" });
  test("TRANSFER: same asset, different broker, opposite quantity", () => {
    expect(codes(out, inn)).toEqual([]);
    expect(codes(out, { ...inn, assetId: 6 })).toEqual(["pairAssetMismatch"]);
    expect(codes(out, { ...inn, brokerId: 1 })).toEqual(["pairSameBroker"]);
    expect(codes(out, { ...inn, quantity: "2.999" })).toEqual(["pairQuantityNotOpposite"]);
  });

  const sell = leg({ type: "FX_CONVERSION", amount: "-100", currency: "EUR" });
  const buy = leg({ type: "FX_CONVERSION", amount: "110.5", currency: "USD" });
  test("FX_CONVERSION: different currency, same broker, one leg out and one in", () => {
    expect(codes(sell, buy)).toEqual([]);
    expect(codes(sell, { ...buy, currency: "EUR" })).toEqual(["pairSameCurrency"]);
    expect(codes(sell, { ...buy, brokerId: 2 })).toEqual(["pairBrokerMismatch"]);
    expect(codes(sell, { ...buy, amount: "-1" })).toEqual(["pairSignNotOpposite"]);
  });

  const wire = leg({ type: "CASH_TRANSFER", brokerId: 1, amount: "-250.00", currency: "EUR" });
  const land = leg({ type: "CASH_TRANSFER", brokerId: 2, amount: "250", currency: "EUR" });
  test("CASH_TRANSFER: same currency, different broker, opposite amount (exact decimals)", () => {
    expect(codes(wire, land)).toEqual([]);
    expect(codes(wire, { ...land, currency: "USD" })).toEqual(["pairCurrencyMismatch"]);
    expect(codes(wire, { ...land, brokerId: 1 })).toEqual(["pairSameBroker"]);
    expect(codes(wire, { ...land, amount: "250.0000000001" })).toEqual(["pairAmountNotOpposite"]);
  });

  test("both legs must have the same type", () => {
    expect(codes(out, { ...inn, type: "ADJUSTMENT" })).toEqual(["pairTypeMismatch"]);
  });
});

describe("split and promote mappings", () => {
  test("TRANSFER splits into two ADJUSTMENTs; cash pairs into WITHDRAWAL (out) and DEPOSIT (in)", () => {
    expect(splitTypes(leg({ type: "TRANSFER", quantity: "3" }), leg({ type: "TRANSFER", quantity: "-3" }))).toEqual(["ADJUSTMENT", "ADJUSTMENT"]);
    expect(splitTypes(leg({ type: "FX_CONVERSION", amount: "5" }), leg({ type: "FX_CONVERSION", amount: "-4" }))).toEqual(["DEPOSIT", "WITHDRAWAL"]);
    expect(splitTypes(leg({ type: "CASH_TRANSFER", amount: "-5" }), leg({ type: "CASH_TRANSFER", amount: "5" }))).toEqual(["WITHDRAWAL", "DEPOSIT"]);
    expect(splitTypes(leg({ type: "BUY" }), leg({ type: "BUY" }))).toBeNull();
  });

  test("promote is the reverse: ADJUSTMENT pair → TRANSFER; WITHDRAWAL + DEPOSIT → CASH_TRANSFER or FX_CONVERSION by currency", () => {
    expect(promoteTarget(leg({ type: "ADJUSTMENT" }), leg({ type: "ADJUSTMENT" }))).toBe("TRANSFER");
    expect(promoteTarget(leg({ type: "DEPOSIT", currency: "EUR" }), leg({ type: "WITHDRAWAL", currency: "EUR" }))).toBe("CASH_TRANSFER");
    expect(promoteTarget(leg({ type: "WITHDRAWAL", currency: "EUR" }), leg({ type: "DEPOSIT", currency: "USD" }))).toBe("FX_CONVERSION");
    expect(promoteTarget(leg({ type: "BUY" }), leg({ type: "SELL" }))).toBeNull();
    expect(promoteTarget(leg({ type: "DEPOSIT" }), leg({ type: "DEPOSIT" }))).toBeNull();
  });
});

describe("type is immutable except the sign-flip swap groups", () => {
  test("swaps within {BUY,SELL}, {DEPOSIT,WITHDRAWAL}, {DIVIDEND,INTEREST}, {TAX,FEE}", () => {
    for (const [a, b] of [["BUY", "SELL"], ["DEPOSIT", "WITHDRAWAL"], ["DIVIDEND", "INTEREST"], ["TAX", "FEE"]] as const) {
      expect(canChangeType(a, b)).toBe(true);
      expect(canChangeType(b, a)).toBe(true);
    }
  });
  test("every other change is refused, including between paired types", () => {
    expect(canChangeType("BUY", "DIVIDEND")).toBe(false);
    expect(canChangeType("TRANSFER", "ADJUSTMENT")).toBe(false);
    expect(canChangeType("FX_CONVERSION", "CASH_TRANSFER")).toBe(false);
    expect(canChangeType("ADJUSTMENT", "ADJUSTMENT")).toBe(true);
  });
});
