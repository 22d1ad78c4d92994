import { describe, expect, test } from "bun:test";
import { MAX_STEPS, type ProviderEdges, searchRoutes, type SearchStep } from "../../../core/fx/route-search.calc.ts";

const e = (provider: string, base: string, ...targets: string[]): ProviderEdges => ({ base, provider, targets });
const show = (path: SearchStep[]) => path.map((s) => `${s.from}>${s.to}:${s.provider}${s.reversed ? "~" : ""}`).join(" ");
const currencies = (path: SearchStep[]) => [path[0]!.from, ...path.map((s) => s.to)];

/** A chain A-B-C-D-E-F, one provider per edge, so a path's length is the distance. */
const LINE = [e("L1", "AAA", "BBB"), e("L2", "BBB", "CCC"), e("L3", "CCC", "DDD"), e("L4", "DDD", "EEE"), e("L5", "EEE", "FFF")];

/** A dense synthetic graph: EUR hub, USD hub, GBP hub, CHF hub, two providers sharing USD/JPY. */
const DENSE = [
  e("ECB", "EUR", "USD", "GBP", "CHF", "JPY", "SEK"),
  e("FED", "USD", "EUR", "JPY", "CAD", "MXN"),
  e("BOE", "GBP", "USD", "EUR", "INR"),
  e("SNB", "CHF", "EUR", "USD", "JPY"),
  e("XJP", "JPY", "KRW"),
];

describe("route search", () => {
  test("a native step runs from the provider's base to a target", () => {
    expect(searchRoutes([e("P", "AAA", "BBB")], "AAA", "BBB").map(show)).toEqual(["AAA>BBB:P"]);
  });

  test("a step may run in reverse, marked so its rate is inverted", () => {
    const [path] = searchRoutes([e("P", "AAA", "BBB")], "BBB", "AAA");
    expect(path).toEqual([{ from: "BBB", provider: "P", reversed: true, to: "AAA" }]);
  });

  test("reversed and native steps mix in one path", () => {
    expect(searchRoutes([e("P", "AAA", "BBB"), e("Q", "CCC", "BBB")], "AAA", "CCC").map(show)).toEqual(["AAA>BBB:P BBB>CCC:Q~"]);
  });

  test("a route has at most 4 steps", () => {
    expect(searchRoutes(LINE, "AAA", "EEE").map(show)).toEqual(["AAA>BBB:L1 BBB>CCC:L2 CCC>DDD:L3 DDD>EEE:L4"]);
    expect(searchRoutes(LINE, "AAA", "FFF")).toEqual([]);
    expect(searchRoutes(LINE, "FFF", "BBB").map((p) => p.length)).toEqual([4]);
    for (const path of searchRoutes(DENSE, "SEK", "KRW")) expect(path.length).toBeLessThanOrEqual(MAX_STEPS);
  });

  test("maxSteps narrows the search but never widens it past 4", () => {
    expect(searchRoutes(LINE, "AAA", "EEE", { maxSteps: 3 })).toEqual([]);
    expect(searchRoutes(LINE, "AAA", "FFF", { maxSteps: 9 })).toEqual([]);
  });

  test("no currency appears twice in a path and the source is never revisited", () => {
    // Two providers quote AAA/BBB: without the rule, AAA>BBB>AAA>BBB>CCC would be a 4-step path.
    const edges = [e("X", "AAA", "BBB"), e("Y", "BBB", "AAA"), e("Z", "BBB", "CCC")];
    expect(searchRoutes(edges, "AAA", "CCC").map(show)).toEqual(["AAA>BBB:X BBB>CCC:Z", "AAA>BBB:Y~ BBB>CCC:Z"]);
    for (const path of searchRoutes(DENSE, "SEK", "KRW")) {
      const seen = currencies(path);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.slice(1)).not.toContain("SEK");
    }
  });

  test("one provider appears at most twice in a path", () => {
    const edges = [e("P", "AAA", "BBB"), e("P", "BBB", "CCC"), e("P", "CCC", "DDD")];
    expect(searchRoutes(edges, "AAA", "CCC").map(show)).toEqual(["AAA>BBB:P BBB>CCC:P"]);
    expect(searchRoutes(edges, "AAA", "DDD")).toEqual([]);
    expect(searchRoutes([...edges, e("Q", "CCC", "DDD")], "AAA", "DDD").map(show)).toEqual(["AAA>BBB:P BBB>CCC:P CCC>DDD:Q"]);
    for (const path of searchRoutes(DENSE, "SEK", "KRW")) {
      const counts = new Map<string, number>();
      for (const s of path) counts.set(s.provider, (counts.get(s.provider) ?? 0) + 1);
      expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
    }
  });

  test("MANUAL is excluded from the graph, whatever its case", () => {
    expect(searchRoutes([e("MANUAL", "AAA", "BBB")], "AAA", "BBB")).toEqual([]);
    expect(searchRoutes([e("manual", "AAA", "BBB"), e("P", "AAA", "CCC"), e("Q", "CCC", "BBB")], "AAA", "BBB").map(show))
      .toEqual(["AAA>CCC:P CCC>BBB:Q"]);
  });

  test("paths are ordered by length, shortest first", () => {
    const paths = searchRoutes(DENSE, "EUR", "JPY");
    expect(paths.length).toBeGreaterThan(5);
    expect(paths[0]!.length).toBe(1);
    const lengths = paths.map((p) => p.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
  });

  test("within a length, native steps come before reversed ones, then by provider", () => {
    const paths = searchRoutes(DENSE, "EUR", "USD").filter((p) => p.length === 1).map(show);
    expect(paths).toEqual(["EUR>USD:ECB", "EUR>USD:FED~"]);
  });

  test("the order is deterministic whatever the order of the provider list", () => {
    const shuffled = [...DENSE].reverse().map((x) => ({ ...x, targets: [...x.targets].reverse() }));
    expect(searchRoutes(shuffled, "SEK", "KRW").map(show)).toEqual(searchRoutes(DENSE, "SEK", "KRW").map(show));
  });

  test("every path is continuous and ends at the target", () => {
    for (const path of searchRoutes(DENSE, "INR", "CAD")) {
      expect(path[0]!.from).toBe("INR");
      expect(path.at(-1)!.to).toBe("CAD");
      for (let i = 1; i < path.length; i++) expect(path[i]!.from).toBe(path[i - 1]!.to);
    }
  });

  test("no path: disconnected currencies, unknown currencies, or the same currency", () => {
    expect(searchRoutes([e("P", "AAA", "BBB"), e("Q", "CCC", "DDD")], "AAA", "DDD")).toEqual([]);
    expect(searchRoutes(DENSE, "EUR", "ZZZ")).toEqual([]);
    expect(searchRoutes(DENSE, "EUR", "EUR")).toEqual([]);
    expect(searchRoutes([], "EUR", "USD")).toEqual([]);
  });

  test("a limit keeps the shortest paths", () => {
    const all = searchRoutes(DENSE, "EUR", "JPY").map(show);
    expect(searchRoutes(DENSE, "EUR", "JPY", { limit: 3 }).map(show)).toEqual(all.slice(0, 3));
  });

  test("a duplicate provider entry gives no duplicate path", () => {
    expect(searchRoutes([e("P", "AAA", "BBB"), e("P", "AAA", "BBB", "BBB")], "AAA", "BBB")).toHaveLength(1);
  });
});
