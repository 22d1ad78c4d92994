import { randomUUID } from "node:crypto";
import { rename, unlink, writeFile } from "node:fs/promises";
import { inject, injectable } from "tsyringe";
import type { ImportedTransaction, ImportWarning } from "../../sdk/index.ts";
import { describeFile } from "../../sdk/import/meta.ts";
import { BrokerAccessService } from "../brokers/broker-access.service.ts";
import { Database } from "../db/database.ts";
import { InputError } from "../errors/domain-error.ts";
import { BrimFile } from "./brim-file.entity.ts";
import { BrimFileService, lastParsePath } from "./brim-file.service.ts";
import { assetCandidates, type AssetHint, type KnownAsset, selectedAsset } from "./asset-candidates.calc.ts";
import { findDuplicates, type ImportedFact, type LedgerFact, POSSIBLE_WINDOW_DAYS } from "./duplicates.calc.ts";
import { GENERIC_PLUGIN_CODE, IMPORT_PLUGINS, type ImportPluginDirectory, type ImportPluginInfo } from "./import-plugins.ts";
import {
  type AssetCandidateDoc, type AssetMappingDoc, type DuplicateReportDoc, isFakeAssetId, type ParseResultDoc, type TxCreateDoc,
  type WarningDoc,
} from "./parse-result.ts";
import { assignFakeAssets, fieldTodos, mergeFills, pairFx, pluginWarnings, toCreates, validateCreates } from "./rows.calc.ts";

export interface ParseRequest {
  brokerId: number;
  fileId: string;
  options?: Record<string, unknown>;
  pluginCode: string;
  userId: number;
}

/** What flows through the stages of one parse. */
interface ParseState {
  assetOf: (number | undefined)[];
  bytes: Uint8Array;
  creates: TxCreateDoc[];
  file: BrimFile;
  links: (string | undefined)[];
  mappings: AssetMappingDoc[];
  plugin: ImportPluginInfo;
  request: ParseRequest;
  rows: ImportedTransaction[];
  warnings: WarningDoc[];
}

/**
 * The import flow after upload, as a pipeline of named stages (the shape of the transaction batch):
 * choose the plugin → run it in the worker pool with a time limit → merge the fills of one order →
 * pair currency exchanges → give assets fake ids and candidates → build commit creates → the
 * ledger's row checks → what the user must fill → duplicates against the broker's ledger → store
 * as the file's last parse. Preview only: nothing reaches the ledger; the commit is
 * `POST /transactions/commit`. A plugin failure or a timeout marks the file `failed` with the
 * message, and answers 400 `PARSE_FAILED`.
 */
