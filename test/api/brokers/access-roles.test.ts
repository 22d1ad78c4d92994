import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { accessByName, createBroker } from "./helpers.ts";

const api = useApi();
let server: TestServer;
const c: Record<string, ApiClient> = {};
const id: Record<string, number> = {};

beforeAll(async () => {
  server = api.server;
  for (const name of ["owner", "other", "third"]) {
    c[name] = new ApiClient(server.base);
    id[name] = (await c[name]!.signUp(name)).id;
  }
});

const owner = () => c.owner!;
const other = () => c.other!;

describe("Broker roles: add access", () => {
  test("(no access) → role: an OWNER adds a row; EDITOR and VIEWER default to share 0", async () => {
    const b = await createBroker(owner(), "Add");
    const res = await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "EDITOR" });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ user_id: id.other, broker_id: b, role: "EDITOR", share_percentage: "0.000000" });
    expect((await accessByName(other(), b)).owner).toMatchObject({ role: "OWNER", share_percentage: "1.000000" });
  });

  test("only an OWNER may add access: EDITOR and VIEWER get 403, strangers 404", async () => {
    const b = await createBroker(owner(), "AddPerm");
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "EDITOR" });
    await expectError(await other().post(`/brokers/${b}/access`, { user_id: id.third, role: "VIEWER" }), 403, "BROKER_ROLE_REQUIRED");
    await expectError(await c.third!.post(`/brokers/${b}/access`, { user_id: id.third, role: "OWNER" }), 404, "BROKER_NOT_FOUND");
  });

  test("adding a user twice is 409, an unknown user 404", async () => {
    const b = await createBroker(owner(), "AddTwice");
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "VIEWER" });
    await expectError(await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "EDITOR" }), 409, "ACCESS_EXISTS");
    await expectError(await owner().post(`/brokers/${b}/access`, { user_id: 99999, role: "EDITOR" }), 404, "USER_NOT_FOUND");
  });
});

describe("Broker roles: share rules", () => {
  test("a second OWNER defaulting to 1.00 would push the sum above 1: 422 SHARE_INVALID", async () => {
    const b = await createBroker(owner(), "Sum");
    const body = await expectError(await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "OWNER" }), 422, "SHARE_INVALID");
    expect(body.params.sum).toBe("2.000000");
  });

  test("shares may sum to exactly 1.00 or less, and 0 is valid for an OWNER", async () => {
    const b = await createBroker(owner(), "Split");
    expect((await owner().patch(`/brokers/${b}/access/${id.owner}`, { share_percentage: "0.6" })).status).toBe(200);
    expect((await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "OWNER", share_percentage: "0.400000" })).status).toBe(201);
    await expectError(await owner().post(`/brokers/${b}/access`, { user_id: id.third, role: "OWNER", share_percentage: "0.000001" }), 422, "SHARE_INVALID");
    expect((await owner().post(`/brokers/${b}/access`, { user_id: id.third, role: "OWNER", share_percentage: "0" })).status).toBe(201);
    await expectError(await owner().patch(`/brokers/${b}/access/${id.third}`, { share_percentage: "0.1" }), 422, "SHARE_INVALID");
    expect((await owner().patch(`/brokers/${b}/access/${id.owner}`, { share_percentage: "0.5" })).status).toBe(200);
    const rows = await accessByName(owner(), b);
    expect([rows.owner!.share_percentage, rows.other!.share_percentage, rows.third!.share_percentage]).toEqual(["0.500000", "0.400000", "0.000000"]);
  });

  test("only an OWNER may hold a share above 0", async () => {
    const b = await createBroker(owner(), "NonOwnerShare");
    await owner().patch(`/brokers/${b}/access/${id.owner}`, { share_percentage: "0.5" });
    await expectError(await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "EDITOR", share_percentage: "0.1" }), 422, "SHARE_INVALID");
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "VIEWER" });
    await expectError(await owner().patch(`/brokers/${b}/access/${id.other}`, { share_percentage: "0.2" }), 422, "SHARE_INVALID");
  });

  test("shares are decimals in [0, 1] with at most six decimals", async () => {
    const b = await createBroker(owner(), "ShareFormat");
    for (const bad of ["1.5", "-0.1", "0.1234567", "abc", "1e-1", ""]) {
      await expectError(await owner().patch(`/brokers/${b}/access/${id.owner}`, { share_percentage: bad }), 422, "SHARE_INVALID");
    }
    expect((await (await owner().patch(`/brokers/${b}/access/${id.owner}`, { share_percentage: 0.25 })).json()).share_percentage).toBe("0.250000");
    expect(queryDb<any>(server.dataDir, "SELECT share_percentage FROM broker_access WHERE broker_id = ?", b)).toEqual([{ share_percentage: "0.250000" }]);
  });
});

