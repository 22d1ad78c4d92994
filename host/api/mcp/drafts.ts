import { randomUUID } from "node:crypto";
import { z } from "zod";
import { BrokerAccessService } from "../../../core/brokers/broker-access.service.ts";
import { findDuplicates, type ImportedFact, type LedgerFact } from "../../../core/brim/duplicates.calc.ts";
import { LEDGER_SQL, ledgerParams } from "../../../core/brim/pipeline.ts";
import { Database } from "../../../core/db/database.ts";
import { ConflictError, NotFoundError } from "../../../core/errors/domain-error.ts";
import { TransactionBatchService } from "../../../core/transactions/batch.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { toBatchInput, toBatchResponse } from "../transactions/transactions.dto.ts";
import { BatchRequest, CreateRow, MAX_ROWS } from "../transactions/transactions.schema.ts";
import { McpDraft, type McpDraftDuplicates } from "./drafts.schema.ts";

/**
 * Drafts of ledger changes proposed by an assistant (docs/mcp.md "Drafts"): storing one never
 * touches the ledger; it keeps the batch with the ledger's own validation (the dry run of
 * `POST /transactions/validate`) and the duplicate check of its new rows against each broker's
 * ledger. A commit goes through the same batch service as `/transactions/commit`, once: the draft
 * is claimed in the same serialised write that reads its status, and a committed draft answers
 * its stored result again.
 */

export const DraftRows = z.object({
  creates: z.array(z.record(z.string(), z.unknown())).max(MAX_ROWS).default([])
    .describe("New transactions, each as `POST /transactions/validate` takes them: {broker_id, type, date, quantity?, cash?: {code, amount}, asset_id?, description?, tags?}"),
  updates: z.array(z.record(z.string(), z.unknown())).max(MAX_ROWS).default([])
    .describe("Changes to stored transactions: {id, and the fields to change}"),
  deletes: z.array(z.number().int().positive()).max(MAX_ROWS).default([]).describe("Ids of transactions to delete"),
}).strict();

export type Draft = z.infer<typeof McpDraft>;

interface Row {
  checks: string; created_at: number; decided_at: number | null; id: string; result: string | null; rows: string; status: Draft["status"]; token_id: number | null;
}

const iso = (s: number | null) => (s === null ? null : new Date(Number(s) * 1000).toISOString());

function toDraft(r: Row): Draft {
  const checks = JSON.parse(r.checks);
  return {
    id: r.id, status: r.status, created_at: iso(Number(r.created_at))!, decided_at: iso(r.decided_at === null ? null : Number(r.decided_at)),
    token_id: r.token_id === null ? null : Number(r.token_id), rows: JSON.parse(r.rows), validation: checks.validation, duplicates: checks.duplicates,
    result: r.result ? JSON.parse(r.result) : null,
  };
}

const brokerNotFound = (id: number) => new NotFoundError("BROKER_NOT_FOUND", `Broker ${id} is outside this token's brokers`);
/** Ends a commit whose draft another commit already kept (its result is answered instead). */
class AlreadyCommitted extends Error {}
const notFound = (id: string) => new NotFoundError("DRAFT_NOT_FOUND", `No draft '${id}' of yours`);

