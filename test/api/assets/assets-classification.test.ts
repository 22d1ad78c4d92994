import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { createAsset } from "./assets-helpers.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("classifier");
});

const classificationOf = async (id: number) => (await (await c.get(`/assets/${id}`)).json()).classification_params;

describe("classification_params normalisation", () => {
  test("countries by name, alpha-2 or alpha-3 become alpha-3; weights within 0.01 of 1 are renormalised to 4 decimals summing to 1", async () => {
    const id = await createAsset(c, {
      classification_params: {
        short_description: "<i>World</i> equity",
        geographic_area: { distribution: { "United States": 0.6, IT: "0.2", DEU: "0.195" } },
        sector_area: { distribution: { "information technology": "0.5", Crypto: "0.25", Gold: "0.25" } },
      },
    });
    expect(await classificationOf(id)).toEqual({
      short_description: "<i>World</i> equity",
      geographic_area: { distribution: { DEU: "0.1960", ITA: "0.2010", USA: "0.6030" } },
      sector_area: { distribution: { "Information Technology": "0.5000", Other: "0.5000" } },
    });
  });

  test("the rounding remainder goes to the largest weight so the stored sum is exactly 1", async () => {
    const id = await createAsset(c, { classification_params: { geographic_area: { distribution: { DEU: "0.33335", FRA: "0.33335", ITA: "0.3333" } } } });
    expect((await classificationOf(id)).geographic_area.distribution).toEqual({ DEU: "0.3333", FRA: "0.3334", ITA: "0.3333" });
  });

  test("refusals are 422 with the path of the offending entry: sum off by more than 0.01, negative weight, unknown country, region", async () => {
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ geographic_area: { distribution: { ITA: "0.5", FRA: "0.48" } } }, ["geographic_area", "distribution"]],
      [{ geographic_area: { distribution: { ITA: "1.2", FRA: "-0.2" } } }, ["geographic_area", "distribution", "FRA"]],
      [{ geographic_area: { distribution: { Atlantis: "1" } } }, ["geographic_area", "distribution", "Atlantis"]],
      [{ geographic_area: { distribution: { Europe: "1" } } }, ["geographic_area", "distribution", "Europe"]],
      [{ sector_area: { distribution: {} } }, ["sector_area", "distribution"]],
      [{ sector_area: { distribution: { Energy: "abc" } } }, ["sector_area", "distribution", "Energy"]],
    ];
    for (const [classification, path] of cases) {
      const body = await expectError(await c.post("/assets", [{ name: "bad", currency: "EUR", classification_params: classification }]), 422, "VALIDATION_ERROR");
      expect(body.detail.map((d: any) => d.loc.slice(-path.length))).toContainEqual(path);
    }
  });

  test("an empty classification is stored as none", async () => {
    const id = await createAsset(c, { classification_params: { short_description: null } });
    expect(await classificationOf(id)).toBeNull();
  });

  test("PATCH replaces the classification whole and null clears it; has_metadata follows", async () => {
    const id = await createAsset(c, { classification_params: { sector_area: { distribution: { Energy: "1" } } } });
    const patched = await (await c.patch("/assets", [{ asset_id: id, classification_params: { geographic_area: { distribution: { JP: "1" } } } }])).json();
    expect(patched.results[0].updated_fields).toEqual([{
      info: "classification_params",
      old: { short_description: null, geographic_area: null, sector_area: { distribution: { Energy: "1.0000" } } },
      new: { short_description: null, geographic_area: { distribution: { JPN: "1.0000" } }, sector_area: null },
    }]);
    const row = (await (await c.get(`/assets/query?search=${encodeURIComponent((await (await c.get(`/assets/${id}`)).json()).name)}`)).json())[0];
    expect(row.has_metadata).toBe(true);
    await c.patch("/assets", [{ asset_id: id, classification_params: null }]);
    expect(await classificationOf(id)).toBeNull();
  });
});