describe("Broker roles: update access (OWNER path)", () => {
  test("an OWNER promotes VIEWER → EDITOR → OWNER and demotes back; demotion sets the share to 0", async () => {
    const b = await createBroker(owner(), "Promote");
    await owner().patch(`/brokers/${b}/access/${id.owner}`, { share_percentage: "0.7" });
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "VIEWER" });
    expect((await (await owner().patch(`/brokers/${b}/access/${id.other}`, { role: "EDITOR" })).json()).role).toBe("EDITOR");
    const promoted = await (await owner().patch(`/brokers/${b}/access/${id.other}`, { role: "OWNER", share_percentage: "0.3" })).json();
    expect(promoted).toMatchObject({ role: "OWNER", share_percentage: "0.300000" });
    const demoted = await (await owner().patch(`/brokers/${b}/access/${id.other}`, { role: "VIEWER" })).json();
    expect(demoted).toMatchObject({ role: "VIEWER", share_percentage: "0.000000" });
  });

  test("the last OWNER cannot be downgraded: 409 LAST_OWNER", async () => {
    const b = await createBroker(owner(), "LastDown");
    await expectError(await owner().patch(`/brokers/${b}/access/${id.owner}`, { role: "EDITOR" }), 409, "LAST_OWNER");
    expect((await accessByName(owner(), b)).owner!.role).toBe("OWNER");
  });

  test("EDITOR and VIEWER cannot change access (403)", async () => {
    const b = await createBroker(owner(), "NoManage");
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "EDITOR" });
    await expectError(await other().patch(`/brokers/${b}/access/${id.other}`, { role: "OWNER", share_percentage: "0" }), 403, "BROKER_ROLE_REQUIRED");
  });
});

describe("Broker roles: self-demotion", () => {
  test("EDITOR → VIEWER always", async () => {
    const b = await createBroker(owner(), "SelfEditor");
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "EDITOR" });
    expect(await (await other().patch(`/brokers/${b}/access/me`, { role: "VIEWER" })).json()).toMatchObject({ success: true, broker_deleted: false });
    expect((await accessByName(owner(), b)).other!.role).toBe("VIEWER");
  });

  test("promotion through /access/me is refused (403): promotions only through the OWNER path", async () => {
    const b = await createBroker(owner(), "SelfUp");
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "VIEWER" });
    await expectError(await other().patch(`/brokers/${b}/access/me`, { role: "EDITOR" }), 403, "PROMOTION_NOT_ALLOWED");
    await expectError(await other().patch(`/brokers/${b}/access/me`, { role: "OWNER" }), 403, "PROMOTION_NOT_ALLOWED");
  });

  test("OWNER → EDITOR while another OWNER remains; the share is set to 0", async () => {
    const b = await createBroker(owner(), "SelfOwner");
    await owner().patch(`/brokers/${b}/access/${id.owner}`, { share_percentage: "0.5" });
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "OWNER", share_percentage: "0.5" });
    expect((await other().patch(`/brokers/${b}/access/me`, { role: "EDITOR" })).status).toBe(200);
    expect((await accessByName(owner(), b)).other).toMatchObject({ role: "EDITOR", share_percentage: "0.000000" });
  });

  test("the last OWNER's self-demotion is refused and changes nothing", async () => {
    const b = await createBroker(owner(), "SelfLast");
    await expectError(await owner().patch(`/brokers/${b}/access/me`, { role: "VIEWER" }), 409, "LAST_OWNER");
    expect((await accessByName(owner(), b)).owner).toMatchObject({ role: "OWNER", share_percentage: "1.000000" });
  });
});

