import { expect, test } from "./runner.ts";
import { z } from "zod";
import type { Plugin } from "../define-plugin.ts";
import { type ContractOptions, describeContract, pureToolTests, type PureToolSample } from "./contract-common.ts";

/**
 * Registers test blocks (with the runner of sdk/testing/runner.ts) checking a calculation-tool plugin: valid branded
 * manifest, a complete instance, the sample input accepted by `inputSchema`,
 * `compute` output accepted by `outputSchema` (and equal to `expectedOutput`
 * when given), determinism, an untouched input, a clonable output, and
 * schemas that convert to JSON Schema for the catalog.
 * Example: `runCalculationToolContract(plugin, { sampleInput: { principal: "100", rate: "0.1", years: "2" } })`.
 */
export function runCalculationToolContract(
  plugin: Plugin<"calculation-tool", any>,
  options: ContractOptions & PureToolSample,
): void {
  describeContract("calculation-tool", plugin, options, (instance) => {
    test("the catalog entry names a category and a semver contract version", async () => {
      const { catalog } = await instance();
      expect(catalog.category.trim().length).toBeGreaterThan(0);
      expect(catalog.contractVersion).toMatch(/^\d+\.\d+\.\d+/);
    });

    pureToolTests(instance as never, options);

    test("input and output schemas convert to JSON Schema for the catalog", async () => {
      const tool = await instance();
      expect(() => z.toJSONSchema(tool.inputSchema as z.ZodType, { io: "input" })).not.toThrow();
      expect(() => z.toJSONSchema(tool.outputSchema as z.ZodType)).not.toThrow();
    });
  });
}
