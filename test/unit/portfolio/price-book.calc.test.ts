import { describe, expect, test } from "bun:test";
import { PriceBook } from "../../../core/portfolio/price-book.calc.ts";
import type { AssetInfo, LedgerTx } from "../../../core/portfolio/report-input.ts";

const asset = (over: Partial<AssetInfo> = {}): AssetInfo => ({
  id: 1, name: "A", ticker: null, type: "STOCK", currency: "EUR", quoteBaseQuantity: "1", hasProvider: false, sectors: null, geography: null, ...over,
});
const trade = (id: number, date: string, quantity: string, amount: string): LedgerTx => ({
  id, brokerId: 1, assetId: 1, type: Number(quantity) > 0 ? "BUY" : "SELL", date, quantity, amount, currency: "EUR", relatedId: null,
  partnerBrokerId: null, partnerDate: null, costBasisOverride: null, costBasisCurrency: null, splitLinked: false,
});

describe("price book (valuation price)", () => {
  test("the latest observation on or before the day; nothing before the first is MISSING", () => {
    const book = new PriceBook([asset()], { 1: { dates: ["2024-01-02", "2024-01-05"], closes: ["10", "12"] } }, [], []);
    expect(book.at(1, "2024-01-01")).toBeNull();
    expect(book.at(1, "2024-01-04")!.price.toFixed()).toBe("10");
    expect(book.at(1, "2024-01-05")!.source).toBe("MARKET_PRICE");
    expect(book.at(1, "2024-01-09")!.date).toBe("2024-01-05");
  });

  test("a newer trade price wins over an older quote; same-day trades are averaged; on one day a quote wins", () => {
    const txs = [trade(1, "2024-01-03", "2", "-30"), trade(2, "2024-01-03", "-1", "14"), trade(3, "2024-01-05", "1", "-99")];
    const book = new PriceBook([asset()], { 1: { dates: ["2024-01-02", "2024-01-05"], closes: ["10", "12"] } }, [], txs);
    const obs = book.at(1, "2024-01-04")!;
    expect(obs.source).toBe("LAST_TRADE_PRICE");
    expect(obs.price.toFixed()).toBe(String((15 + 14) / 2));
    expect(book.quoteIndexAt(1, "2024-01-04")).toBe(-1);
    expect(book.at(1, "2024-01-05")!.price.toFixed()).toBe("12");
    expect(book.quoteIndexAt(1, "2024-01-05")).toBe(1);
  });

  test("a close is per quote_base_quantity units; a trade price older than a split is divided by its ratio", () => {
    const bond = new PriceBook([asset({ quoteBaseQuantity: "100" })], { 1: { dates: ["2024-01-02"], closes: ["98.5"] } }, [], []);
    expect(bond.at(1, "2024-01-02")!.price.toFixed()).toBe("0.985");
    const split = new PriceBook([asset()], {}, [{ assetId: 1, date: "2024-01-10", ratio: "2" }], [trade(1, "2024-01-03", "1", "-200")]);
    const obs = split.at(1, "2024-01-11")!;
    expect(obs.price.toFixed()).toBe("100");
    expect(obs.splitAdjusted).toBe(true);
  });

  test("on a day with trades in two currencies the last currency's trades give the price, averaged", () => {
    const usd = (t: LedgerTx): LedgerTx => ({ ...t, currency: "USD" });
    const txs = [
      trade(1, "2024-01-03", "1", "-10"), usd(trade(2, "2024-01-03", "1", "-30")), usd(trade(3, "2024-01-03", "-2", "50")),
      trade(4, "2024-01-04", "1", "-7"), usd(trade(5, "2024-01-04", "1", "-9")), trade(6, "2024-01-04", "1", "-8"),
    ];
    const book = new PriceBook([asset()], {}, [], txs);
    const first = book.at(1, "2024-01-03")!;
    expect([first.price.toFixed(), first.currency, first.date]).toEqual([String((30 + 25) / 2), "USD", "2024-01-03"]);
    // Back to EUR on the next day: only the EUR trades after the USD one count.
    const second = book.at(1, "2024-01-04")!;
    expect([second.price.toFixed(), second.currency]).toEqual(["8", "EUR"]);
  });

  test("a book taken over for an incremental report answers as a book built afresh on the new transactions", () => {
    const before = [trade(1, "2024-01-02", "1", "-10"), trade(2, "2024-01-04", "2", "-24"), trade(3, "2024-01-06", "1", "-14"), trade(4, "2024-01-08", "1", "-15")];
    const old = new PriceBook([asset()], {}, [{ assetId: 1, date: "2024-01-07", ratio: "2" }], before);
    const days = ["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05", "2024-01-06", "2024-01-07", "2024-01-08", "2024-01-09"];
    // Prices asked for (and kept) before the change.
    for (const d of days) old.at(1, d);
    // From the 5th on: the 6th's trade is edited, one is added on the 9th (the rows before stay the same).
    const after = [...before.slice(0, 2), trade(3, "2024-01-06", "1", "-18"), trade(4, "2024-01-08", "1", "-15"), trade(5, "2024-01-09", "-1", "16")];
    const splits = [{ assetId: 1, date: "2024-01-07", ratio: "2" }];
    const reused = new PriceBook([asset()], {}, splits, after, { book: old, before: "2024-01-05" });
    const fresh = new PriceBook([asset()], {}, splits, after);
    for (const d of days) expect(reused.at(1, d)).toEqual(fresh.at(1, d));
    expect(reused.at(1, "2024-01-07")!.price.toFixed()).toBe("9");
    expect(reused.at(1, "2024-01-04")!.price.toFixed()).toBe("12");
  });
});
