import { describe, expect, test } from "bun:test";
import type { IsoDate, IsoDateRange } from "../../sdk/index.ts";
import { BOE_SERIES, BOE_TARGETS, boeCsvDay, boeQueryDate, parseBoeCsv } from "./parse.ts";

const WIDE: IsoDateRange = { from: "2000-01-01" as IsoDate, to: "2099-12-31" as IsoDate };

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { reason?: string }).reason;
  }
  return undefined;
}

describe("series table", () => {
  test("every target currency has exactly one XUDL series", () => {
    expect(Object.keys(BOE_SERIES).sort()).toEqual([...BOE_TARGETS].sort());
    expect(new Set(Object.values(BOE_SERIES)).size).toBe(BOE_TARGETS.length);
  });
});

describe("dates", () => {
  test("queries use DD/Mon/YYYY and the CSV's DD Mon YYYY reads back as an ISO day", () => {
    expect(boeQueryDate("2024-01-02" as IsoDate)).toBe("02/Jan/2024");
    expect(boeQueryDate("2023-12-29" as IsoDate)).toBe("29/Dec/2023");
    expect(boeCsvDay("02 Jan 2024")).toBe("2024-01-02" as IsoDate);
    expect(boeCsvDay("29 Feb 2024")).toBe("2024-02-29" as IsoDate);
  });

  test("an impossible or foreign day is unreadable", () => {
    expect(boeCsvDay("30 Feb 2024")).toBeUndefined();
    expect(boeCsvDay("2024-01-02")).toBeUndefined();
    expect(boeCsvDay("02 Foo 2024")).toBeUndefined();
  });
});

describe("CSV", () => {
  test("values are decimal strings read from the text, oldest first, blanks absent", () => {
    const rates = parseBoeCsv("DATE,XUDLUSS,XUDLJYS\r\n03 Jan 2024,1.2650,179.32\r\n02 Jan 2024,1.2654,\r\n", WIDE);
    expect(rates.get("XUDLUSS")).toEqual({ ok: true, value: [{ date: "2024-01-02", rate: "1.2654" }, { date: "2024-01-03", rate: "1.265" }] } as never);
    expect(rates.get("XUDLJYS")).toEqual({ ok: true, value: [{ date: "2024-01-03", rate: "179.32" }] } as never);
  });

  test("only days inside the range are kept; a header alone is empty series", () => {
    const range = { from: "2024-01-03", to: "2024-01-03" } as IsoDateRange;
    expect(parseBoeCsv("DATE,XUDLUSS\n02 Jan 2024,1.2654\n03 Jan 2024,1.265\n", range).get("XUDLUSS")).toEqual({
      ok: true, value: [{ date: "2024-01-03", rate: "1.265" }],
    } as never);
    expect(parseBoeCsv("DATE,XUDLUSS\n", WIDE).get("XUDLUSS")).toEqual({ ok: true, value: [] } as never);
  });

  test("a value that is not a plain positive decimal fails its series alone", () => {
    const rates = parseBoeCsv("DATE,XUDLUSS,XUDLERS\n02 Jan 2024,1e3,1.1537\n", WIDE);
    expect(rates.get("XUDLUSS")).toMatchObject({ error: { reason: "bad-response" }, ok: false });
    expect(rates.get("XUDLERS")).toEqual({ ok: true, value: [{ date: "2024-01-02", rate: "1.1537" }] } as never);
  });

  test("an HTML page, a short row or an unreadable day is a bad response", () => {
    expect(reasonOf(() => parseBoeCsv("<!DOCTYPE html><html></html>", WIDE))).toBe("bad-response");
    expect(reasonOf(() => parseBoeCsv("", WIDE))).toBe("bad-response");
    expect(reasonOf(() => parseBoeCsv("DATE,XUDLUSS,XUDLERS\n02 Jan 2024,1.26", WIDE))).toBe("bad-response");
    expect(reasonOf(() => parseBoeCsv("DATE,XUDLUSS\n2024-01-02,1.26", WIDE))).toBe("bad-response");
  });
});
