import { expect, test } from "bun:test";
import { brokerIbkrPlugin } from "../../plugins/broker-ibkr/index.ts";
import { fixture } from "./brim-helpers.ts";

// An importer states an asset's type only when its report says it (docs/import.md "Asset types").
const csv = fixture("ibkr", "flex.csv");
const parse = async (bytes: Uint8Array) => (await brokerIbkrPlugin.create({} as never)).parse({ ...csv, bytes });

test("IBKR: STK says nothing (IBKR files ETFs under it too, like VWRA here); ETF and BOND classes are stated", async () => {
  const asIs = await parse(csv.bytes);
  const vwra = asIs.transactions.find((t) => t.symbol === "VWRA" && t.type === "BUY")!;
  expect(vwra.assetType).toBeUndefined();
  const text = new TextDecoder().decode(csv.bytes);
  const typed = await parse(new TextEncoder().encode(text.replace('"USD","STK","VWRA"', '"USD","ETF","VWRA"').replaceAll('"USD","STK","AAPL"', '"USD","BOND","AAPL"')));
  expect(typed.transactions.find((t) => t.symbol === "VWRA" && t.type === "BUY")!.assetType).toBe("ETF");
  expect(typed.transactions.filter((t) => t.symbol === "AAPL" && t.type === "BUY").map((t) => t.assetType)).toEqual(["BOND", "BOND"]);
});
