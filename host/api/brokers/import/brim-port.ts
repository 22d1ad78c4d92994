import type { DependencyContainer } from "tsyringe";
import { BrimCommitService } from "../../../../core/brim/brim-commit.service.ts";
import { brimDir, BrimFileService } from "../../../../core/brim/brim-file.service.ts";
import { BrimParseService } from "../../../../core/brim/brim-parse.service.ts";
import { IMPORT_PLUGINS, type ImportPluginDirectory, type ImportPluginInfo } from "../../../../core/brim/import-plugins.ts";
import { InputError } from "../../../../core/errors/domain-error.ts";
import type { Logger } from "../../../logger.ts";
import type { PluginRegistry } from "../../../plugins/registry.ts";
import type { DatabaseTarget } from "../../../db/dialect.ts";
import { pluginTimeoutMs } from "../../../plugin-config.ts";
import { runCalculation } from "../../run-calculation.ts";

/**
 * Registers the BRIM port over the plugin registry: the loaded `import-plugin`s (hidden ones left
 * out of lists but usable by code), and `parse` run in the worker pool under a time limit (the
 * plugin config's `timeoutMs` when set, else 60 s). A run past the limit is aborted, which ends
 * its worker thread, so a parser stuck in a loop cannot hold a thread either. Previews and
 * duplicate checks run in the pool too (a spreadsheet is unzipped whole; 50,000 rows are matched).
 */
export function registerBrim(
  container: DependencyContainer, plugins: PluginRegistry, pluginConfig: Record<string, unknown>, db: DatabaseTarget, logger: Logger,
): void {
  const infoOf = (entry: ReturnType<PluginRegistry["list"]>[number] & { manifest: { kind: "import-plugin" } }): ImportPluginInfo => {
    const instance = entry.instance as ImportPluginInfo["instance"];
    return {
      code: entry.manifest.id,
      name: entry.manifest.name,
      description: entry.manifest.description,
      version: entry.manifest.version,
      detectionPriority: instance.detectionPriority ?? 100,
      supportedExtensions: instance.supportedExtensions ?? ["csv"],
      docsUrl: instance.docsUrl ?? null,
      iconUrl: instance.iconUrl ?? null,
      instance,
    };
  };
  const timeoutOf = brimTimeout(pluginConfig);
  const pathOf = (code: string) => plugins.get("import-plugin", code)?.path ?? null;
  const port: ImportPluginDirectory = {
    candidates: async (hints) => (await runCalculation("brimCandidates", { db, hints: [...hints] })).result,
    commitPlan: async (input) => (await runCalculation("brimCommitPlan", { ...input, db })).result,
    // The rows' bytes move to the worker (the caller hands them over; they are detached here afterwards).
    duplicates: async (brokerId, json) => (await runCalculation("brimDuplicates", { brokerId, db, json }, undefined, [json.buffer])).result,
    inspect: async (filePath, filename) => (await runCalculation("brimInspect", { filePath, filename })).result,
    get: (code) => {
      const entry = plugins.get("import-plugin", code);
      return entry ? infoOf(entry) : undefined;
    },
    preview: async (filePath, sheetName) => {
      // A spreadsheet is unzipped whole: a hostile one stops at the parse's default limit, like a parse.
      const signal = AbortSignal.timeout(DEFAULT_PARSE_TIMEOUT_MS);
      try {
        return (await runCalculation("brimPreview", { filePath, ...(sheetName === undefined ? {} : { sheetName }) }, signal)).result;
      } catch (error) {
        if (!signal.aborted) logger.error("import preview worker failed", { error: error instanceof Error ? error.name : "unknown" });
        const message = signal.aborted ? `the preview took longer than ${DEFAULT_PARSE_TIMEOUT_MS / 1000} s and was stopped` : "the preview stopped unexpectedly";
        return { ok: false, code: "PREVIEW_UNAVAILABLE", message };
      }
    },
    sheets: async (filePath) => {
      // A workbook is unzipped to read its head: a hostile one stops at the parse's default limit.
      const signal = AbortSignal.timeout(DEFAULT_PARSE_TIMEOUT_MS);
      try {
        return (await runCalculation("brimSheets", { filePath }, signal)).result;
      } catch {
        return null;
      }
    },
    pdfHead: async (filePath) => {
      // Reading the text is bounded by pages and time inside the task; the signal ends a stuck worker.
      const signal = AbortSignal.timeout(DEFAULT_PARSE_TIMEOUT_MS);
      try {
        return (await runCalculation("brimPdfHead", { filePath }, signal)).result;
      } catch {
        return { ok: false, reason: signal.aborted ? "PDF_TIMEOUT" : "PDF_UNREADABLE", message: signal.aborted ? "reading the PDF's text took too long and was stopped" : "the PDF could not be read" };
      }
    },
    pdfTexts: async (filePath, filename, anonymise) => {
      // Up to 200 documents of 50 pages each, each bounded in time inside the task: the parse's limit ends a stuck worker.
      const signal = AbortSignal.timeout(DEFAULT_PARSE_TIMEOUT_MS);
      try {
        return (await runCalculation("brimPdfTexts", { filePath, filename, anonymise }, signal)).result;
      } catch (error) {
        // A stopped or failed worker is the file's problem to report, not a server error.
        logger.warn("pdf text worker failed", { aborted: signal.aborted, error: error instanceof Error ? error.name : "unknown" });
        throw new InputError("PARSE_FAILED", signal.aborted
          ? `Reading the text of ${filename} took longer than ${Math.round(DEFAULT_PARSE_TIMEOUT_MS / 1000)} s and was stopped`
          : `The text of ${filename} could not be read`, { reason: signal.aborted ? "PDF_TIMEOUT" : "PDF_UNREADABLE" });
      }
    },
    list: () => plugins.list("import-plugin").filter((p) => !p.manifest.hidden).map(infoOf),
    parse: async (code, input) => {
      const timeoutMs = timeoutOf(code);
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const { result } = await runCalculation("brimParse", { ...input, code, config: pluginConfig[code], db, path: pathOf(code) }, signal);
        return result;
      } catch (error) {
        if (signal.aborted) return { ok: false, message: `the parse took longer than ${Math.round(timeoutMs / 1000)} s and was stopped` };
        // A worker that died (out of memory, a plugin that kills its thread): the file fails, the request does not.
        logger.error("import parse worker failed", { plugin: code, error: error instanceof Error ? error.name : "unknown" });
        return { ok: false, message: "the importer stopped unexpectedly" };
      }
    },
  };
  container.registerInstance(IMPORT_PLUGINS, port);
  container.registerSingleton(BrimFileService);
  container.registerSingleton(BrimParseService);
  container.registerSingleton(BrimCommitService);
}

/** Default time limit of one parse in the worker pool. */
export const DEFAULT_PARSE_TIMEOUT_MS = 60_000;

/** A plugin's parse time limit: its config's `timeoutMs` when a positive number, else the default. */
export function brimTimeout(pluginConfig: Record<string, unknown>): (code: string) => number {
  return (code) => pluginTimeoutMs(pluginConfig, code, DEFAULT_PARSE_TIMEOUT_MS);
}

/**
 * Removes the stored bytes and last parses of BRIM files whose rows went with a deleted broker
 * (the rows cascade in SQL; files on disk need this). Called after each path that deletes brokers
 * (`DELETE /brokers/{id}`, the last OWNER leaving, an account deletion); never fails the request.
 */
export async function sweepBrimFiles(container: DependencyContainer, dataDir: string): Promise<void> {
  await container.resolve(BrimFileService).sweep(brimDir(dataDir)).catch(() => undefined);
}
