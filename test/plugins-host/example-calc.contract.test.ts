import { afterAll } from "bun:test";
import { join } from "node:path";
import { provideSdk } from "../../host/plugins/discovery.ts";
import type { Plugin } from "../../sdk/index.ts";
import { runCalculationToolContract } from "../../sdk/testing/index.ts";
import { pluginsDirWith } from "./fixture-dir.ts";

// Imported the way the host imports it: a copy in a plugins folder, the SDK provided by the host.
const fixtures = pluginsDirWith(["example-calc"]);
await provideSdk(fixtures.dir, { debug() {}, error() {}, info() {}, warn() {} });
const plugin: Plugin<"calculation-tool"> = (await import(join(fixtures.dir, "example-calc", "index.ts"))).default;
afterAll(() => fixtures.remove());

runCalculationToolContract(plugin, {
  expectedOutput: { amount: "1628.89" },
  sampleInput: { principal: "1000", rate: "0.05", years: "10" },
});
