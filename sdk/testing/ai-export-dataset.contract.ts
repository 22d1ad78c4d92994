import { expect, test } from "./runner.ts";
import type { Plugin } from "../define-plugin.ts";
import type { AiExportQuery, AiExportReader } from "../kinds/ai-export-dataset.ts";
import { type ContractOptions, describeContract, expectValid } from "./contract-common.ts";
import { AiExportDescriptionSchema } from "./shapes.ts";

/** The sample an ai-export-dataset contract runs with: a query and a fake reader. */
export interface AiExportDatasetSample {
  query: AiExportQuery;
  reader: AiExportReader;
}

/**
 * Registers test blocks (with the runner of sdk/testing/runner.ts) checking an ai-export-dataset: valid branded
 * manifest, a complete instance, a well-formed description whose domain
 * prefixes the dataset id, a positive integer `datasetVersion`, and a build of
 * the sample into JSON-serialisable data. Example:
 * `runAiExportDatasetContract(plugin, { sample: { query, reader: fakeReader } })`.
 */
export function runAiExportDatasetContract(
  plugin: Plugin<"ai-export-dataset", any>,
  options: ContractOptions & { sample: AiExportDatasetSample },
): void {
  describeContract("ai-export-dataset", plugin, options, (instance) => {
    test("describe() is well-formed and its domain prefixes the dataset id", async () => {
      const dataset = await instance();
      const description = dataset.describe();
      expectValid(AiExportDescriptionSchema, description);
      expect(dataset.id).toMatch(new RegExp(`^${description.domain}\\.[a-z][a-z0-9_]*$`));
      expect(Number.isInteger(dataset.datasetVersion) && dataset.datasetVersion > 0).toBe(true);
    });

    test("build() returns JSON-serialisable data and string warnings", async () => {
      const output = await (await instance()).build(options.sample);
      expect(JSON.parse(JSON.stringify(output.data))).toStrictEqual(output.data);
      for (const warning of output.warnings) expect(typeof warning).toBe("string");
    });
  });
}
