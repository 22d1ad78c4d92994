import { describe, expect, test } from "bun:test";
import { brokerFinecoPlugin } from "../../plugins/broker-fineco/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Hand-checked against test/fixtures/brim/fineco/movimenti-dossier-titoli.csv, written before the parser.
const dossier = fixture("fineco", "movimenti-dossier-titoli.csv");
const degiro = fixture("degiro", "Account.csv");

runImportPluginContract(brokerFinecoPlugin, { sample: { ...dossier, foreign: degiro.file, foreignBytes: degiro.bytes } });

describe("Fineco Movimenti Dossier Titoli", () => {
  test("buys (A) and sells (V) by the Segno column; a trade in a foreign currency is paid in euros through an FX pair at Cambio; splits skipped", async () => {
    const result = await (await brokerFinecoPlugin.create({} as never)).parse(dossier);
    expect(pinAll(result)).toEqual([
      "5 BUY 2024-01-15 q=1000 -6512 EUR IT0003128367",
      "6 SELL 2024-02-20 q=-500 3400 EUR IT0003128367",
      "7 BUY 2024-03-05 q=5 -950 USD US0378331005",
      "7 FX_CONVERSION 2024-03-05 q=0 -869.96 EUR - pair",
      "7 FX_CONVERSION 2024-03-05 q=0 950 USD - pair",
    ]);
    expect(result.warnings).toEqual([expect.objectContaining({ code: "unsupportedOperation", row: 8 })]);
  });

  test("detection claims the dossier and not a Degiro file", async () => {
    const plugin = await brokerFinecoPlugin.create({} as never);
    expect(plugin.accepts(dossier.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});
