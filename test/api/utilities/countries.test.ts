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

type Country = { iso3: string; iso2: string; name: string; flag_emoji: string };

async function list(language?: string): Promise<{ countries: Country[]; count: number; language: string }> {
  const res = await api.get(`/utilities/countries${language ? `?language=${language}` : ""}`);
  expect(res.status).toBe(200);
  return res.json();
}

async function normalize(name: string, language?: string) {
  const qs = new URLSearchParams({ name, ...(language ? { language } : {}) });
  const res = await api.get(`/utilities/countries/normalize?${qs}`);
  expect(res.status).toBe(200);
  return res.json();
}

const EU27 = ["AUT", "BEL", "BGR", "CYP", "CZE", "DEU", "DNK", "ESP", "EST", "FIN", "FRA", "GRC", "HRV", "HUN",
  "IRL", "ITA", "LTU", "LUX", "LVA", "MLT", "NLD", "POL", "PRT", "ROU", "SVK", "SVN", "SWE"];

describe("GET /utilities/countries", () => {
  test("is public and lists every ISO 3166 country with iso2, iso3 and flag (ITA: IT, 🇮🇹)", async () => {
    expect(api.cookie).toBe("");
    const body = await list();
    expect(body.language).toBe("en");
    expect(body.count).toBe(body.countries.length);
    expect(body.count).toBeGreaterThanOrEqual(249);
    expect(body.countries.find((c) => c.iso3 === "ITA")).toEqual({ iso3: "ITA", iso2: "IT", name: "Italy", flag_emoji: "🇮🇹" });
    for (const c of body.countries) {
      expect(c.iso2).toMatch(/^[A-Z]{2}$/);
      expect(c.iso3).toMatch(/^[A-Z]{3}$/);
      expect([...c.flag_emoji].length).toBe(2);
    }
  });

  test("is sorted by the name in the requested language", async () => {
    const it = await list("it");
    expect(it.language).toBe("it");
    expect(it.countries.find((c) => c.iso3 === "DEU")!.name).toBe("Germania");
    const names = it.countries.map((c) => c.name);
    expect(names).toEqual([...names].sort(new Intl.Collator("it").compare));
  });

  test("a malformed language is a 422 VALIDATION_ERROR", async () => {
    await expectError(await api.get("/utilities/countries?language=not-a-language!"), 422, "VALIDATION_ERROR");
  });
});

describe("GET /utilities/countries/normalize", () => {
  test("an ISO code or an English name or alias is an exact match", async () => {
    expect(await normalize("Italy")).toEqual({ query: "Italy", iso3_codes: ["ITA"], match_type: "exact" });
    for (const q of ["ita", "IT", "USA", "U.S.A.", "United States", "UK", "Great Britain"]) {
      const body = await normalize(q);
      expect(body.match_type).toBe("exact");
      expect(body.iso3_codes).toHaveLength(1);
    }
    expect((await normalize("United States")).iso3_codes).toEqual(["USA"]);
    expect((await normalize("Great Britain")).iso3_codes).toEqual(["GBR"]);
  });

  test("a name in a major European language matches too (Deutschland → DEU)", async () => {
    expect(await normalize("Deutschland")).toMatchObject({ iso3_codes: ["DEU"], match_type: "exact" });
    expect(await normalize("Niemcy", "pl")).toMatchObject({ iso3_codes: ["DEU"], match_type: "exact" });
  });

  test("EU is a region of the 27 member states", async () => {
    const body = await normalize("EU");
    expect(body.match_type).toBe("region");
    expect(body.iso3_codes).toEqual(EU27);
    expect((await normalize("European Union")).iso3_codes).toEqual(EU27);
  });

  test("the euro area of 2026 has 21 members, including Croatia and Bulgaria, all in the EU", async () => {
    const body = await normalize("Eurozone");
    expect(body.match_type).toBe("region");
    expect(body.iso3_codes).toHaveLength(21);
    expect(body.iso3_codes).toContain("HRV");
    expect(body.iso3_codes).toContain("BGR");
    expect(body.iso3_codes.every((c: string) => EU27.includes(c))).toBe(true);
    for (const outside of ["POL", "SWE", "DNK", "CZE", "HUN", "ROU"]) expect(body.iso3_codes).not.toContain(outside);
  });

  test("every region lists known, distinct country codes", async () => {
    const known = new Set((await list()).countries.map((c) => c.iso3));
    for (const region of ["EU", "Eurozone", "Europe", "North America", "Asia", "G7"]) {
      const body = await normalize(region);
      expect(body.match_type).toBe("region");
      expect(new Set(body.iso3_codes).size).toBe(body.iso3_codes.length);
      expect(body.iso3_codes.filter((c: string) => !known.has(c))).toEqual([]);
    }
    expect((await normalize("G7")).iso3_codes).toEqual(["CAN", "DEU", "FRA", "GBR", "ITA", "JPN", "USA"]);
  });

  test("an unknown name is not_found with an error message", async () => {
    const body = await normalize("Atlantis");
    expect(body).toMatchObject({ query: "Atlantis", iso3_codes: [], match_type: "not_found" });
    expect(typeof body.error).toBe("string");
  });

  test("name is required and at most 100 characters (422)", async () => {
    for (const qs of ["", "name=", `name=${"x".repeat(101)}`]) {
      await expectError(await api.get(`/utilities/countries/normalize?${qs}`), 422, "VALIDATION_ERROR");
    }
  });
});
