import { expect, test } from "./runner.ts";
import type { Plugin } from "../define-plugin.ts";
import { type ContractOptions, describeContract, pureToolTests, type PureToolSample } from "./contract-common.ts";

/**
 * Registers test blocks (with the runner of sdk/testing/runner.ts) checking a risk-tool plugin: valid branded
 * manifest, a complete instance, a consistent catalog entry, the sample input
 * accepted by `inputSchema`, `compute` output accepted by `outputSchema` (and
 * equal to `expectedOutput` when given), determinism and a clonable output.
 * Example: `runRiskToolContract(plugin, { sampleInput: { returns: ["0.01", "-0.02"] } })`.
 */
export function runRiskToolContract(plugin: Plugin<"risk-tool", any>, options: ContractOptions & PureToolSample): void {
  describeContract("risk-tool", plugin, options, (instance) => {
    test("the catalog entry lists scopes and modes and a minimum of observations", async () => {
      const { catalog } = await instance();
      expect(catalog.algorithmVersion).toMatch(/^\d+\.\d+\.\d+/);
      expect(Number.isInteger(catalog.minObservations) && catalog.minObservations >= 0).toBe(true);
      expect(catalog.outputKind.length).toBeGreaterThan(0);
      expect(catalog.supportedModes.length).toBeGreaterThan(0);
      expect(catalog.supportedScopes.length).toBeGreaterThan(0);
    });

    pureToolTests(instance as never, options);
  });
}
