import { expect, test } from "./runner.ts";
import type { Plugin } from "../define-plugin.ts";
import type { ImportFileMeta } from "../kinds/import-plugin.ts";
import { type ContractOptions, describeContract, expectValid } from "./contract-common.ts";
import { ImportResultSchema } from "./shapes.ts";

/**
 * The samples an import-plugin contract runs with: a report the plugin must
 * read (`bytes` and `file`), and optionally the meta of a file it must not
 * claim (`foreign`, e.g. another broker's report).
 */
export interface ImportPluginSample {
  bytes: Uint8Array;
  file: ImportFileMeta;
  foreign?: ImportFileMeta;
}

/**
 * Registers test blocks (with the runner of sdk/testing/runner.ts) checking an import-plugin: valid branded
 * manifest, a complete instance, `accepts()` confidences within 0..1 (positive
 * for the sample, lower for `foreign`), and a parse of the sample into
 * well-formed transactions (decimal strings, ISO days, known types) plus
 * warnings. Example: `runImportPluginContract(plugin, { sample: { bytes, file } })`.
 */
export function runImportPluginContract(
  plugin: Plugin<"import-plugin", any>,
  options: ContractOptions & { sample: ImportPluginSample },
): void {
  const { sample } = options;
  describeContract("import-plugin", plugin, options, (instance) => {
    test("accepts() gives a confidence in 0..1, above 0 for its own report", async () => {
      const confidence = (await instance()).accepts(sample.file);
      expect(confidence).toBeGreaterThan(0);
      expect(confidence).toBeLessThanOrEqual(1);
    });

    test("accepts() is less confident about a foreign file", async () => {
      if (!sample.foreign) return;
      const importer = await instance();
      const foreign = importer.accepts(sample.foreign);
      expect(foreign).toBeGreaterThanOrEqual(0);
      expect(foreign).toBeLessThan(importer.accepts(sample.file));
    });

    test("parse() returns well-formed transactions and warnings for its own report", async () => {
      const result = await (await instance()).parse({ bytes: sample.bytes, file: sample.file });
      expectValid(ImportResultSchema, result);
      expect(result.transactions.length).toBeGreaterThan(0);
    });
  });
}
