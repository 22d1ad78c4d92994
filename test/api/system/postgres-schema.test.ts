import { describe, expect, test } from "bun:test";
import { ON_POSTGRES } from "../../helpers/postgres.ts";
import { createBroker } from "../brokers/helpers.ts";
import { useApi } from "../../helpers/server.ts";
import { queryRows } from "../../helpers/test-db.ts";

// The migrations' schema as PostgreSQL holds it (docs/decisions.md "PostgreSQL"):
// exact decimals, real days, no floats. On SQLite the same migrations run unchanged.
describe.if(ON_POSTGRES)("schema on PostgreSQL", () => {
  const api = useApi({ users: ["alice"] });
  const typeOf = (table: string, column: string) => queryRows<{ data_type: string }>(api.dataDir,
    `SELECT data_type FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ? AND column_name = ?`, [table, column])[0]?.data_type;

  test("money, quantities, prices and rates are numeric; days are date; timestamps carry a time zone", () => {
    for (const [table, column] of [["transactions", "amount"], ["transactions", "quantity"], ["transactions", "cost_basis_override"],
      ["price_history", "close"], ["fx_rates", "rate"], ["asset_events", "value"], ["broker_access", "share_percentage"], ["assets", "quote_base_quantity"]]) {
      expect({ table, column, type: typeOf(table!, column!) }).toEqual({ table, column, type: "numeric" });
    }
    for (const table of ["transactions", "price_history", "fx_rates", "asset_events"]) expect(typeOf(table, "date")).toBe("date");
    expect(typeOf("users", "created_at")).toBe("timestamp with time zone");
  });

  test("no column anywhere is a float", () => {
    expect(queryRows(api.dataDir, `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('real', 'double precision')`)).toEqual([]);
  });

  test("an amount keeps every digit it was given, through the API", async () => {
    const broker = await createBroker(api.as.alice!, "Exact");
    const res = await api.as.alice!.post("/transactions/commit", { creates: [
      { broker_id: broker, type: "DEPOSIT", date: "2024-01-02", quantity: "0", cash: { code: "EUR", amount: "1234567890123.0123456789" } },
    ] });
    expect(res.status).toBe(200);
    expect(queryRows<{ amount: string }>(api.dataDir, `SELECT amount FROM transactions WHERE broker_id = ?`, [broker])).toEqual([{ amount: "1234567890123.0123456789" }]);
  });
});
