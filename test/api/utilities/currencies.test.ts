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

type Currency = { code: string; name: string; symbol: string };

async function list(language?: string): Promise<{ currencies: Currency[]; count: number; language: string }> {
  const res = await api.get(`/utilities/currencies${language ? `?language=${language}` : ""}`);
  expect(res.status).toBe(200);
  return res.json();
}

async function normalize(name: string, language?: string) {
  const qs = new URLSearchParams({ name, ...(language ? { language } : {}) });
  const res = await api.get(`/utilities/currencies/normalize?${qs}`);
  expect(res.status).toBe(200);
  return res.json();
}

describe("GET /utilities/currencies", () => {
  test("is public: answers without a session cookie, in English by default", async () => {
    expect(api.cookie).toBe("");
    const body = await list();
    expect(body.language).toBe("en");
    expect(body.count).toBe(body.currencies.length);
  });

  test("lists the active ISO 4217 currencies, sorted by code, with EUR as Euro and €", async () => {
    const { currencies, count } = await list();
    expect(count).toBeGreaterThanOrEqual(150);
    const codes = currencies.map((c) => c.code);
    expect(codes).toEqual([...codes].sort());
    expect(new Set(codes).size).toBe(codes.length);
    const by = Object.fromEntries(currencies.map((c) => [c.code, c]));
    expect(by.EUR).toEqual({ code: "EUR", name: "Euro", symbol: "€" });
    expect(by.USD!.symbol).toBe("$");
    expect(by.GBP!.symbol).toBe("£");
    expect(by.JPY!.symbol).toBe("¥");
    expect(by.CHF!.symbol).toBe("CHF");
    expect(by.USD!.name).toBe("US Dollar");
  });

  test("leaves out precious metals, accounting units, testing codes and fund codes", async () => {
    const codes = new Set((await list()).currencies.map((c) => c.code));
    const excluded = ["XAU", "XAG", "XPT", "XPD", "XTS", "XXX", "XBA", "XBB", "XBC", "XBD", "XDR", "XSU", "XUA",
      "BOV", "CLF", "COU", "MXV", "USN", "UYI", "UYW", "CHE", "CHW"];
    expect(excluded.filter((c) => codes.has(c))).toEqual([]);
    for (const kept of ["XAF", "XOF", "XPF", "XCD", "CLP", "MXN", "UYU"]) expect(codes.has(kept)).toBe(true);
  });

  test("names follow the language: Italian USD differs from English, codes and count do not", async () => {
    const en = await list("en");
    const it = await list("it");
    expect(it.language).toBe("it");
    expect(it.count).toBe(en.count);
    const usdEn = en.currencies.find((c) => c.code === "USD")!;
    const usdIt = it.currencies.find((c) => c.code === "USD")!;
    expect(usdIt.name).not.toBe(usdEn.name);
    expect(usdIt.name.toLowerCase()).toContain("dollaro");
    expect(it.currencies.find((c) => c.code === "EUR")!.name.toLowerCase()).toBe("euro");
  });

  test("a language tag is canonicalised (en-us → en-US)", async () => {
    expect((await list("en-us")).language).toBe("en-US");
  });

  test("a malformed language is a 422 VALIDATION_ERROR on query.language, never a 500", async () => {
    for (const bad of ["english!", "e", "en_US", "x".repeat(200), "en-US-extra-stuff", "12"]) {
      const body = await expectError(
        await api.get(`/utilities/currencies?language=${encodeURIComponent(bad)}`), 422, "VALIDATION_ERROR");
      expect(body.detail[0].loc).toEqual(["query", "language"]);
    }
  });
});

describe("GET /utilities/currencies/normalize", () => {
  test("a code in any case is an exact match", async () => {
    expect(await normalize("eur")).toEqual({ query: "eur", iso_codes: ["EUR"], match_type: "exact" });
    expect((await normalize(" usd ")).iso_codes).toEqual(["USD"]);
  });

  test("a full name in English or in the language is an exact match", async () => {
    expect(await normalize("Euro")).toMatchObject({ iso_codes: ["EUR"], match_type: "exact" });
    expect(await normalize("us dollar")).toMatchObject({ iso_codes: ["USD"], match_type: "exact" });
    expect(await normalize("Pound Sterling")).toMatchObject({ iso_codes: ["GBP"], match_type: "exact" });
    expect(await normalize("franco svizzero", "it")).toMatchObject({ iso_codes: ["CHF"], match_type: "exact" });
  });

  test("a symbol of one currency is a symbol match", async () => {
    expect(await normalize("€")).toEqual({ query: "€", iso_codes: ["EUR"], match_type: "symbol" });
    expect(await normalize("R$")).toMatchObject({ iso_codes: ["BRL"], match_type: "symbol" });
  });

  test("a shared symbol is symbol_ambiguous with the most traded currency first ($ → USD, AUD, CAD, ...)", async () => {
    const body = await normalize("$");
    expect(body.match_type).toBe("symbol_ambiguous");
    expect(body.iso_codes[0]).toBe("USD");
    expect(body.iso_codes.slice(1, 3)).toEqual(["AUD", "CAD"]);
    expect(body.iso_codes.length).toBeGreaterThan(5);
    expect((await normalize("¥")).iso_codes).toEqual(["JPY", "CNY"]);
    expect((await normalize("£")).iso_codes[0]).toBe("GBP");
  });

  test("an unknown or excluded currency is not_found with an error message", async () => {
    const body = await normalize("Atlantis");
    expect(body).toMatchObject({ query: "Atlantis", iso_codes: [], match_type: "not_found" });
    expect(typeof body.error).toBe("string");
    expect((await normalize("XAU")).match_type).toBe("not_found");
  });

  test("name is required and 1-100 characters; bad input is 422, never 500", async () => {
    for (const qs of ["", "name=", "name=%20%20", `name=${"a".repeat(101)}`, "name=eur&language=e!"]) {
      await expectError(await api.get(`/utilities/currencies/normalize?${qs}`), 422, "VALIDATION_ERROR");
    }
    expect((await normalize("a".repeat(100))).match_type).toBe("not_found");
  });
});
