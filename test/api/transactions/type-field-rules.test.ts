import { beforeAll, describe, expect, test } from "bun:test";
import { TRANSACTION_TYPES, type TransactionType } from "../../../core/transactions/transaction.entity.ts";
import { ApiClient } from "../../helpers/client.ts";
import { seedAssetEvent } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { type CaseRow, type EventKind, TYPE_CASES, variant } from "../../unit/transactions/type-cases.ts";
import { codes, createAsset, looseBroker, type Row, validate } from "./fixtures.ts";

const api = useApi();
let server: TestServer;
const c = () => client;
let client: ApiClient;
let brokerA = 0;
let brokerB = 0;
let asset = 0;
const events: Partial<Record<EventKind, number>> = { missing: 999_999 };

beforeAll(async () => {
  server = api.server;
  client = new ApiClient(server.base);
  await client.signUp("rules");
  brokerA = await looseBroker(client, "A");
  brokerB = await looseBroker(client, "B");
  asset = createAsset(server.dataDir);
  const other = createAsset(server.dataDir);
  for (const type of ["DIVIDEND", "INTEREST", "SPLIT", "PRICE_ADJUSTMENT", "MATURITY_SETTLEMENT"] as const) {
    events[type] = seedAssetEvent(server.dataDir, { assetId: asset, date: "2024-03-01", type, value: "1", currency: "EUR" });
  }
  events["other-asset"] = seedAssetEvent(server.dataDir, { assetId: other, date: "2024-03-01", type: "DIVIDEND", value: "1", currency: "EUR" });
});

const neg = (s: string) => (s.startsWith("-") ? s.slice(1) : s === "0" ? s : `-${s}`);

function wire(type: TransactionType, r: CaseRow, broker: number, currency = "EUR"): Row {
  return {
    broker_id: broker, type, date: "2024-03-01", quantity: r.quantity ?? "0",
    ...(r.asset === true ? { asset_id: asset } : r.asset === "unknown" ? { asset_id: 999_999 } : {}),
    ...(r.cash != null ? { cash: { code: currency, amount: r.cash } } : {}),
    ...(r.link ? { link_uuid: "pair" } : {}),
    ...(r.event ? { asset_event_id: events[r.event] } : {}),
    ...(r.costBasis ? { cost_basis_override: { code: "EUR", amount: r.costBasis } } : {}),
    ...(r.mode ? { cost_basis_mode: r.mode } : {}),
  };
}

/** The other leg of a paired type, built from a valid row so it is never the reason for an issue. */
function partner(type: TransactionType, base: CaseRow): Row | null {
  if (type === "TRANSFER") {
    const quantity = neg(base.quantity!);
    return wire(type, { asset: true, quantity, link: true, ...(quantity.startsWith("-") ? {} : { costBasis: "10" }) }, brokerB);
  }
  if (type === "FX_CONVERSION") return wire(type, { cash: neg(base.cash!), link: true }, brokerA, "USD");
  if (type === "CASH_TRANSFER") return wire(type, { cash: neg(base.cash!), link: true }, brokerB);
  return null;
}

async function check(type: TransactionType, row: CaseRow, base: CaseRow) {
  const other = partner(type, base);
  return validate(c(), { creates: [wire(type, row, brokerA), ...(other ? [other] : [])] });
}

describe("every type's field rules through POST /transactions/validate", () => {
  test("the table covers all twelve types", () => {
    expect(Object.keys(TYPE_CASES).sort()).toEqual([...TRANSACTION_TYPES].sort());
  });

  for (const type of TRANSACTION_TYPES) {
    describe(type, () => {
      TYPE_CASES[type].valid.forEach((row, i) => {
        test(`valid row ${i + 1} has no issue: ${JSON.stringify(row)}`, async () => {
          const out = await check(type, row, row);
          expect(out.issues).toEqual([]);
          expect(out.committed).toBe(false);
          expect(out.results.every((r) => r.status === "simulated")).toBe(true);
        });
      });
      for (const [name, change, code] of TYPE_CASES[type].invalid) {
        test(`${name} is refused with ${code}`, async () => {
          const out = await check(type, variant(type, change), TYPE_CASES[type].valid[0]!);
          expect(codes(out, "create", 0)).toEqual([code]);
          expect(out.results.find((r) => r.operation === "create" && r.index === 0)!.status).toBe("failed");
        });
      }
    });
  }
});

describe("row-level schema problems are issues, not 422", () => {
  test("bad fields come back per row with parseError, assetIdInvalid or brokerRequired and a field path", async () => {
    const out = await validate(c(), { creates: [
      { broker_id: brokerA, type: "DEPOSIT", date: "2024-13-01", cash: { code: "EUR", amount: "1e5" } },
      { type: "DEPOSIT", date: "2024-01-01", cash: { code: "EUR", amount: "10" } },
      { broker_id: brokerA, asset_id: "x", type: "BUY", date: "2024-01-01", quantity: "1", cash: { code: "EUR", amount: "-1" } },
      { broker_id: brokerA, type: "GIFT", date: "2024-01-01" },
      "not an object",
      { broker_id: brokerA, type: "DEPOSIT", date: "2024-01-01", cash: { code: "EUR", amount: "10" }, colour: "red" },
    ] });
    expect(codes(out, "create", 0)).toEqual(["parseError", "parseError"]);
    expect(codes(out, "create", 1)).toEqual(["brokerRequired"]);
    expect(codes(out, "create", 2)).toEqual(["assetIdInvalid"]);
    expect(codes(out, "create", 3)).toEqual(["parseError"]);
    expect(codes(out, "create", 4)).toEqual(["parseError"]);
    expect(out.issues.find((i) => i.index === 5)).toMatchObject({ code: "parseError", field: "colour" });
  });

  test("several rule errors of one row are packed into multipleBusinessRuleErrors", async () => {
    const out = await validate(c(), { creates: [{ broker_id: brokerA, type: "BUY", date: "2024-01-01", quantity: "-1", cash: { code: "EUR", amount: "5" } }] });
    expect(out.issues).toHaveLength(1);
    expect(out.issues[0]).toMatchObject({ operation: "create", index: 0, code: "multipleBusinessRuleErrors" });
    expect(out.issues[0]!.params!.errors.map((e: { code: string }) => e.code)).toEqual(["assetRequired", "cashSignNegative", "qtyPositive"]);
  });
});
