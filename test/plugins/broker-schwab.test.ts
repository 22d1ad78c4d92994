import { describe, expect, test } from "bun:test";
import { brokerSchwabPlugin } from "../../plugins/broker-schwab/index.ts";
import { fixture, pinAll, unaccounted } from "./brim-helpers.ts";

// Income actions of real Schwab exports that were not classified (transactions-income.csv: invented
// values in the export's structure), pinned by hand before the parser learned them.
describe("Charles Schwab: the income actions of real exports", () => {
  test("Qual Div Reinvest, Pr Yr Div Reinvest, Special Non Qual Div and cap gains are dividends; share moves without cash and the total line are accounted for", async () => {
    const result = await (await brokerSchwabPlugin.create({} as never)).parse(fixture("schwab", "transactions-income.csv"));
    expect(pinAll(result)).toEqual([
      "2 BUY 2023-11-01 q=1.6531 -694.48 USD SPY",
      "3 DIVIDEND 2023-10-31 q=0 149.64 USD GBDC",
      "4 DIVIDEND 2023-01-31 q=0 932.07 USD SPY",
      "5 DIVIDEND 2023-06-20 q=0 11.41 USD TSLX",
      "6 DIVIDEND 2023-03-28 q=0 99.02 USD DGLRX",
      "7 FEE 2023-08-24 q=0 -519.67 USD -",
    ]);
    expect(result.warnings.map((w) => `${w.row} ${w.code}`)).toEqual(["8 unsupportedAction", "9 unsupportedAction", "10 summaryRowSkipped"]);
    expect(unaccounted(result, [2, 3, 4, 5, 6, 7, 8, 9, 10])).toEqual([]);
  });

  test("a share move without cash is skipped naming the line, the action and why: it moves no cash, the shares are entered by hand", async () => {
    const result = await (await brokerSchwabPlugin.create({} as never)).parse(fixture("schwab", "transactions-income.csv"));
    expect(result.skippedRows?.slice(0, 2)).toEqual([
      {
        line: 8,
        reason: 'Line 8: "Journaled Shares" (DGLRX, 05/22/2023, -877) moves no cash (a split, journaled shares or another move of shares, with no price); not imported, enter the shares it moved by hand as an ADJUSTMENT (shares moved in with their cost basis)',
      },
      {
        line: 9,
        reason: 'Line 9: "Stock Split" (AVGO, 07/15/2024 as of 07/12/2024, 9) moves no cash (a split, journaled shares or another move of shares, with no price); not imported, enter the shares it moved by hand as an ADJUSTMENT (shares moved in with their cost basis)',
      },
    ]);
  });
});
