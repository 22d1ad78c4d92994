import { describe, expect, test } from "bun:test";
import { expectError } from "../../helpers/client.ts";
import { seedAsset, seedTransactions } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";
import { createBroker } from "./helpers.ts";

// Errors about a broker or an asset the caller can see name it, in the message and in `params`
// (`broker_name`, `asset_name`), so the web can word them without showing ids.
const api = useApi({ users: ["alice", "bob"] });

describe("errors name the broker and the asset instead of their ids", () => {
  test("a role too low: 403 BROKER_ROLE_REQUIRED names the broker", async () => {
    const b = await createBroker(api.as.alice!, "Degiro main");
    await api.as.alice!.post(`/brokers/${b}/access`, { user_id: api.users.bob!.id, role: "VIEWER" });
    const body = await expectError(await api.as.bob!.request("DELETE", `/brokers/${b}`), 403, "BROKER_ROLE_REQUIRED");
    expect(body.params).toMatchObject({ broker_id: b, broker_name: "Degiro main", required_role: "OWNER" });
    expect(body.detail).toContain("\"Degiro main\"");
    expect(body.detail).not.toContain(`broker ${b}`);
  });

  test("a batch row in a broker the caller only views: the accessDenied issue names the broker", async () => {
    const b = await createBroker(api.as.alice!, "Viewed only");
    await api.as.alice!.post(`/brokers/${b}/access`, { user_id: api.users.bob!.id, role: "VIEWER" });
    const res = await (await api.as.bob!.post("/transactions/validate", {
      creates: [{ type: "DEPOSIT", broker_id: b, date: "2024-01-02", cash: { code: "EUR", amount: "10" } }],
    })).json();
    const issue = res.issues.find((i: any) => i.code === "accessDenied" || i.params?.errors?.some((e: any) => e.code === "accessDenied"));
    expect(JSON.stringify(issue)).toContain("\"broker_name\":\"Viewed only\"");
    expect(JSON.stringify(issue)).toContain("broker \\\"Viewed only\\\"");
  });

  test("access that already exists: 409 ACCESS_EXISTS names the user and the broker", async () => {
    const b = await createBroker(api.as.alice!, "Shared twice");
    await api.as.alice!.post(`/brokers/${b}/access`, { user_id: api.users.bob!.id, role: "VIEWER" });
    const body = await expectError(await api.as.alice!.post(`/brokers/${b}/access`, { user_id: api.users.bob!.id, role: "EDITOR" }), 409, "ACCESS_EXISTS");
    expect(body.params).toMatchObject({ username: "bob", broker_name: "Shared twice" });
    expect(body.detail).toBe("bob already has access to broker \"Shared twice\"; update the row instead");
  });

  test("turning shorting off with a short position: the refusal names the asset and the broker", async () => {
    const b = await createBroker(api.as.alice!, "Shorting", { allow_asset_shorting: true, allow_cash_overdraft: true });
    const asset = seedAsset(api.dataDir, { name: "Short Corp", currency: "EUR" });
    seedTransactions(api.dataDir, [{ brokerId: b, type: "SELL", date: "2024-05-02", assetId: asset, quantity: "-1", amount: "10", currency: "EUR" }]);
    const res = await (await api.as.alice!.patch(`/brokers/${b}`, { allow_asset_shorting: false })).json();
    expect(res.results[0].success).toBe(false);
    expect(res.results[0].error).toContain("\"Short Corp\" at broker \"Shorting\"");
    expect(res.results[0].error).not.toContain(`asset ${asset}`);
  });
});
