import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeFile } from "../../sdk/import/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import plugin from "../fixtures/plugins/example-importer/index.ts";
import { PLUGIN_FIXTURES } from "./fixture-dir.ts";

const MARKER = "<!-- example: test/fixtures/plugins/example-importer/index.ts -->";

test("the importer example in docs/plugins.md is exactly the example-importer fixture", () => {
  const guide = readFileSync(join(import.meta.dir, "..", "..", "docs", "plugins.md"), "utf8");
  const afterMarker = guide.split(MARKER)[1];
  expect(afterMarker).toBeDefined();
  const block = /^\s*```ts\n([\s\S]*?)\n```/.exec(afterMarker!)?.[1];
  const fixture = readFileSync(join(PLUGIN_FIXTURES, "example-importer", "index.ts"), "utf8");
  expect(block).toBe(fixture.replace(/\n$/, ""));
});

const bytes = new Uint8Array(readFileSync(join(PLUGIN_FIXTURES, "example-importer", "sample.csv")));
runImportPluginContract(plugin, { sample: { bytes, file: describeFile(bytes, "sample.csv") } });

test("the example importer reads its sample", async () => {
  const result = await (await plugin.create({} as never)).parse({ bytes, file: describeFile(bytes, "sample.csv") });
  expect(result.transactions.map((t) => [t.type, t.date, t.quantity, t.cash?.amount] as unknown[])).toEqual([
    ["DEPOSIT", "2024-01-02", "0", "1000"], ["BUY", "2024-01-03", "2", "-221"], ["FEE", "2024-01-03", "0", "-1"],
  ]);
});