describe("Broker roles: leave and remove", () => {
  test("EDITOR or VIEWER leaving removes the row", async () => {
    const b = await createBroker(owner(), "LeaveViewer");
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "VIEWER" });
    expect(await (await other().delete(`/brokers/${b}/access/me`)).json()).toMatchObject({ success: true, broker_deleted: false });
    await expectError(await other().get(`/brokers/${b}`), 404);
  });

  test("an OWNER leaving while another OWNER remains removes the row", async () => {
    const b = await createBroker(owner(), "LeaveOwner");
    await owner().patch(`/brokers/${b}/access/${id.owner}`, { share_percentage: "0" });
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "OWNER" });
    expect((await (await owner().delete(`/brokers/${b}/access/me`)).json()).broker_deleted).toBe(false);
    expect(Object.keys(await accessByName(other(), b))).toEqual(["other"]);
  });

  test("the last OWNER leaving deletes the broker and all its transactions", async () => {
    const b = await createBroker(owner(), "LeaveLast", { initial_balances: [{ code: "EUR", amount: "5" }] });
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "EDITOR" });
    expect((await (await owner().delete(`/brokers/${b}/access/me`)).json()).broker_deleted).toBe(true);
    expect(queryDb(server.dataDir, "SELECT id FROM brokers WHERE id = ?", b)).toEqual([]);
    expect(queryDb(server.dataDir, "SELECT id FROM transactions WHERE broker_id = ?", b)).toEqual([]);
    await expectError(await other().get(`/brokers/${b}`), 404);
  });

  test("an OWNER removes any row; a user removes their own; others get 403", async () => {
    const b = await createBroker(owner(), "Remove");
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "EDITOR" });
    await owner().post(`/brokers/${b}/access`, { user_id: id.third, role: "VIEWER" });
    await expectError(await other().delete(`/brokers/${b}/access/${id.third}`), 403, "BROKER_ROLE_REQUIRED");
    expect((await c.third!.delete(`/brokers/${b}/access/${id.third}`)).status).toBe(200);
    expect((await owner().delete(`/brokers/${b}/access/${id.other}`)).status).toBe(200);
    expect(Object.keys(await accessByName(owner(), b))).toEqual(["owner"]);
  });

  test("the last OWNER cannot be removed, not even by themself through /access/{user_id}", async () => {
    const b = await createBroker(owner(), "RemoveLast");
    await expectError(await owner().delete(`/brokers/${b}/access/${id.owner}`), 409, "LAST_OWNER");
    expect((await owner().get(`/brokers/${b}`)).status).toBe(200);
  });
});

describe("access list", () => {
  test("VIEWER or better reads the list; strangers get 404", async () => {
    const b = await createBroker(owner(), "List");
    await owner().post(`/brokers/${b}/access`, { user_id: id.other, role: "VIEWER" });
    const items = (await (await other().get(`/brokers/${b}/access`)).json()).items;
    expect(items.map((i: any) => [i.username, i.role, i.share_percentage])).toEqual([["owner", "OWNER", "1.000000"], ["other", "VIEWER", "0.000000"]]);
    expect(items[0]).not.toHaveProperty("email");
    await expectError(await c.third!.get(`/brokers/${b}/access`), 404, "BROKER_NOT_FOUND");
  });
});
