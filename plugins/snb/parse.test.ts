import { describe, expect, test } from "bun:test";
import type { IsoDate, IsoDateRange } from "../../sdk/index.ts";
import { invertQuote, monthEnd, parseSnbCsv, snbQueryMonth } from "./parse.ts";

const WIDE: IsoDateRange = { from: "2000-01-01" as IsoDate, to: "2099-12-31" as IsoDate };
const HEAD = '"CubeId";"devkum"\n"PublishingDate";"2024-04-02 09:00"\n\n"Date";"D0";"D1";"Value"\n';

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { reason?: string }).reason;
  }
  return undefined;
}

describe("months", () => {
  test("a month's value is dated on its last day, leap years included", () => {
    expect(monthEnd("2024-01")).toBe("2024-01-31" as IsoDate);
    expect(monthEnd("2024-02")).toBe("2024-02-29" as IsoDate);
    expect(monthEnd("2023-02")).toBe("2023-02-28" as IsoDate);
    expect(monthEnd("2023-12")).toBe("2023-12-31" as IsoDate);
    expect(snbQueryMonth("2024-03-15" as IsoDate)).toBe("2024-03");
  });
});

describe("inversion", () => {
  test("CHF per unit inverts to 34 significant digits without float artefacts", () => {
    expect(invertQuote("0.8", "1")).toBe("1.25");
    expect(invertQuote("0.9385", "1")).toBe("1.065530101225359616409163558870538");
  });

  test("a per-100 quote is divided by 100 exactly before inverting", () => {
    expect(invertQuote("0.5842", "100")).toBe("171.1742553919890448476549127011298");
    expect(invertQuote("12.5", "100")).toBe("8");
  });
});

describe("CSV", () => {
  test("rows become per-currency rates, month end preferred over the average, oldest first", () => {
    const text = `${HEAD}"2024-02";"M1";"EUR1";"0.9379"\n"2024-01";"M0";"EUR1";"0.9381"\n"2024-01";"M1";"EUR1";"0.8"\n"2024-01";"M0";"USD1";"0.5"\n`;
    const rates = parseSnbCsv(text, WIDE);
    expect(rates.get("EUR")).toEqual({
      ok: true, value: [{ date: "2024-01-31", rate: "1.25" }, { date: "2024-02-29", rate: "1.066211749653481181362618616057149" }],
    } as never);
    expect(rates.get("USD")).toEqual({ ok: true, value: [{ date: "2024-01-31", rate: "2" }] } as never);
  });

  test("months whose last day is outside the range, blank values and unknown measures are left out", () => {
    const text = `${HEAD}"2024-01";"M1";"EUR1";"0.8"\n"2024-02";"M1";"EUR1";""\n"2024-02";"X9";"USD1";"0.5"\n`;
    const rates = parseSnbCsv(text, { from: "2024-01-31", to: "2024-03-30" } as IsoDateRange);
    expect(rates.get("EUR")).toEqual({ ok: true, value: [{ date: "2024-01-31", rate: "1.25" }] } as never);
    expect(rates.has("USD")).toBe(false);
    expect(parseSnbCsv(HEAD, WIDE).size).toBe(0);
  });

  test("a value that is not a plain positive decimal fails its currency alone", () => {
    const rates = parseSnbCsv(`${HEAD}"2024-01";"M1";"EUR1";"-0.9"\n"2024-01";"M1";"USD1";"0.5"\n`, WIDE);
    expect(rates.get("EUR")).toMatchObject({ error: { reason: "bad-response" }, ok: false });
    expect(rates.get("USD")).toMatchObject({ ok: true });
  });

  test("a body without the Date;D0;D1;Value header, or a short row, is a bad response", () => {
    expect(reasonOf(() => parseSnbCsv("<html><body>maintenance</body></html>", WIDE))).toBe("bad-response");
    expect(reasonOf(() => parseSnbCsv('{"message":"oops"}', WIDE))).toBe("bad-response");
    expect(reasonOf(() => parseSnbCsv(`${HEAD}"2024-01";"M1"`, WIDE))).toBe("bad-response");
    expect(reasonOf(() => parseSnbCsv(`${HEAD}"2024-13";"M1";"EUR1";"0.9"`, WIDE))).toBe("bad-response");
  });
});
