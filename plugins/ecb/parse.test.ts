import { describe, expect, test } from "bun:test";
import type { IsoDate, IsoDateRange } from "../../sdk/index.ts";
import { ecbSeriesKey, parseEcbJson } from "./parse.ts";

const WIDE: IsoDateRange = { from: "2000-01-01" as IsoDate, to: "2099-12-31" as IsoDate };

function sdmx(series: Record<string, Record<string, unknown[]>>, currencies: string[], days: string[]): string {
  return JSON.stringify({
    dataSets: [{ action: "Replace", series: Object.fromEntries(Object.entries(series).map(([key, observations]) => [key, { observations }])) }],
    header: { id: "test" },
    structure: {
      dimensions: {
        observation: [{ id: "TIME_PERIOD", values: days.map((id) => ({ id })) }],
        series: [
          { id: "FREQ", values: [{ id: "D" }] },
          { id: "CURRENCY", values: currencies.map((id) => ({ id })) },
          { id: "CURRENCY_DENOM", values: [{ id: "EUR" }] },
          { id: "EXR_TYPE", values: [{ id: "SP00" }] },
          { id: "EXR_SUFFIX", values: [{ id: "A" }] },
        ],
      },
    },
  });
}

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { reason?: string }).reason;
  }
  return undefined;
}

describe("series key", () => {
  test("currencies are joined with + into the daily EUR spot key", () => {
    expect(ecbSeriesKey(["USD", "JPY"])).toBe("D.USD+JPY.EUR.SP00.A");
  });
});

describe("SDMX-JSON", () => {
  test("series keys map to currencies and observation indices to days, oldest first", () => {
    const text = sdmx(
      { "0:0:0:0:0": { "1": [1.0919, 0, 0], "0": [1.0956, 0, 0] }, "0:1:0:0:0": { "0": [157.21, 0, 0] } },
      ["USD", "JPY"],
      ["2024-01-02", "2024-01-03"],
    );
    const rates = parseEcbJson(text, WIDE);
    expect(rates.get("USD")).toEqual({ ok: true, value: [{ date: "2024-01-02", rate: "1.0956" }, { date: "2024-01-03", rate: "1.0919" }] } as never);
    expect(rates.get("JPY")).toEqual({ ok: true, value: [{ date: "2024-01-02", rate: "157.21" }] } as never);
  });

  test("a JSON number becomes its shortest round-trip text (1.1 stays 1.1), exponents written out", () => {
    const text = sdmx({ "0:0:0:0:0": { "0": [0.1 + 0.2, 0], "1": [1e-7, 0], "2": [16255.3, 0] } }, ["IDR"], ["2024-01-02", "2024-01-03", "2024-01-04"]);
    expect(parseEcbJson(text, WIDE).get("IDR")).toEqual({
      ok: true, value: [{ date: "2024-01-02", rate: "0.30000000000000004" }, { date: "2024-01-03", rate: "0.0000001" }, { date: "2024-01-04", rate: "16255.3" }],
    } as never);
    expect(parseEcbJson(sdmx({ "0:0:0:0:0": { "0": [1.1, 0] } }, ["USD"], ["2024-01-02"]), WIDE).get("USD")).toEqual({ ok: true, value: [{ date: "2024-01-02", rate: "1.1" }] } as never);
  });

  test("null observations and days outside the range are left out", () => {
    const text = sdmx({ "0:0:0:0:0": { "0": [null, 0], "1": [1.0919, 0], "2": [1.0953, 0] } }, ["USD"], ["2024-01-02", "2024-01-03", "2024-01-04"]);
    const rates = parseEcbJson(text, { from: "2024-01-02", to: "2024-01-03" } as IsoDateRange);
    expect(rates.get("USD")).toEqual({ ok: true, value: [{ date: "2024-01-03", rate: "1.0919" }] } as never);
  });

  test("a negative or zero value fails its currency alone", () => {
    const text = sdmx({ "0:0:0:0:0": { "0": [-1.09, 0] }, "0:1:0:0:0": { "0": [157.21, 0] }, "0:2:0:0:0": { "0": [0, 0] } }, ["USD", "JPY", "GBP"], ["2024-01-02"]);
    const rates = parseEcbJson(text, WIDE);
    expect(rates.get("USD")).toMatchObject({ error: { reason: "bad-response" }, ok: false });
    expect(rates.get("GBP")).toMatchObject({ error: { reason: "bad-response" }, ok: false });
    expect(rates.get("JPY")).toMatchObject({ ok: true });
  });

  test("an answer with no series is an empty map", () => {
    expect(parseEcbJson(sdmx({}, [], []), WIDE).size).toBe(0);
  });

  test("a body that is not SDMX-JSON is a bad response", () => {
    expect(reasonOf(() => parseEcbJson("<html><body>maintenance</body></html>", WIDE))).toBe("bad-response");
    expect(reasonOf(() => parseEcbJson('{"message":"oops"}', WIDE))).toBe("bad-response");
    expect(reasonOf(() => parseEcbJson('{"dataSets":[{"series":{"0:0', WIDE))).toBe("bad-response");
    const noCurrency = JSON.stringify({ dataSets: [], structure: { dimensions: { observation: [{ id: "TIME_PERIOD", values: [] }], series: [{ id: "FREQ", values: [] }] } } });
    expect(reasonOf(() => parseEcbJson(noCurrency, WIDE))).toBe("bad-response");
    expect(reasonOf(() => parseEcbJson(sdmx({ "0:5:0:0:0": { "0": [1, 0] } }, ["USD"], ["2024-01-02"]), WIDE))).toBe("bad-response");
  });
});
