import { describe, expect, test } from "bun:test";
import { brokerBitvavoPlugin } from "../../plugins/broker-bitvavo/index.ts";
import { brokerCoinbasePlugin } from "../../plugins/broker-coinbase/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Hand-checked against test/fixtures/brim/{bitvavo,coinbase}/, written before the parsers.
const bitvavo = fixture("bitvavo", "transactions.csv");
const coinbase = fixture("coinbase", "transaction-history.csv");
const degiro = fixture("degiro", "Account.csv");

runImportPluginContract(brokerBitvavoPlugin, { sample: { ...bitvavo, foreign: coinbase.file, foreignBytes: coinbase.bytes } });
runImportPluginContract(brokerCoinbasePlugin, { sample: { ...coinbase, foreign: bitvavo.file, foreignBytes: bitvavo.bytes } });

describe("Bitvavo transactions export", () => {
  test("fiat deposits and withdrawals, buys and sells with EUR fees, staking rewards at their price, crypto withdrawals with their fee; cancelled rows skipped", async () => {
    const result = await (await brokerBitvavoPlugin.create({} as never)).parse(bitvavo);
    expect(pinAll(result)).toEqual([
      "2 DEPOSIT 2024-01-02 q=0 1000 EUR -",
      "3 BUY 2024-01-05 q=0.01 -400 EUR BTC",
      "3 FEE 2024-01-05 q=0 -1 EUR BTC",
      "4 BUY 2024-01-06 q=0.2 -420 EUR ETH",
      "4 FEE 2024-01-06 q=0 -1.05 EUR ETH",
      "5 ADJUSTMENT 2024-02-01 q=0.0012 no-cash ETH",
      "6 SELL 2024-03-20 q=-0.005 300 EUR BTC",
      "6 FEE 2024-03-20 q=0 -0.75 EUR BTC",
      "8 WITHDRAWAL 2024-04-02 q=0 -100 EUR -",
      "9 ADJUSTMENT 2024-04-03 q=-0.00101 no-cash BTC",
    ]);
    expect(result.transactions.find((t) => t.row === 5)?.costBasis).toEqual({ amount: "2200", currency: "EUR" } as never);
    expect(result.warnings).toEqual([expect.objectContaining({ code: "notCompleted", row: 7 })]);
  });

  test("detection: Bitvavo's header, not Coinbase's or Degiro's", async () => {
    const plugin = await brokerBitvavoPlugin.create({} as never);
    expect(plugin.accepts(bitvavo.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(coinbase.file)).toBe(0);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});

describe("Coinbase transaction history", () => {
  test("the preamble is skipped; deposits, buys and sells with fees, staking income at its price, converts as a sell and a buy, sends, withdrawals", async () => {
    const result = await (await brokerCoinbasePlugin.create({} as never)).parse(coinbase);
    expect(pinAll(result)).toEqual([
      "5 DEPOSIT 2024-01-02 q=0 1000 EUR -",
      "6 BUY 2024-01-05 q=0.01 -398 EUR BTC",
      "6 FEE 2024-01-05 q=0 -2 EUR BTC",
      "7 ADJUSTMENT 2024-01-20 q=0.0005 no-cash ETH",
      "8 SELL 2024-02-10 q=-0.002 84 EUR BTC",
      "8 BUY 2024-02-10 q=0.0365 -84 EUR ETH",
      "9 SELL 2024-03-20 q=-0.003 180 EUR BTC",
      "9 FEE 2024-03-20 q=0 -1.8 EUR BTC",
      "10 ADJUSTMENT 2024-03-25 q=-0.01 no-cash ETH",
      "11 WITHDRAWAL 2024-04-02 q=0 -100 EUR -",
    ]);
    expect(result.transactions.find((t) => t.row === 7)?.costBasis).toEqual({ amount: "2300", currency: "EUR" } as never);
  });

  test("detection: Coinbase's header, not Bitvavo's", async () => {
    const plugin = await brokerCoinbasePlugin.create({} as never);
    expect(plugin.accepts(coinbase.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(bitvavo.file)).toBe(0);
  });
});
