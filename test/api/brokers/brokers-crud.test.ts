import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";
import { createBroker } from "./helpers.ts";

// alice is the superuser: she gets no bypass on brokers
const api = useApi({ users: ["alice", "bob"] });
let server: { dataDir: string; base: string };
let alice: ApiClient;
let bob: ApiClient;
let bobId: number;

beforeAll(() => {
  server = api.server;
  ({ alice, bob } = api.as);
  bobId = api.users.bob!.id;
});

describe("creating brokers", () => {
  test("the creator becomes OWNER with share 1.000000; positive initial balances become DEPOSITs", async () => {
    const res = await alice.post("/brokers", [{
      name: "Degiro", opened_at: "2024-01-02",
      initial_balances: [{ code: "eur", amount: "1000.50" }, { code: "USD", amount: "0" }, { code: "CHF", amount: "-5" }],
    }]);
    const body = await res.json();
    expect(body).toMatchObject({ success_count: 1, errors: [], results: [{ success: true, name: "Degiro", deposits_created: 1 }] });
    const id = body.results[0].broker_id;
    const broker = await (await alice.get(`/brokers/${id}`)).json();
    expect(broker).toMatchObject({ id, name: "Degiro", user_role: "OWNER", user_share_percentage: "1.000000", allow_cash_overdraft: false, allow_asset_shorting: false, opened_at: "2024-01-02" });
    const deposits = queryDb<any>(server.dataDir, "SELECT type, date, amount, currency, quantity FROM transactions WHERE broker_id = ?", id);
    expect(deposits).toEqual([{ type: "DEPOSIT", date: "2024-01-02", amount: "1000.5", currency: "EUR", quantity: "0" }]);
  });

  test("a name the caller already uses is refused per item; another user may use it", async () => {
    const body = await (await alice.post("/brokers", [{ name: " degiro " }, { name: "Scalable" }])).json();
    expect(body.success_count).toBe(1);
    expect(body.results[0]).toMatchObject({ success: false, broker_id: null, name: "degiro" });
    expect(body.results[0].error).toContain("already have a broker");
    expect(body.results[1]).toMatchObject({ success: true, name: "Scalable" });
    expect((await (await bob.post("/brokers", [{ name: "Degiro" }])).json()).success_count).toBe(1);
  });

  test("bad bodies are 422 and create nothing", async () => {
    const before = queryDb<{ n: number }>(server.dataDir, "SELECT count(*) AS n FROM brokers")[0]!.n;
    await expectError(await alice.post("/brokers", []), 422, "VALIDATION_ERROR");
    await expectError(await alice.post("/brokers", [{ name: "" }]), 422, "VALIDATION_ERROR");
    await expectError(await alice.post("/brokers", [{ name: "X", initial_balances: [{ code: "EUR", amount: 100 }] }]), 422);
    await expectError(await alice.post("/brokers", [{ name: "X", opened_at: "2024-13-01" }]), 422);
    await expectError(await alice.post("/brokers", [{ name: "X", owner: 5 }]), 422);
    expect(queryDb<{ n: number }>(server.dataDir, "SELECT count(*) AS n FROM brokers")[0]!.n).toBe(before);
  });
});

describe("reading brokers", () => {
  test("the list holds only brokers with an access row for the caller", async () => {
    const names = (await (await bob.get("/brokers")).json()).items.map((b: any) => b.name);
    expect(names).toEqual(["Degiro"]);
    const aliceNames = (await (await alice.get("/brokers")).json()).items.map((b: any) => b.name);
    expect(aliceNames).toEqual(["Degiro", "Scalable"]);
  });

  test("a broker without an access row is 404 for everyone else, superusers included", async () => {
    const bobsBroker = (await (await bob.get("/brokers")).json()).items[0].id;
    await expectError(await alice.get(`/brokers/${bobsBroker}`), 404, "BROKER_NOT_FOUND");
    await expectError(await alice.get(`/brokers/${bobsBroker}/access`), 404, "BROKER_NOT_FOUND");
    await expectError(await alice.patch(`/brokers/${bobsBroker}`, { name: "Mine" }), 404, "BROKER_NOT_FOUND");
    await expectError(await alice.delete(`/brokers/${bobsBroker}`), 404, "BROKER_NOT_FOUND");
    await expectError(await alice.get(`/brokers/999999`), 404, "BROKER_NOT_FOUND");
  });
});

describe("editing and deleting", () => {
  test("EDITOR may edit name, icon and settings; VIEWER may not (403)", async () => {
    const id = await createBroker(alice, "Editable");
    expect((await alice.post(`/brokers/${id}/access`, { user_id: bobId, role: "VIEWER" })).status).toBe(201);
    await expectError(await bob.patch(`/brokers/${id}`, { name: "Renamed" }), 403, "BROKER_ROLE_REQUIRED");
    expect((await alice.patch(`/brokers/${id}/access/${bobId}`, { role: "EDITOR" })).status).toBe(200);
    const res = await bob.patch(`/brokers/${id}`, { name: "Renamed", icon_url: "/icons/x.svg", allow_cash_overdraft: true, description: "" });
    expect(await res.json()).toEqual({ results: [{ id, success: true, validation_triggered: false }], success_count: 1, errors: [] });
    expect(await (await alice.get(`/brokers/${id}`)).json()).toMatchObject({ name: "Renamed", icon_url: "/icons/x.svg", allow_cash_overdraft: true, description: null });
  });

  test("renaming to a name the caller already uses is 409", async () => {
    const id = await createBroker(alice, "Twin");
    await expectError(await alice.patch(`/brokers/${id}`, { name: "SCALABLE" }), 409, "BROKER_NAME_TAKEN");
  });

  test("only an OWNER deletes; the broker's transactions and access rows go with it", async () => {
    const id = await createBroker(alice, "Doomed", { initial_balances: [{ code: "EUR", amount: "10" }] });
    await alice.post(`/brokers/${id}/access`, { user_id: bobId, role: "EDITOR" });
    await expectError(await bob.delete(`/brokers/${id}`), 403, "BROKER_ROLE_REQUIRED");
    const res = await (await alice.delete(`/brokers/${id}`)).json();
    expect(res).toEqual({ success: true, deleted_count: 1, transactions_deleted: 1 });
    expect(queryDb(server.dataDir, "SELECT id FROM transactions WHERE broker_id = ?", id)).toEqual([]);
    expect(queryDb(server.dataDir, "SELECT user_id FROM broker_access WHERE broker_id = ?", id)).toEqual([]);
    await expectError(await bob.get(`/brokers/${id}`), 404);
  });
});
