import { describe, expect, test } from "bun:test";
import type { IsoDate, IsoDateRange } from "../../sdk/index.ts";
import { FED_SERIES, FED_TARGETS, fedRate, parseFredCsv } from "./parse.ts";

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
  test("every target has one H.10 series, USD-per-unit only for EUR, GBP, AUD and NZD", () => {
    expect(Object.keys(FED_SERIES).sort()).toEqual([...FED_TARGETS].sort());
    const inverted = Object.entries(FED_SERIES).filter(([, s]) => s.direction === "usd-per-foreign").map(([c, s]) => `${c}:${s.id}`);
    expect(inverted.sort()).toEqual(["AUD:DEXUSAL", "EUR:DEXUSEU", "GBP:DEXUSUK", "NZD:DEXUSNZ"]);
    for (const [, { direction, id }] of Object.entries(FED_SERIES)) {
      expect(id).toMatch(direction === "usd-per-foreign" ? /^DEXUS[A-Z]{2}$/ : /^DEX[A-Z]{2}US$/);
    }
  });
});

describe("direction", () => {
  test("a USD-per-unit value inverts to 34 significant digits without float artefacts", () => {
    expect(fedRate("1.0956", "usd-per-foreign")).toBe("0.912741876597298284045271997079226");
    expect(fedRate("0.8", "usd-per-foreign")).toBe("1.25");
  });

  test("a foreign-per-USD value is kept as written, trailing zeros dropped", () => {
    expect(fedRate("143.30", "foreign-per-usd")).toBe("143.3");
    expect(fedRate("1299.1", "foreign-per-usd")).toBe("1299.1");
  });
});

describe("CSV", () => {
  test("rows inside the range become rates, oldest first; '.' and empty values are skipped", () => {
    const text = "observation_date,DEXJPUS\n2024-01-03,143.30\n2024-01-01,.\n2024-01-02,141.98\n2024-01-04,\n2024-01-05,144.69\n";
    expect(parseFredCsv(text, "DEXJPUS", "foreign-per-usd", { from: "2024-01-01", to: "2024-01-04" } as IsoDateRange)).toEqual([
      { date: "2024-01-02", rate: "141.98" }, { date: "2024-01-03", rate: "143.3" },
    ] as never);
  });

  test("the older DATE header, CRLF line ends and a byte-order mark are read alike", () => {
    const text = "\uFEFFDATE,DEXUSEU\r\n2024-01-02,0.8\r\n";
    expect(parseFredCsv(text, "DEXUSEU", "usd-per-foreign", WIDE)).toEqual([{ date: "2024-01-02", rate: "1.25" }] as never);
  });

  test("the header alone is an empty list", () => {
    expect(parseFredCsv("observation_date,DEXUSEU\n", "DEXUSEU", "usd-per-foreign", WIDE)).toEqual([]);
  });

  test("an HTML page, another series, a short row or a non-positive value is a bad response", () => {
    const read = (text: string) => reasonOf(() => parseFredCsv(text, "DEXUSEU", "usd-per-foreign", WIDE));
    expect(read("<!DOCTYPE html><html><body>maintenance</body></html>")).toBe("bad-response");
    expect(read("")).toBe("bad-response");
    expect(read("observation_date,DEXJPUS\n2024-01-02,141.98\n")).toBe("bad-response");
    expect(read("observation_date,DEXUSEU\n2024-01-02")).toBe("bad-response");
    expect(read("observation_date,DEXUSEU\n02/01/2024,1.09")).toBe("bad-response");
    expect(read("observation_date,DEXUSEU\n2024-01-02,-1.09")).toBe("bad-response");
    expect(read("observation_date,DEXUSEU\n2024-01-02,0")).toBe("bad-response");
    expect(read("observation_date,DEXUSEU\n2024-01-02,1e3")).toBe("bad-response");
  });
});