export function draftService(deps: HttpDeps) {
  const db = deps.container.resolve(Database);
  const batch = deps.container.resolve(TransactionBatchService);
  const access = deps.container.resolve(BrokerAccessService);

  const asBatch = (rows: z.output<typeof DraftRows>) => BatchRequest.parse({ creates: rows.creates, updates: rows.updates, deletes: rows.deletes });

  /** Likely and possible duplicates of the well-formed new rows, per broker the user sees. */
  async function duplicates(userId: number, creates: readonly unknown[]): Promise<z.infer<typeof McpDraftDuplicates>> {
    const seen = await access.roles(userId, "VIEWER");
    const byBroker = new Map<number, { index: number; fact: ImportedFact }[]>();
    creates.forEach((raw, index) => {
      const r = CreateRow.safeParse(raw);
      if (!r.success || !r.data.broker_id || !seen.has(r.data.broker_id)) return;
      const fact: ImportedFact = {
        type: r.data.type, date: r.data.date, quantity: r.data.quantity ?? "0", amount: r.data.cash?.amount ?? null, currency: r.data.cash?.code ?? null,
        assetNamed: r.data.asset_id != null, assetId: r.data.asset_id ?? null,
      };
      (byBroker.get(r.data.broker_id) ?? byBroker.set(r.data.broker_id, []).get(r.data.broker_id)!).push({ index, fact });
    });
    const out: z.infer<typeof McpDraftDuplicates> = { likely: [], possible: [] };
    for (const [brokerId, rows] of byBroker) {
      const dates = rows.map((r) => r.fact.date).sort();
      const ledger: LedgerFact[] = await db.reads.query(LEDGER_SQL, ledgerParams(brokerId, dates[0]!, dates.at(-1)!));
      const report = findDuplicates(rows.map((r) => r.fact), ledger.map((l) => ({ ...l, id: Number(l.id), assetId: l.assetId === null ? null : Number(l.assetId) })));
      for (const d of report.tx_likely_duplicates) out.likely.push({ index: rows[d.tx_index]!.index, transaction_ids: d.existing_transaction_ids });
      for (const d of report.tx_possible_duplicates) out.possible.push({ index: rows[d.tx_index]!.index, transaction_ids: d.existing_transaction_ids });
    }
    out.likely.sort((a, b) => a.index - b.index);
    out.possible.sort((a, b) => a.index - b.index);
    return out;
  }

  /** A token narrowed to some brokers drafts only on them: new rows' brokers and stored rows' brokers alike. */
  async function withinBrokers(body: z.output<typeof BatchRequest>, brokerIds: readonly number[]) {
    const allowed = new Set(brokerIds);
    for (const raw of body.creates) {
      const id = (raw as { broker_id?: unknown })?.broker_id;
      if (typeof id === "number" && !allowed.has(id)) throw brokerNotFound(id);
    }
    const ids = [...body.deletes, ...body.updates.map((u) => (u as { id?: unknown })?.id)].filter((v): v is number => typeof v === "number");
    if (!ids.length) return;
    const rows: { broker_id: number }[] = await db.reads.query(
      `SELECT DISTINCT broker_id FROM transactions WHERE id IN (${ids.map(() => "?").join(", ")})`, ids);
    const outside = rows.map((r) => Number(r.broker_id)).find((id) => !allowed.has(id));
    if (outside !== undefined) throw brokerNotFound(outside);
  }

  async function get(userId: number, id: string): Promise<Draft> {
    const [row]: Row[] = await db.reads.query(`SELECT * FROM mcp_drafts WHERE id = ? AND user_id = ?`, [id, userId]);
    if (!row) throw notFound(id);
    return toDraft(row);
  }

  return {
    get,

    /** Stores a pending draft with the ledger's checks; the ledger is not changed. */
    async create(userId: number, tokenId: number | null, input: z.output<typeof DraftRows>, brokerIds: readonly number[] | null = null): Promise<Draft> {
      const body = asBatch(input);
      if (brokerIds) await withinBrokers(body, brokerIds);
      const validation = toBatchResponse(await batch.run(userId, toBatchInput(body), "validate"));
      const checks = { validation, duplicates: await duplicates(userId, body.creates) };
      const id = randomUUID();
      await db.write((tx) => tx.query(
        `INSERT INTO mcp_drafts (id, user_id, token_id, status, rows, checks, result, created_at, decided_at) VALUES (?, ?, ?, 'pending', ?, ?, NULL, ?, NULL)`,
        [id, userId, tokenId, JSON.stringify({ creates: body.creates, updates: body.updates, deletes: body.deletes }), JSON.stringify(checks), Math.floor(Date.now() / 1000)],
      ));
      return get(userId, id);
    },

    async pending(userId: number): Promise<Draft[]> {
      const rows: Row[] = await db.reads.query(`SELECT * FROM mcp_drafts WHERE user_id = ? AND status = 'pending' ORDER BY created_at DESC, id`, [userId]);
      return rows.map(toDraft);
    },

    /**
     * Commits a pending draft through the ledger's batch service, once. A committed draft answers
     * its stored result; a discarded one is a conflict. A batch the ledger refuses keeps nothing and
     * leaves the draft pending, with the refusal as its new validation.
     */
    async commit(userId: number, id: string, brokerIds: readonly number[] | null = null): Promise<Draft> {
      const current = await get(userId, id);
      if (current.status === "committed") return current;
      if (current.status !== "pending") throw new ConflictError("DRAFT_NOT_PENDING", `Draft '${id}' is ${current.status}`);
      const body = BatchRequest.parse(current.rows);
      if (brokerIds) await withinBrokers(body, brokerIds);
      let outcome;
      try {
        // The draft's status is read and set in the batch's own write: a draft commits once, even
        // when two commits race, and a stopped process leaves it either committed or pending.
        outcome = toBatchResponse(await batch.run(userId, toBatchInput(body), "commit", {
          before: async (tx) => {
            const [row]: Row[] = await tx.query(`SELECT status FROM mcp_drafts WHERE id = ? AND user_id = ?`, [id, userId]);
            if (row?.status === "committed") throw new AlreadyCommitted();
            if (row?.status !== "pending") throw new ConflictError("DRAFT_NOT_PENDING", `Draft '${id}' is ${row?.status ?? "gone"}`);
          },
          committed: async (tx, o) => {
            await tx.query(`UPDATE mcp_drafts SET status = 'committed', result = ?, decided_at = ? WHERE id = ?`,
              [JSON.stringify(toBatchResponse(o)), Math.floor(Date.now() / 1000), id]);
          },
        }));
      } catch (error) {
        if (error instanceof AlreadyCommitted) return get(userId, id);
        throw error;
      }
      if (!outcome.committed) {
        await db.write(async (tx) => {
          const [row]: Row[] = await tx.query(`SELECT checks FROM mcp_drafts WHERE id = ? AND status = 'pending'`, [id]);
          if (row) await tx.query(`UPDATE mcp_drafts SET checks = ? WHERE id = ?`, [JSON.stringify({ ...JSON.parse(row.checks), validation: outcome }), id]);
        });
      }
      return get(userId, id);
    },

    /** Discards a pending draft (a committed one cannot be taken back here). */
    async discard(userId: number, id: string): Promise<Draft> {
      await db.write(async (tx) => {
        const [row]: Row[] = await tx.query(`SELECT status FROM mcp_drafts WHERE id = ? AND user_id = ?`, [id, userId]);
        if (!row) throw notFound(id);
        if (row.status === "discarded") return;
        if (row.status !== "pending") throw new ConflictError("DRAFT_NOT_PENDING", `Draft '${id}' is already ${row.status}`);
        await tx.query(`UPDATE mcp_drafts SET status = 'discarded', decided_at = ? WHERE id = ?`, [Math.floor(Date.now() / 1000), id]);
      });
      return get(userId, id);
    },
  };
}
