import { beforeAll, describe, expect, test } from "bun:test";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";

const api = useApi({ users: ["alice"] });
let alice: ApiClient;
beforeAll(() => ({ alice } = api.as));

const issues = async (res: Response) => (await expectError(res, 422, "VALIDATION_ERROR")).detail as { loc: unknown[]; msg: string; type: string }[];

describe("unknown keys are refused everywhere, naming the key and the field it was meant for", () => {
  test("a misplaced key gets a 422 at that key with the nested field it belongs to (amount → value.amount)", async () => {
    const detail = await issues(await alice.post("/assets/events", [{ asset_id: 1, events: [{ date: "2024-01-01", type: "DIVIDEND", value: { code: "EUR", amount: "1" }, amount: "1" }] }]));
    expect(detail).toEqual([{ loc: ["body", 0, "events", 0, "amount"], msg: "Unknown field 'amount'; did you mean 'value.amount'?", type: "unrecognized_keys" }]);
    const brokers = await issues(await alice.post("/brokers", [{ name: "X", amount: "5" }]));
    expect(brokers[0]!.msg).toBe("Unknown field 'amount'; did you mean 'initial_balances[].amount'?");
  });

  test("a misspelt key names the field it resembles; otherwise the fields the object takes", async () => {
    const typo = await issues(await alice.post("/brokers", [{ name: "X", opened: "2024-01-01" }]));
    expect(typo[0]!.msg).toBe("Unknown field 'opened'; did you mean 'opened_at'?");
    const unknown = await issues(await alice.post("/fx/currencies/rate", [{ date: "2024-01-02", base: "EUR", quote: "USD", rate: "1.1", comment: "x" }]));
    expect(unknown).toEqual([{ loc: ["body", 0, "comment"], msg: "Unknown field 'comment'; this object takes: date, base, quote, rate, source", type: "unrecognized_keys" }]);
  });

  test("/fx refuses unknown keys like every other area (it used to ignore them)", async () => {
    await issues(await alice.post("/fx/currencies/sync", { pairs: ["EUR-USD"], start: "2024-01-01", end: "2024-01-02", force: true }));
    await issues(await alice.post("/fx/currencies/convert", [{ from_amount: { code: "EUR", amount: "1", currency: "EUR" }, to: "USD", date_range: { start: "2024-01-02" } }]));
    await issues(await alice.post("/fx/providers/routes", [{ base: "EUR", quote: "USD", priority: 1, chain_steps: [{ from: "EUR", to: "USD", provider: "ECB", reverse: true }] }]));
    const del = await fetch(`${api.base}/fx/providers/routes`, { method: "DELETE", headers: { cookie: alice.cookie, "content-type": "application/json" }, body: JSON.stringify([{ base: "EUR", quote: "USD", all: true }]) });
    await issues(del);
  });

  test("a transaction row with a misplaced key is an issue naming the field (amount → cash.amount)", async () => {
    const body = await (await alice.post("/transactions/validate", { creates: [{ type: "DEPOSIT", broker_id: 1, date: "2024-01-01", amount: "5" }] })).json();
    expect(body.issues[0]).toMatchObject({ code: "parseError", field: "amount" });
    expect(body.issues[0].error).toContain("did you mean 'cash.amount'");
  });

  test("a bulk route given one object says it takes an array", async () => {
    const detail = await issues(await alice.post("/brokers", { name: "Solo" }));
    expect(detail).toEqual([{ loc: ["body"], msg: expect.stringMatching(/^This endpoint takes an array of objects \{name, /), type: "invalid_type" }]);
    expect((await issues(await alice.post("/assets", { name: "A", currency: "EUR" })))[0]!.msg).toContain("takes an array of objects {name, currency");
  });

  test("no JSON request body of the OpenAPI document drops unknown keys silently (additionalProperties: false)", async () => {
    const doc = await (await fetch(`${api.base}/openapi.json`)).json();
    const open: string[] = [];
    const seen = new Set<string>();
    const visit = (node: any, where: string): void => {
      if (!node || typeof node !== "object") return;
      if (Array.isArray(node)) return node.forEach((n) => visit(n, where));
      if (typeof node.$ref === "string") {
        if (seen.has(node.$ref)) return;
        seen.add(node.$ref);
        return visit(node.$ref.replace(/^#\//, "").split("/").reduce((n: any, k: string) => n?.[k], doc), `${where} ${node.$ref}`);
      }
      // Silently dropped keys are the fault; an explicit pass-through (parse-result rows echoed back) keeps them.
      if (node.properties && node.additionalProperties === undefined) open.push(`${where}: ${Object.keys(node.properties).join(",")}`);
      for (const [k, v] of Object.entries(node)) if (k !== "example" && k !== "enum") visit(v, where);
    };
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) visit(op.requestBody?.content?.["application/json"]?.schema, `${method} ${path}`);
    }
    expect(open).toEqual([]);
  });
});

describe("bulk creates", () => {
  test("a bulk create where every item failed answers 200 with the per-item errors, not 201", async () => {
    const first = await alice.post("/assets", [{ name: "Bulk A", currency: "EUR" }]);
    expect(first.status).toBe(201);
    const again = await alice.post("/assets", [{ name: "bulk a", currency: "EUR" }]);
    expect(again.status).toBe(200);
    const body = await again.json();
    expect(body.success_count).toBe(0);
    expect(body.results[0]).toMatchObject({ success: false });
    const mixed = await alice.post("/assets", [{ name: "Bulk A", currency: "EUR" }, { name: "Bulk B", currency: "EUR" }]);
    expect(mixed.status).toBe(201);
    expect((await mixed.json()).success_count).toBe(1);
  });

  test("initial balances come back as DEPOSITs dated opened_at, or the day of creation without it", async () => {
    const body = await (await alice.post("/brokers", [
      { name: "Dated", opened_at: "2023-05-04", initial_balances: [{ code: "EUR", amount: "100.50" }, { code: "USD", amount: "0" }] },
      { name: "Undated", initial_balances: [{ code: "CHF", amount: "7" }] },
    ])).json();
    expect(body.results[0].deposits).toEqual([{ transaction_id: expect.any(Number), date: "2023-05-04", cash: { code: "EUR", amount: "100.5" } }]);
    expect(body.results[1].deposits).toEqual([{ transaction_id: expect.any(Number), date: new Date().toISOString().slice(0, 10), cash: { code: "CHF", amount: "7" } }]);
    const txs = await (await alice.get(`/transactions?broker_id=${body.results[0].broker_id}`)).json();
    expect(txs.map((t: any) => [t.id, t.type, t.date])).toEqual([[body.results[0].deposits[0].transaction_id, "DEPOSIT", "2023-05-04"]]);
  });
});
