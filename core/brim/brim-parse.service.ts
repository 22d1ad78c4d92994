import { rename, unlink, writeFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { inject, injectable } from "tsyringe";
import type { ImportFileMeta } from "../../sdk/index.ts";
import { BrokerAccessService } from "../brokers/broker-access.service.ts";
import { Database } from "../db/database.ts";
import { InputError } from "../errors/domain-error.ts";
import type { AssetHint } from "./asset-candidates.calc.ts";
import { BrimFile } from "./brim-file.entity.ts";
import { beyondLimits, BrimFileService, lastParsePath } from "./brim-file.service.ts";
import { GENERIC_PLUGIN_CODE, IMPORT_PLUGINS, type ImportPluginDirectory, type ImportPluginInfo } from "./import-plugins.ts";
import type { AssetCandidateDoc } from "./parse-result.ts";
import { ASSETS_SQL } from "./pipeline.ts";

export interface ParseRequest {
  brokerId: number;
  fileId: string;
  options?: Record<string, unknown>;
  pluginCode: string;
  userId: number;
}

/**
 * The import flow after upload: check access, choose the plugin (`auto`: the best compatible,
 * else the generic CSV), run it and the pipeline of `pipeline.ts` in the worker pool under a time
 * limit (the port), keep the gzipped result as the file's last parse. Preview only: nothing
 * reaches the ledger; the commit is `POST /transactions/commit`. A plugin failure, a file without
 * transactions, a timeout or a file beyond the unpacking limits marks the file `failed` with the
 * message and answers 400 `PARSE_FAILED`.
 */
@injectable()
export class BrimParseService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(BrokerAccessService) private readonly access: BrokerAccessService,
    @inject(BrimFileService) private readonly files: BrimFileService,
    @inject(IMPORT_PLUGINS) private readonly plugins: ImportPluginDirectory,
  ) {}

  /**
   * Parses and answers the result as gzipped JSON bytes (what `last-parse` serves afterwards).
   * `auto` tries the compatible plugins best first (then the generic CSV) until one reads the
   * file: spreadsheets, whose content `accepts()` cannot see, are told apart this way. A named
   * plugin is tried alone. All failing, the first plugin's message is the file's error.
   */
  async parse(dir: string, request: ParseRequest): Promise<Uint8Array> {
    const file = await this.files.get(request.userId, request.fileId, "EDITOR");
    await this.access.require(request.userId, request.brokerId, "EDITOR");
    // Only the head is read here (detection); the worker reads the whole file from its path.
    const meta = await this.files.metaOf(dir, file);
    const filePath = this.files.pathOf(dir, file);
    const plugins = await this.candidatesFor(meta, request.pluginCode);
    if (plugins.length === 0) {
      // A PDF no importer claims: say why it has no text, or that no importer knows the document.
      const problem = await this.files.pdfProblem(dir, file);
      const message = problem
        ? `The PDF cannot be read: ${problem.message}`
        : "No importer recognises this PDF document (see the list of PDF importers in the documentation)";
      await this.markFailed(dir, file.id, message);
      throw new InputError("PARSE_FAILED", message, { file_id: file.id, reason: problem?.reason ?? "PDF_NOT_RECOGNISED" });
    }
    let first: { message: string; plugin: ImportPluginInfo; reason?: string } | null = null;
    for (const plugin of plugins) {
      const run = await this.plugins.parse(plugin.code, {
        filePath, file: meta, options: request.options,
        meta: { brokerId: request.brokerId, fileId: file.id, pluginCode: plugin.code, pluginVersion: plugin.version },
      });
      if (run.ok && run.transactions > 0) {
        await this.store(dir, file.id, run.gzipped, plugin);
        return run.gzipped;
      }
      if (!run.ok && run.refusal) {
        // Beyond the unpacking limits: no importer could read it, so none other is tried.
        const message = beyondLimits(run.refusal);
        await this.markFailed(dir, file.id, message);
        throw new InputError("PARSE_FAILED", message, { file_id: file.id, limit: run.refusal.limit, max: run.refusal.max });
      }
      first ??= { message: run.ok ? "no transactions found in the file" : run.message, plugin, ...(!run.ok && run.reason ? { reason: run.reason } : {}) };
      if (!run.ok && /took longer than/.test(run.message)) break;
    }
    const { message, plugin, reason } = first!;
    await this.markFailed(dir, file.id, `${plugin.name}: ${message}`);
    throw new InputError("PARSE_FAILED", `${plugin.name} could not read this file: ${message}`, { plugin_code: plugin.code, file_id: file.id, ...(reason ? { reason } : {}) });
  }

  /** The plugins to try: the named one; for `auto` the compatible ones best first, then the generic CSV (at most 6). */
  private async candidatesFor(meta: ImportFileMeta, code: string): Promise<ImportPluginInfo[]> {
    if (code !== "auto") {
      const plugin = this.plugins.get(code);
      if (!plugin) throw new InputError("PLUGIN_NOT_FOUND", `No import plugin ${code}`, { plugin_code: code });
      return [plugin];
    }
    const codes = (await this.files.detectMeta(meta)).filter((v) => v.confidence > 0).map((v) => v.code);
    // The generic CSV reads no PDF: a PDF nobody claims gets its own answer (possibly none to try).
    if (meta.format === "pdf") return codes.slice(0, 6).map((c) => this.plugins.get(c)).filter((p): p is ImportPluginInfo => p !== undefined);
    if (!codes.includes(GENERIC_PLUGIN_CODE)) codes.push(GENERIC_PLUGIN_CODE);
    const plugins = codes.slice(0, 6).map((c) => this.plugins.get(c)).filter((p): p is ImportPluginInfo => p !== undefined);
    if (plugins.length === 0) throw new InputError("PLUGIN_NOT_FOUND", "No import plugin recognises this file", { plugin_code: code });
    return plugins;
  }

  /** Candidates for each hint (`POST /brokers/import/asset-candidates`) as gzipped JSON `{items}`, made off the request thread. */
  candidates(hints: readonly AssetHint[]): Promise<Uint8Array> {
    return this.plugins.candidates(hints);
  }

  /**
   * Duplicate report of edited rows against the broker's ledger (`POST /brokers/import/duplicates`;
   * EDITOR or better), as gzipped JSON made off the request thread; `request` is `{creates, mappings}`
   * as UTF-8 JSON, handed over (ImportPluginDirectory.duplicates).
   */
  async duplicates(userId: number, brokerId: number, request: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
    await this.access.require(userId, brokerId, "EDITOR");
    return this.plugins.duplicates(brokerId, request);
  }

  private async store(dir: string, fileId: string, gzipped: Uint8Array, plugin: ImportPluginInfo): Promise<void> {
    const path = lastParsePath(dir, fileId);
    const temp = `${path}.${randomUUID()}.tmp`;
    await writeFile(temp, gzipped, { mode: 0o600 });
    await rename(temp, path);
    await this.db.write((tx) => tx.update(BrimFile, { id: fileId }, {
      status: "parsed", errorMessage: null, processedAt: new Date(), parsedPluginCode: plugin.code, parsedPluginVersion: plugin.version,
    }));
  }

  private async markFailed(dir: string, fileId: string, message: string): Promise<void> {
    await unlink(lastParsePath(dir, fileId)).catch(() => undefined);
    await this.db.write((tx) => tx.update(BrimFile, { id: fileId }, {
      status: "failed", errorMessage: message.slice(0, 1000), processedAt: new Date(), parsedPluginCode: null, parsedPluginVersion: null,
    }));
  }
}
