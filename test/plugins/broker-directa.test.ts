import { describe, expect, test } from "bun:test";
import { brokerDirectaPlugin } from "../../plugins/broker-directa/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { expectEveryLineAccounted } from "./brim-accounting.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// The Directa export as it circulates (the account block of nine lines, "Provento etf",
// "Rit.provento etf", "Cedola obb.", "Rit.cedola obb.", "Coupon certif.", "Conferimento con
// bonifico"; values invented). Each line's classification written down by hand before the parser changed.
const sample = fixture("directa", "movimenti-2024.csv");
const degiro = fixture("degiro", "Account.csv");
runImportPluginContract(brokerDirectaPlugin, { sample: { ...sample, foreign: degiro.file, foreignBytes: degiro.bytes } });

const parse = async (name: string) => (await brokerDirectaPlugin.create({} as never)).parse(fixture("directa", name));

describe("Directa movimenti, the real layout", () => {
  test("coupons are interest on the bond, ETF distributions dividends, each withholding a TAX naming its income line, capital gains tax a TAX", async () => {
    const r = await parse("movimenti-2024.csv");
    expect(r.detectedFormat).toBe("directa/movimenti");
    expect(pinAll(r)).toEqual([
      "11 WITHDRAWAL 2024-12-30 q=0 -100 EUR -",
      "12 DIVIDEND 2024-12-27 q=0 12.4 EUR IE00B2NPKV68/IEMB",
      "13 TAX 2024-12-27 q=0 -3.22 EUR IE00B2NPKV68/IEMB",
      "14 TAX 2024-12-27 q=0 -1.95 EUR -",
      "15 INTEREST 2024-12-27 q=0 9 EUR IT0006700001/CX1234",
      "16 FEE 2024-12-20 q=0 -1.5 EUR IE00B4L5Y983/SWDA order=XXXXX000",
      "17 SELL 2024-12-20 q=-1 110.5 EUR IE00B4L5Y983/SWDA order=XXXXX000",
      "18 INTEREST 2024-12-06 q=0 45 EUR IT0005500001/M.500001",
      "19 TAX 2024-12-06 q=0 -5.63 EUR IT0005500001/M.500001",
      "20 BUY 2024-12-02 q=4 -342.12 EUR IE00B2NPKV68/IEMB order=XXXXX000",
      "21 BUY 2024-12-02 q=2 -211.42 EUR IE00B4L5Y983/SWDA order=XXXXX000",
      "23 FEE 2024-01-15 q=0 -12.3 EUR IT0005500001/M.500001",
      "24 FEE 2024-01-15 q=0 -5 EUR IT0005500001/M.500001 order=XXXXX000",
      "25 BUY 2024-01-15 q=1000 -1001.2 EUR IT0005500001/M.500001 order=XXXXX000",
      "26 DEPOSIT 2024-01-02 q=0 3000 EUR -",
    ]);
    const byRow = new Map(r.transactions.map((t) => [t.row, t.description]));
    expect(byRow.get(13)).toContain("withheld from line 12");
    expect(byRow.get(19)).toContain("withheld from line 18");
    expect(r.skippedRows).toEqual([{ line: 22, reason: expect.stringContaining("Imposta di bollo") }]);
    expectEveryLineAccounted("directa", "movimenti-2024.csv", r, 10);
  });

  test("the older sample's lines are all accounted for too, its withholding naming the dividend", async () => {
    const r = await parse("movimenti.csv");
    expect(r.transactions.find((t) => t.row === 10)?.description).toContain("withheld from line 9");
    expectEveryLineAccounted("directa", "movimenti.csv", r, 4);
  });
});