@injectable()
export class BrimParseService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(BrokerAccessService) private readonly access: BrokerAccessService,
    @inject(BrimFileService) private readonly files: BrimFileService,
    @inject(IMPORT_PLUGINS) private readonly plugins: ImportPluginDirectory,
  ) {}

  async parse(dir: string, request: ParseRequest): Promise<ParseResultDoc> {
    const file = await this.files.get(request.userId, request.fileId, "EDITOR");
    await this.access.require(request.userId, request.brokerId, "EDITOR");
    const bytes = await this.files.bytesOf(dir, file);
    const plugin = this.choosePlugin(file, bytes, request.pluginCode);

    const run = await this.plugins.parse(plugin.code, { bytes, file: describeFile(bytes, file.filename), options: request.options });
    if (!run.ok) {
      await this.markFailed(dir, file.id, `${plugin.name}: ${run.message}`);
      throw new InputError("PARSE_FAILED", `${plugin.name} could not read this file: ${run.message}`, { plugin_code: plugin.code, file_id: file.id });
    }
    const state: ParseState = {
      assetOf: [], bytes, creates: [], file, links: [], mappings: [], plugin, request, rows: [...run.result.transactions],
      warnings: pluginWarnings(run.result.warnings as ImportWarning[]),
    };
    if (state.rows.length === 0) {
      await this.markFailed(dir, file.id, `${plugin.name}: no transactions found in the file`);
      throw new InputError("PARSE_FAILED", `${plugin.name} found no transactions in this file`, { plugin_code: plugin.code, file_id: file.id });
    }
    stageMergeFills(state);
    stagePairFx(state);
    stageAssets(state);
    await this.stageCandidates(state);
    stageCreates(state);
    const result: ParseResultDoc = {
      file_id: file.id, plugin_code: plugin.code, plugin_version: plugin.version, broker_id: request.brokerId,
      transactions: state.creates, asset_mappings: state.mappings,
      duplicates: await this.duplicates(request.userId, request.brokerId, state.creates, state.mappings, false),
      warnings: state.warnings, validation_issues: validateCreates(state.creates), field_todos: fieldTodos(state.creates, state.mappings, state.rows),
    };
    await this.store(dir, file.id, result);
    return result;
  }

  /** `auto`: the best compatible plugin, else the generic CSV; a named plugin must exist. */
  private choosePlugin(file: BrimFile, bytes: Uint8Array, code: string): ImportPluginInfo {
    if (code !== "auto") {
      const plugin = this.plugins.get(code);
      if (!plugin) throw new InputError("PLUGIN_NOT_FOUND", `No import plugin ${code}`, { plugin_code: code });
      return plugin;
    }
    const best = this.files.detect(bytes, file.filename).find((v) => v.confidence > 0);
    const plugin = this.plugins.get(best?.code ?? GENERIC_PLUGIN_CODE) ?? this.plugins.get(GENERIC_PLUGIN_CODE);
    if (!plugin) throw new InputError("PLUGIN_NOT_FOUND", "No import plugin recognises this file", { plugin_code: code });
    return plugin;
  }

  private async stageCandidates(state: ParseState): Promise<void> {
    const assets = await this.knownAssets();
    for (const m of state.mappings) {
      m.candidates = assetCandidates(m, assets);
      m.selected_asset_id = selectedAsset(m.candidates);
    }
  }

  /** Candidates for each hint (`POST /brokers/import/asset-candidates`). */
  async candidates(hints: readonly AssetHint[]): Promise<{ candidates: AssetCandidateDoc[] }[]> {
    const assets = await this.knownAssets();
    return hints.map((h) => ({ candidates: assetCandidates(h, assets) }));
  }

  private async knownAssets(): Promise<KnownAsset[]> {
    const rows = await this.db.reads.query(`SELECT id, name, identifier_isin AS isin, identifier_ticker AS ticker FROM assets`) as KnownAsset[];
    return rows;
  }

  /**
   * Duplicate report of `creates` against the broker's ledger; fake asset ids resolve through the
   * mappings' `selected_asset_id`. `checkAccess` for the public route (VIEWER may not probe).
   */
  async duplicates(userId: number, brokerId: number, creates: readonly TxCreateDoc[], mappings: readonly Pick<AssetMappingDoc, "fake_asset_id" | "selected_asset_id">[], checkAccess = true): Promise<DuplicateReportDoc> {
    if (checkAccess) await this.access.require(userId, brokerId, "EDITOR");
    if (creates.length === 0) return { tx_unique_indices: [], tx_possible_duplicates: [], tx_likely_duplicates: [] };
    const selected = new Map(mappings.map((m) => [m.fake_asset_id, m.selected_asset_id ?? null]));
    const facts: ImportedFact[] = creates.map((c) => ({
      type: c.type, date: c.date, quantity: c.quantity, amount: c.cash?.amount ?? null, currency: c.cash?.code ?? null,
      assetNamed: c.asset_id !== undefined,
      assetId: c.asset_id === undefined ? null : isFakeAssetId(c.asset_id) ? selected.get(c.asset_id) ?? null : c.asset_id,
    }));
    const dates = facts.map((f) => f.date).sort();
    const ledger = await this.db.reads.query(
      `SELECT id, type, date, quantity, amount, currency, asset_id AS assetId FROM transactions
       WHERE broker_id = ? AND date BETWEEN date(?, '-${POSSIBLE_WINDOW_DAYS} days') AND date(?, '+${POSSIBLE_WINDOW_DAYS} days')`,
      [brokerId, dates[0], dates[dates.length - 1]],
    ) as LedgerFact[];
    return findDuplicates(facts, ledger);
  }

  private async store(dir: string, fileId: string, result: ParseResultDoc): Promise<void> {
    const path = lastParsePath(dir, fileId);
    const temp = `${path}.${randomUUID()}.tmp`;
    await writeFile(temp, JSON.stringify(result), { mode: 0o600 });
    await rename(temp, path);
    await this.db.write((tx) => tx.update(BrimFile, { id: fileId }, {
      status: "parsed", errorMessage: null, processedAt: new Date(), parsedPluginCode: result.plugin_code, parsedPluginVersion: result.plugin_version,
    }));
  }

  private async markFailed(dir: string, fileId: string, message: string): Promise<void> {
    await unlink(lastParsePath(dir, fileId)).catch(() => undefined);
    await this.db.write((tx) => tx.update(BrimFile, { id: fileId }, {
      status: "failed", errorMessage: message.slice(0, 1000), processedAt: new Date(), parsedPluginCode: null, parsedPluginVersion: null,
    }));
  }
}

function stageMergeFills(state: ParseState): void {
  const merged = mergeFills(state.rows);
  state.rows = merged.rows;
  state.warnings.push(...merged.warnings);
}

function stagePairFx(state: ParseState): void {
  const paired = pairFx(state.rows, randomUUID);
  state.rows = paired.rows;
  state.links = paired.links;
  state.warnings.push(...paired.warnings);
}

function stageAssets(state: ParseState): void {
  const assigned = assignFakeAssets(state.rows);
  state.assetOf = assigned.assetOf;
  state.mappings = assigned.mappings;
}

function stageCreates(state: ParseState): void {
  state.creates = toCreates(state.rows, state.request.brokerId, state.assetOf, state.links);
}
