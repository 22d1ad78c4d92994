import { beforeAll, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;
let body: any;

beforeAll(async () => {
  server = api.server;
  const c = new ApiClient(server.base);
  await c.signUp("typer");
  const res = await c.get("/transactions/types");
  expect(res.status).toBe(200);
  body = await res.json();
});

const type = (code: string) => body.transaction_types.find((t: { code: string }) => t.code === code);

test("GET /transactions/types lists the twelve types with their field and sign rules", () => {
  expect(body.transaction_types.map((t: { code: string }) => t.code)).toEqual([
    "BUY", "SELL", "DIVIDEND", "INTEREST", "DEPOSIT", "WITHDRAWAL", "FEE", "TAX", "ADJUSTMENT", "TRANSFER", "FX_CONVERSION", "CASH_TRANSFER",
  ]);
  expect(type("BUY")).toMatchObject({ asset_mode: "required", cash_mode: "required", quantity_mode: "required", quantity_sign: "positive", cash_sign: "negative", swap_group: ["BUY", "SELL"], cost_basis_mode: "forbidden" });
  expect(type("INTEREST")).toMatchObject({ asset_mode: "optional", quantity_sign: "zero", cash_sign: "positive", event_compatible: true, compatible_event_types: ["INTEREST", "MATURITY_SETTLEMENT"] });
  expect(type("ADJUSTMENT")).toMatchObject({ cash_mode: "forbidden", quantity_sign: "nonzero", cost_basis_mode: "required_qty_pos", cost_basis_pair: null, swap_group: [] });
});

test("paired types carry link, layout, split, promote and pair constraint metadata", () => {
  expect(type("TRANSFER")).toMatchObject({
    requires_link: true, pair_form_layout: "transfer_asset", split_into: { from_type: "ADJUSTMENT", to_type: "ADJUSTMENT" },
    cost_basis_pair: ["forbidden", "required_qty_pos"],
    pair_field_constraints: [{ field: "asset_id", relation: "equal" }, { field: "broker_id", relation: "different" }, { field: "quantity", relation: "opposite" }],
  });
  expect(type("FX_CONVERSION").promote_from).toEqual([{ type_a: "WITHDRAWAL", type_b: "DEPOSIT", field_constraints: type("FX_CONVERSION").pair_field_constraints }]);
  expect(type("CASH_TRANSFER")).toMatchObject({ pair_form_layout: "transfer_cash", split_into: { from_type: "WITHDRAWAL", to_type: "DEPOSIT" } });
});

test("event types list the transaction types that may link to them", () => {
  const events = Object.fromEntries(body.event_types.map((e: { code: string; compatible_tx_types: string[] }) => [e.code, e.compatible_tx_types]));
  expect(events).toEqual({ DIVIDEND: ["DIVIDEND"], INTEREST: ["INTEREST"], PRICE_ADJUSTMENT: ["ADJUSTMENT"], SPLIT: ["ADJUSTMENT"], MATURITY_SETTLEMENT: ["INTEREST"] });
  expect(body.event_types.every((e: { emoji: string; name: string }) => e.emoji && e.name)).toBe(true);
});

test("validation codes come with a description and a severity", () => {
  const codes = body.validation_codes.map((v: { code: string }) => v.code);
  for (const code of ["balanceAssetNegative", "balanceCashNegative", "txNotFound", "typeCannotSplit", "splitIdsMismatch", "promoteRefNotFound",
    "alreadyPaired", "noPromoteRule", "accessDenied", "linkUuidPairCount", "wacFxUnavailable", "costBasisRequired", "assetRequired",
    "cashRequired", "cashForbidden", "assetForbidden", "linkUuidRequired", "qtyPositive", "qtyNegative", "qtyZero", "qtyNonzero",
    "cashSignPositive", "cashSignNegative", "eventTypeIncompatible", "eventRequiresAsset", "costBasisModeIncompatible",
    "fxConversionQtyZero", "fxConversionCashRequired", "brokerRequired", "assetIdInvalid", "assetEventIdInvalid", "idRequired",
    "multipleBusinessRuleErrors"]) {
    expect(codes).toContain(code);
  }
  expect(body.validation_codes.every((v: { description: string; severity: string }) => v.description.length > 10 && v.severity === "error")).toBe(true);
});
