import { describe, expect, test } from "bun:test";
import type { IsoDate } from "../../sdk/index.ts";
import { HistorySchema, metadataOf, periodFor, pointsOf, quoteOf, searchHitsOf, tokenOf } from "./parse.ts";

const day = (text: string) => text as IsoDate;
const history = (points: object[], extra: object = {}) =>
  HistorySchema.parse({ history: { historyDt: points, ...extra }, transco: { code: "IT0003128367", exchCode: "XMIL" } });

describe("chart periods", () => {
  test("the shortest period reaching back to the start is chosen, else MAX", () => {
    const today = day("2024-03-31");
    expect(periodFor(day("2024-03-02"), today)).toBe("1M");
    // March 31 minus a month rolls over to March 2: a day of doubt costs a longer period, never a short one.
    expect(periodFor(day("2024-02-29"), today)).toBe("3M");
    expect(periodFor(day("2023-12-31"), today)).toBe("3M");
    expect(periodFor(day("2023-03-31"), today)).toBe("1Y");
    expect(periodFor(day("2019-03-31"), today)).toBe("5Y");
    expect(periodFor(day("2019-03-30"), today)).toBe("MAX");
  });
});

describe("history answers", () => {
  test("points are exact decimals on ISO days, oldest first, one per day", () => {
    const points = pointsOf(history([
      { closePx: 6.73, dt: "20231229", highPx: 6.763, lowPx: 6.709, openPx: 6.745, qty: 15922010.0 },
      { closePx: 6.739, dt: "20231228", lastPx: 6.739 },
      { closePx: 6.74, dt: "20231229" },
    ]), "IT0003128367");
    expect<unknown>(points).toEqual([{ close: "6.739", date: "2023-12-28" }, { close: "6.74", date: "2023-12-29" }]);
  });

  test("without transco the ISIN is unknown (not-found); a malformed day is bad-response", () => {
    expect(() => pointsOf(HistorySchema.parse({}), "X")).toThrow(expect.objectContaining({ reason: "not-found" }));
    expect(() => pointsOf(history([{ closePx: 1, dt: "20230229" }]), "X")).toThrow(expect.objectContaining({ reason: "bad-response" }));
  });

  test("the quote is the last price of the latest priced day, in EUR unless the answer says otherwise", () => {
    const points = [{ closePx: 6.782, dt: "20240102", lastPx: 6.79 }, { closePx: 6.73, dt: "20231229" }, { closePx: 0, dt: "20240103" }];
    expect<unknown>(quoteOf(history(points), "X")).toEqual({ currency: "EUR", date: "2024-01-02", price: "6.79" });
    expect<unknown>(quoteOf(history(points, { currency: "USD" }), "X").currency).toBe("USD");
    expect(() => quoteOf(history([]), "X")).toThrow(expect.objectContaining({ reason: "not-found" }));
  });
});

describe("pages", () => {
  test("the token is the token attribute of the chart page's element, found by a selector", () => {
    expect(tokenOf(`<html><body><script>var token="decoy";</script><bit-chart token=" abc.def.ghi "></bit-chart></body></html>`)).toBe("abc.def.ghi");
    expect(() => tokenOf("<html><body></body></html>")).toThrow(expect.objectContaining({ reason: "bad-response" }));
  });

  test("metadata: the h1 is the name and the path the asset type; the site search means unknown", () => {
    const page = `<html><body><h1 class="t-text">\n  <a href="#">Btp Valore   Gn27</a>\n</h1></body></html>`;
    const bond = "https://www.borsaitaliana.it/borsa/obbligazioni/mot/btp/scheda/IT0005547408-MOTX.html?lang=it";
    expect(metadataOf(page, bond, "IT0005547408")).toEqual({ assetType: "BOND", name: "Btp Valore Gn27" });
    expect(metadataOf(page, "https://www.borsaitaliana.it/borsa/other/IT1.html", "IT1")).toEqual({ name: "Btp Valore Gn27" });
    const search = "https://www.borsaitaliana.it/borsa/searchengine/search.html?q=IT1";
    expect(() => metadataOf(page, search, "IT1")).toThrow(expect.objectContaining({ reason: "not-found" }));
  });
});

describe("search answers", () => {
  test("exact symbol matches come first; only ISIN symbols count, each once, across languages", () => {
    const en = { exactSymbolMatch: [{ symbol: "IT0003128367", title: "Enel" }], quotes: [{ symbol: "2FADB602822", title: "Fund" }] };
    const it = { quotes: [{ symbol: "it0003128367", title: "Enel" }, { symbol: "IT0005580094", title: null }] };
    expect(searchHitsOf([en, it])).toEqual([
      { identifier: "IT0003128367", name: "Enel" },
      { identifier: "IT0005580094", name: "IT0005580094" },
    ]);
  });
});
