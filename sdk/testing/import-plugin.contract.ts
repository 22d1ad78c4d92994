import { expect, test } from "./runner.ts";
import type { Plugin } from "../define-plugin.ts";
import { isPluginError } from "../errors.ts";
import type { ImportedTransaction, ImportFileMeta } from "../kinds/import-plugin.ts";
import { Decimal } from "../money.ts";
import { type ContractOptions, describeContract, expectValid } from "./contract-common.ts";
import { ImportResultSchema } from "./shapes.ts";

/**
 * The samples an import-plugin contract runs with: a report the plugin must
 * read (`bytes` and `file`, e.g. from `describeFile(bytes, name)` of
 * `@portfolio-tracker/sdk/import`), and optionally another broker's report
 * (`foreign` meta, and `foreignBytes` to parse) the plugin must not claim.
 */
export interface ImportPluginSample {
  bytes: Uint8Array;
  file: ImportFileMeta;
  foreign?: ImportFileMeta;
  foreignBytes?: Uint8Array;
}

/**
 * The ledger's sign rule `tx` breaks, or null (BUY quantity > 0 and cash < 0, SELL
 * quantity < 0 and cash > 0, DIVIDEND/INTEREST/DEPOSIT cash > 0, WITHDRAWAL/FEE/TAX cash < 0 and
 * quantity 0, FX_CONVERSION cash ≠ 0, ADJUSTMENT/TRANSFER quantity ≠ 0 and no cash).
 */
export function ledgerSignIssue(tx: ImportedTransaction): string | null {
  const q = new Decimal(tx.quantity ?? "0");
  const c = tx.cash ? new Decimal(tx.cash.amount) : null;
  switch (tx.type) {
    case "BUY": return q.gt(0) && c !== null && c.lt(0) ? null : "BUY needs quantity > 0 and cash < 0";
    case "SELL": return q.lt(0) && c !== null && c.gt(0) ? null : "SELL needs quantity < 0 and cash > 0";
    case "DIVIDEND": case "INTEREST": case "DEPOSIT":
      return q.isZero() && c !== null && c.gt(0) ? null : `${tx.type} needs quantity 0 and cash > 0`;
    case "WITHDRAWAL": case "FEE": case "TAX":
      return q.isZero() && c !== null && c.lt(0) ? null : `${tx.type} needs quantity 0 and cash < 0`;
    case "FX_CONVERSION": case "CASH_TRANSFER":
      return q.isZero() && c !== null && !c.isZero() ? null : `${tx.type} needs quantity 0 and cash ≠ 0`;
    case "ADJUSTMENT": case "TRANSFER":
      return !q.isZero() && (c === null || c.isZero()) ? null : `${tx.type} needs quantity ≠ 0 and no cash`;
  }
}

async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/**
 * Registers test blocks (with the runner of sdk/testing/runner.ts) checking an import-plugin: valid branded
 * manifest, a complete instance, `accepts()` confidences within 0..1 (positive
 * for the sample, lower for `foreign`, never throwing on an empty or binary
 * file), a parse of the sample into well-formed transactions in the ledger's
 * sign conventions with FX pairs complete, the same result twice, and a
 * `PluginError` with reason `invalid-input` for an empty file (and for the
 * foreign bytes unless they give no transactions).
 * Example: `runImportPluginContract(plugin, { sample: { bytes, file: describeFile(bytes, "x.csv") } })`.
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

    test("accepts() answers 0..1 without throwing for an empty, a binary and a PDF file", async () => {
      const importer = await instance();
      for (const file of [
        { extension: "csv", filename: "empty.csv", format: "text" as const, head: "", sizeBytes: 0 },
        { extension: "bin", filename: "x.bin", format: "binary" as const, head: "", sizeBytes: 10 },
        { extension: "pdf", filename: "statement.pdf", format: "pdf" as const, head: "", sizeBytes: 10 },
      ]) {
        const c = importer.accepts(file);
        expect(c).toBeGreaterThanOrEqual(0);
        expect(c).toBeLessThanOrEqual(1);
      }
    });

    test("parse() returns well-formed transactions in the ledger's sign conventions", async () => {
      const result = await (await instance()).parse({ bytes: sample.bytes, file: sample.file });
      expectValid(ImportResultSchema, result);
      expect(result.transactions.length).toBeGreaterThan(0);
      const broken = result.transactions.flatMap((tx, i) => {
        const issue = ledgerSignIssue(tx);
        return issue ? [`#${i} (row ${tx.row ?? "?"}): ${issue}`] : [];
      });
      expect(broken).toEqual([]);
      const pairs = new Map<string, number>();
      for (const tx of result.transactions) if (tx.pairKey) pairs.set(tx.pairKey, (pairs.get(tx.pairKey) ?? 0) + 1);
      expect([...pairs.entries()].filter(([, n]) => n !== 2)).toEqual([]);
    });

    test("parse() is deterministic", async () => {
      const importer = await instance();
      const a = await importer.parse({ bytes: sample.bytes, file: sample.file });
      const b = await importer.parse({ bytes: sample.bytes, file: sample.file });
      expect(b).toEqual(a);
    });

    test("parse() of an empty file fails with a PluginError (invalid-input)", async () => {
      const importer = await instance();
      const error = await rejection(() => importer.parse({ bytes: new Uint8Array(), file: { ...sample.file, head: "", sizeBytes: 0 } }));
      expect(isPluginError(error)).toBe(true);
      expect((error as { reason: string }).reason).toBe("invalid-input");
    });

    test("parse() of another broker's report fails with invalid-input or finds nothing", async () => {
      if (!sample.foreignBytes || !sample.foreign) return;
      const importer = await instance();
      const bytes = sample.foreignBytes;
      let result: { transactions: readonly unknown[] } | undefined;
      const error = await rejection(async () => { result = await importer.parse({ bytes, file: sample.foreign! }); });
      if (error === undefined) expect(result?.transactions ?? []).toEqual([]);
      else {
        expect(isPluginError(error)).toBe(true);
        expect((error as { reason: string }).reason).toBe("invalid-input");
      }
    });
  });
}
