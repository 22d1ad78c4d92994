import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { z } from "zod";
import { type CommitDecisions, type FieldCheck, planCommit, referenceIssues } from "../../../../core/brim/commit-plan.calc.ts";
import type { LedgerFact } from "../../../../core/brim/duplicates.calc.ts";
import type { CommitPlanRun } from "../../../../core/brim/import-plugins.ts";
import type { ParseResultDoc } from "../../../../core/brim/parse-result.ts";
import { LEDGER_GENERATION_SQL, LEDGER_SQL, ledgerParams } from "../../../../core/brim/pipeline.ts";
import type { CreateInput, RuleError } from "../../../../core/transactions/batch.types.ts";
import type { DatabaseTarget } from "../../../db/dialect.ts";
import { withReadSnapshot } from "../../../db/read-snapshot.ts";
import { CreateRow } from "../../transactions/transactions.schema.ts";

/** Input of the worker's `brimCommitPlan`: the stored parse, the user's decisions (JSON of `CommitDecisions`) and the database to read the ledger from. */
export interface BrimCommitPlanInput {
  db: DatabaseTarget;
  decisions: string;
  parsePath: string;
}

/**
 * Plan rows per slice of JSON: the request thread parses one slice per turn of its event loop
 * (2,000 rows, ~0.7 MB, took 13–25 ms of its CPU on a loaded machine, 500 rows still 8–18 ms;
 * docs/import.md "Performance").
 */
const PLAN_SLICE_ROWS = 250;

const money = (m: { amount: string; code: string } | null | undefined) => (m ? { code: m.code, amount: m.amount } : null);

/** The transaction write routes' row schema on one parsed row: the same field rules and supported ranges, as row errors. */
const checkFields: FieldCheck = (doc) => {
  const parsed = CreateRow.safeParse(doc);
  if (!parsed.success) return { ok: false, errors: parsed.error.issues.map(toRuleError) };
  const r = parsed.data;
  const create: CreateInput = {
    brokerId: r.broker_id ?? null, assetId: null, type: r.type, date: r.date, quantity: r.quantity ?? "0",
    cash: money(r.cash), linkUuid: r.link_uuid ?? null, tags: r.tags ?? null, description: r.description ?? null,
    costBasisOverride: money(r.cost_basis_override), costBasisMode: r.cost_basis_mode ?? null, assetEventId: null,
  };
  return { ok: true, create };
};

function toRuleError(issue: z.core.$ZodIssue): RuleError {
  if (issue.code === "unrecognized_keys") return { code: "parseError", msg: `Unknown fields ${issue.keys.join(", ")}`, field: issue.keys[0] };
  const field = issue.path.join(".") || undefined;
  return { code: "parseError", msg: field ? `${field}: ${issue.message}` : issue.message, ...(field ? { field } : {}) };
}

/**
 * The first half of an import commit, off the request thread: reads the stored parse (a 50,000-row
 * parse is ~10 MB of JSON), checks the decisions' references to it, applies edits and skips,
 * checks every kept row with the write routes' schema, decides assets, and reads the duplicate
 * report against the broker's ledger together with the ledger's change counter (one snapshot), so
 * the write can tell whether the report still holds. The plan goes back as JSON (one copy across threads).
 */
export async function brimCommitPlan(input: BrimCommitPlanInput): Promise<CommitPlanRun> {
  let gzipped: Uint8Array;
  try {
    gzipped = new Uint8Array(readFileSync(input.parsePath));
  } catch {
    return { ok: false, missing: true };
  }
  const parse = JSON.parse(new TextDecoder().decode(Bun.gunzipSync(gzipped as Uint8Array<ArrayBuffer>))) as ParseResultDoc;
  const decisions = JSON.parse(input.decisions) as CommitDecisions;
  const refused = referenceIssues(parse, decisions);
  if (refused.length > 0) return { ok: false, issues: refused };
  const brokerId = decisions.brokerId ?? parse.broker_id;
  const plan = await withReadSnapshot(input.db, async (reader) => {
    const [row] = await reader.all<{ generation: unknown }>(LEDGER_GENERATION_SQL);
    const ledger = (from: string, to: string) => reader.all<LedgerFact>(LEDGER_SQL, ledgerParams(brokerId, from, to));
    return planCommit(parse, decisions, brokerId, checkFields, ledger, String(row?.generation ?? ""));
  });
  const { rows, ...rest } = plan;
  const slices: string[] = [];
  for (let i = 0; i < rows.length; i += PLAN_SLICE_ROWS) slices.push(JSON.stringify(rows.slice(i, i + PLAN_SLICE_ROWS)));
  return { ok: true, parseToken: createHash("sha256").update(gzipped).digest("hex"), plan: JSON.stringify(rest), rows: slices };
}
