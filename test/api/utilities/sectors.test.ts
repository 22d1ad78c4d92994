import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const started = useApi();
let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  server = started.server;
  api = new ApiClient(server.base);
});

const GICS = [
  "Communication Services", "Consumer Discretionary", "Consumer Staples", "Energy", "Financials", "Health Care",
  "Industrials", "Information Technology", "Materials", "Real Estate", "Utilities",
];

async function sectors(qs = "") {
  const res = await api.get(`/utilities/sectors${qs}`);
  expect(res.status).toBe(200);
  return res.json();
}

describe("GET /utilities/sectors", () => {
  test("is public and lists the 11 GICS sectors without Other by default", async () => {
    expect(api.cookie).toBe("");
    expect(await sectors()).toEqual({ sectors: GICS, count: 11 });
    expect(await sectors("?include_other=false")).toEqual({ sectors: GICS, count: 11 });
    expect((await sectors("?include_other=0")).count).toBe(11);
  });

  test("include_other=true (or 1) appends Other", async () => {
    expect(await sectors("?include_other=true")).toEqual({ sectors: [...GICS, "Other"], count: 12 });
    expect((await sectors("?include_other=1")).sectors.at(-1)).toBe("Other");
  });

  test("include_other accepts only true/false/1/0 (422 otherwise)", async () => {
    for (const bad of ["yes", "maybe", "2", ""]) {
      const body = await expectError(await api.get(`/utilities/sectors?include_other=${bad}`), 422, "VALIDATION_ERROR");
      expect(body.detail[0].loc).toEqual(["query", "include_other"]);
    }
  });
});

describe("utilities in the OpenAPI document", () => {
  test("every /utilities route is documented with its query parameters (only name required) and a 200 schema", async () => {
    const doc = await (await fetch(`${server.base}/openapi.json`)).json();
    const expected: Record<string, string[]> = {
      "/api/v1/utilities/currencies": ["language"],
      "/api/v1/utilities/currencies/normalize": ["name", "language"],
      "/api/v1/utilities/countries": ["language"],
      "/api/v1/utilities/countries/normalize": ["name", "language"],
      "/api/v1/utilities/sectors": ["include_other"],
    };
    for (const [path, params] of Object.entries(expected)) {
      const op = doc.paths[path]?.get;
      expect(op).toBeDefined();
      expect(op.tags).toContain("utilities");
      const query = (op.parameters ?? []).filter((p: any) => p.in === "query");
      expect(query.map((p: any) => p.name).sort()).toEqual([...params].sort());
      for (const p of query) expect(p.required).toBe(p.name === "name");
      expect(Object.keys(op.responses["200"].content["application/json"].schema).length).toBeGreaterThan(0);
    }
  });
});
