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
});
