import "reflect-metadata";
import { describe, expect, test } from "bun:test";
import { WacReplay, type WacRow } from "../../../core/transactions/wac.calc.ts";

const row = (type: string, quantity: string, amount: string | null, extra: Partial<WacRow> = {}): WacRow =>
  ({ type, quantity, amount, currency: amount === null ? null : "EUR", cost_basis_override: null, cost_basis_currency: null, ...extra });

/** Buys, sells (into a short and back), inflows with and without a cost, in a foreign currency too. */
const ROWS: WacRow[] = [
  row("BUY", "3", "-10"), row("BUY", "7", "-33.33"), row("SELL", "-4", "20"), row("TRANSFER", "2", null, { cost_basis_override: "4.1", cost_basis_currency: "USD" }),
  row("SELL", "-9", "50"), row("SELL", "-3", "12"), row("BUY", "1", "-7"), row("BUY", "5", "-3.3333333"), row("ADJUSTMENT", "2", null),
  row("SELL", "-1", "0.01"), row("TRANSFER", "3", null, { cost_basis_override: "2.75", cost_basis_currency: "EUR" }), row("SELL", "-2", "9"),
];

const figures = (r: WacReplay) => {
  const p = r.result();
  return { quantity: p.quantity.toFixed(), totalCost: p.totalCost.toFixed(), average: p.average?.toFixed() ?? null, mixed: p.mixedCurrencies };
};

describe("a WAC replay continued from a kept state (ledger checkpoints)", () => {
  test("stopping after any row, keeping the state as JSON and continuing gives the same pool to the last digit", () => {
    const whole = new WacReplay("EUR");
    for (const r of ROWS) whole.apply(r);
    for (let cut = 0; cut <= ROWS.length; cut++) {
      const first = new WacReplay("EUR");
      for (const r of ROWS.slice(0, cut)) first.apply(r);
      const resumed = new WacReplay("EUR", JSON.parse(JSON.stringify(first.state())));
      for (const r of ROWS.slice(cut)) resumed.apply(r);
      expect({ cut, ...figures(resumed) }).toEqual({ cut, ...figures(whole) });
    }
  });

  test("a state is not continued in another currency", () => {
    expect(() => new WacReplay("USD", new WacReplay("EUR").state())).toThrow();
  });
});
