import { beforeAll, describe, expect, test } from "bun:test";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { createBroker } from "./helpers.ts";

/**
 * `POST /brokers/import/duplicates` reads a JSON body in the worker pool (docs/decisions.md, BRIM):
 * the answers are those of a body parsed and validated on the request thread.
 */
const api = useApi({ users: ["admin", "dave", "bob"] });
let dave: ApiClient;
let bob: ApiClient;
let broker: number;

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({
  type: "DEPOSIT", date: "2024-01-02", quantity: "0", cash: { code: "EUR", amount: `${100 + (i % 3)}.25` }, description: `row ${i}`,
}));

beforeAll(async () => {
  ({ dave, bob } = api.as);
  broker = await createBroker(dave, "Duplicates body");
  expect((await dave.post(`/brokers/${broker}/access`, { user_id: api.users.bob!.id, role: "VIEWER" })).status).toBe(201);
  const seeded = await (await dave.post("/transactions/commit", {
    creates: [{ broker_id: broker, type: "DEPOSIT", date: "2024-01-02", cash: { code: "EUR", amount: "100.25" } }],
  })).json();
  expect(seeded.committed).toBe(true);
});

describe("a large duplicates body", () => {
  test("20,000 rows with one bad date: 422 at that row's date, nothing else", async () => {
    const transactions = rows(20_000);
    transactions[13_579]!.date = "2024/01/02";
    const body = await expectError(await dave.post("/brokers/import/duplicates", { broker_id: broker, transactions }), 422, "VALIDATION_ERROR");
    expect(body).toEqual({
      detail: [{ loc: ["body", "transactions", 13_579, "date"], msg: "Invalid ISO date", type: "invalid_format" }],
      code: "VALIDATION_ERROR",
    });
  });

  test("20,000 valid rows against one ledger deposit: the first of its amount likely, the other 6,666 possible", async () => {
    const res = await dave.post("/brokers/import/duplicates", { broker_id: broker, transactions: rows(20_000), asset_mappings: [] });
    expect(res.status).toBe(200);
    const report = await res.json();
    expect(report.tx_likely_duplicates).toEqual([{ tx_index: 0, match_level: "likely", existing_transaction_ids: [expect.any(Number)] }]);
    expect(report.tx_possible_duplicates).toHaveLength(6_666);
    expect(report.tx_possible_duplicates[0]).toEqual({ tx_index: 3, match_level: "possible", existing_transaction_ids: report.tx_likely_duplicates[0].existing_transaction_ids });
    expect(report.tx_unique_indices).toHaveLength(13_333);
    expect(report.tx_unique_indices.slice(0, 3)).toEqual([1, 2, 4]);
  });

  test("an unknown key and a short currency code: the field hints of docs/errors.md", async () => {
    const transactions = rows(3);
    transactions[2]!.cash.code = "EU";
    const body = await expectError(await dave.post("/brokers/import/duplicates", { broker_id: broker, transactions, amount: 1 }), 422);
    expect(body.detail).toEqual([
      { loc: ["body", "transactions", 2, "cash", "code"], msg: "Too small: expected string to have >=3 characters", type: "too_small" },
      { loc: ["body", "amount"], msg: "Unknown field 'amount'; this object takes: broker_id, transactions, asset_mappings", type: "unrecognized_keys" },
    ]);
  });
});

describe("the order of refusals is kept", () => {
  test("a body that is not JSON: 400 MALFORMED_BODY with a session; without credentials it is not read at all: 401", async () => {
    const truncated = JSON.stringify({ broker_id: broker, transactions: rows(20_000) }).slice(0, -10);
    expect(await expectError(await dave.post("/brokers/import/duplicates", truncated), 400, "MALFORMED_BODY")).toEqual({ detail: "Malformed request body", code: "MALFORMED_BODY" });
    await expectError(await api.client().post("/brokers/import/duplicates", "{\"broker_id\":"), 401, "NOT_AUTHENTICATED");
    await expectError(await api.client().post("/brokers/import/duplicates", truncated), 401, "NOT_AUTHENTICATED");
  });

  test("without a session a bad body is 401; a VIEWER's bad body is 422, a valid one 403", async () => {
    await expectError(await api.client().post("/brokers/import/duplicates", { broker_id: broker, transactions: [{}] }), 401, "NOT_AUTHENTICATED");
    const bad = await expectError(await bob.post("/brokers/import/duplicates", { broker_id: broker, transactions: [{ date: "2024-01-02" }] }), 422);
    expect(bad.detail).toEqual([{ loc: ["body", "transactions", 0, "type"], msg: "Invalid input: expected string, received undefined", type: "invalid_type" }]);
    await expectError(await bob.post("/brokers/import/duplicates", { broker_id: broker, transactions: [] }), 403, "BROKER_ROLE_REQUIRED");
  });

  test("an empty JSON body is validated as before (422 at the body); plain text is refused unread (415)", async () => {
    const empty = await expectError(await dave.post("/brokers/import/duplicates", "", { "content-type": "application/json" }), 422);
    expect(empty.detail).toEqual([{ loc: ["body"], msg: "Invalid input: expected object, received undefined", type: "invalid_type" }]);
    // A write's body must be JSON (docs/security.md "Cross-site writes").
    await expectError(await dave.post("/brokers/import/duplicates", "{}", { "content-type": "text/plain" }), 415, "UNSUPPORTED_MEDIA_TYPE");
  });
});
