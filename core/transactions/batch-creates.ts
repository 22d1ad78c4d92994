import { eventLoopBreather, IMPORT_SLICE_MS, yieldToEventLoop } from "../async/yield-to-event-loop.ts";
import type { BatchState, OpRef } from "./batch-state.ts";
import type { CreateInput, Parsed, RuleError } from "./batch.types.ts";
import { type LedgerRow, newKey, setCash, setCostBasis } from "./ledger-row.ts";
import { checkPair } from "./pair-validation.calc.ts";
import { checkRow } from "./row-validation.calc.ts";
import { TYPE_RULES } from "./transaction-rules.ts";

/**
 * Creates: each row checked on its own (broker access, then the type's rules). Valid rows join
 * the working set; link_uuids are counted over every readable row so a pair whose other leg
 * failed is not also reported as a lone leg.
 */
export async function applyCreates(state: BatchState, creates: Parsed<CreateInput>[]): Promise<void> {
  // Checked a few milliseconds at a time: an import of 50,000 rows would hold the loop for a second.
  const breathe = eventLoopBreather(IMPORT_SLICE_MS);
  for (let index = 0; index < creates.length; index++) {
    await breathe();
    const valid = checkCreate(state, creates[index]!, index);
    if (!valid) continue;
    const { row, op, linkUuid } = valid;
    // A valid row joins three collections keyed per row, which grow together. JavaScriptCore grows a
    // Map's or Set's table in one step when it passes 16,384 entries (each a few ms for an import's
    // 50,000 keys, three of them 10–27 ms in one row on a loaded machine), so each such growth gets
    // a turn of its own.
    if (growsOnNextAdd(state.rows.size)) await yieldToEventLoop();
    state.rows.set(row.key, row);
    if (growsOnNextAdd(state.created.length)) await yieldToEventLoop();
    state.addCreated(row.key);
    if (growsOnNextAdd(state.touchedBy.size)) await yieldToEventLoop();
    state.touch(row.key, op);
    if (linkUuid) state.linkKeys.set(linkUuid, [...(state.linkKeys.get(linkUuid) ?? []), row.key]);
  }
}

/** A collection of this many entries grows its table on the next add (from 16,384 on, at each power of two). */
export const growsOnNextAdd = (size: number): boolean => size >= 16_384 && (size & (size - 1)) === 0;

/** One create checked on its own: its result recorded, and the row to add when it passes. */
function checkCreate(state: BatchState, parsed: Parsed<CreateInput>, index: number): { linkUuid: string | null; op: OpRef; row: LedgerRow } | null {
  const op: OpRef = { operation: "create", index };
  if (!parsed.ok) {
    state.rule(parsed.errors, op);
    state.result(op, []);
    return null;
  }
  const input = parsed.value;
  if (input.linkUuid) countLink(state, input, index);
  const row = toRow(input, newKey(index));
  state.result(op, [row.key], input.linkUuid);
  const broker = brokerErrors(state, input.brokerId);
  // A broker the caller cannot write is the whole answer; a missing one goes with the row's other rule errors.
  const denied = broker.length > 0 && broker[0]!.code !== "brokerRequired";
  if (state.rule(denied ? broker : [...broker, ...checkRow(state.facts(row, input.linkUuid, true))], op)) return null;
  return { row, op, linkUuid: input.linkUuid };
}

function countLink(state: BatchState, input: CreateInput, index: number): void {
  const entry = state.linkCounts.get(input.linkUuid!) ?? { count: 0, indexes: [], paired: false };
  entry.count++;
  entry.indexes.push(index);
  entry.paired ||= TYPE_RULES[input.type].paired;
  state.linkCounts.set(input.linkUuid!, entry);
}

/** A broker the caller cannot see reads as missing (`brokerNotFound`); a VIEWER gets `accessDenied`. */
function brokerErrors(state: BatchState, brokerId: number | null): RuleError[] {
  if (brokerId === null) return [{ code: "brokerRequired", msg: "broker_id is required", field: "broker_id" }];
  if (!state.lookups.roles.has(brokerId)) {
    return [{ code: "brokerNotFound", msg: `Broker ${brokerId} not found`, field: "broker_id", params: { broker_id: brokerId } }];
  }
  if (!state.canWrite(brokerId)) {
    const broker = state.brokerLabel(brokerId);
    return [{ code: "accessDenied", msg: `EDITOR or OWNER access to ${broker.name} is required`, field: "broker_id", params: broker.params }];
  }
  return [];
}

export function toRow(c: CreateInput, key: string): LedgerRow {
  const row: LedgerRow = {
    key, id: null, brokerId: c.brokerId ?? 0, assetId: c.assetId, type: c.type, date: c.date, quantity: c.quantity,
    amount: null, currency: null, relatedKey: null, tags: c.tags, description: c.description,
    costBasisOverride: null, costBasisCurrency: null, costBasisMode: c.costBasisMode, assetEventId: c.assetEventId,
  };
  setCash(row, c.cash);
  setCostBasis(row, c.costBasisOverride);
  return row;
}

/**
 * Pairs the creates of paired types by link_uuid once promotes have taken theirs: exactly two
 * rows per uuid (`linkUuidPairCount` on each otherwise), of one type and meeting the type's pair
 * constraints; then each leg points at the other. A uuid carried only by standalone rows is a
 * promote handle: unused, it is simply not stored.
 */
export function resolveCreateLinks(state: BatchState): void {
  for (const [uuid, entry] of state.linkCounts) {
    if (state.consumedUuids.has(uuid) || !entry.paired) continue;
    if (entry.count !== 2) {
      for (const index of entry.indexes) {
        state.addIssue({
          operation: "create", index, code: "linkUuidPairCount", field: "link_uuid",
          error: `link_uuid '${uuid}' is shared by ${entry.count} creates (expected 2)`, params: { link_uuid: uuid, count: entry.count },
        });
      }
      continue;
    }
    const [a, b] = (state.linkKeys.get(uuid) ?? []).map((k) => state.rows.get(k)!);
    if (!a || !b) continue;
    if (state.rule(checkPair(a, b), { operation: "create", index: entry.indexes[0]! })) continue;
    a.relatedKey = b.key;
    b.relatedKey = a.key;
  }
}
