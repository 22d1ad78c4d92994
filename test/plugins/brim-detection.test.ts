import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { brokerEtoroPlugin } from "../../plugins/broker-etoro/index.ts";
import { brokerFinecoPlugin } from "../../plugins/broker-fineco/index.ts";
import { brokerIbkrPlugin } from "../../plugins/broker-ibkr/index.ts";
import { brokerRevolutPlugin } from "../../plugins/broker-revolut/index.ts";
import { brokerSaxoPlugin } from "../../plugins/broker-saxo/index.ts";
import { brokerSchwabPlugin } from "../../plugins/broker-schwab/index.ts";
import { brokerTraderepublicPlugin } from "../../plugins/broker-traderepublic/index.ts";
import { brokerXtbPlugin } from "../../plugins/broker-xtb/index.ts";
import { workbookFixture } from "./brim-helpers.ts";

// Detection from the content alone: each of these importers claims every sample of its broker
// (≥ 0.9, whatever the file is called) and no other broker's sample (0), workbooks included.
const PLUGINS = {
  etoro: brokerEtoroPlugin, fineco: brokerFinecoPlugin, ibkr: brokerIbkrPlugin, revolut: brokerRevolutPlugin, saxo: brokerSaxoPlugin,
  schwab: brokerSchwabPlugin, traderepublic: brokerTraderepublicPlugin, xtb: brokerXtbPlugin,
};
const FIXTURES = join(import.meta.dir, "..", "fixtures", "brim");

test("each importer claims its own samples and none of the other brokers'", async () => {
  const wrong: string[] = [];
  for (const broker of readdirSync(FIXTURES)) {
    for (const name of readdirSync(join(FIXTURES, broker)).filter((n) => !n.endsWith(".ts"))) {
      const { file } = await workbookFixture(broker, name);
      const renamed = { ...file, filename: `upload.${file.extension}` };
      for (const [code, plugin] of Object.entries(PLUGINS)) {
        const confidence = (await plugin.create({} as never)).accepts(renamed);
        const own = code === broker;
        if (own ? confidence < 0.9 : confidence !== 0) wrong.push(`${code} on ${broker}/${name}: ${confidence}`);
      }
    }
  }
  expect(wrong).toEqual([]);
});
