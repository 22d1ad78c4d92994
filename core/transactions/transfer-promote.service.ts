import { inject, injectable } from "tsyringe";
import { TransactionBatchService } from "./batch.service.ts";
import type { BatchInput, BatchIssue, Money } from "./batch.types.ts";
import { Decimal, toDecimalString } from "../money/decimal.ts";
import { TransactionQueryService, type TransactionRecord } from "./transaction-query.service.ts";
import type { TransactionType } from "./transaction.entity.ts";

export interface TransferPromoteRequest {
  assetId?: number;
  costBasisOverride?: Money;
  fromTxId: number;
  newType: Extract<TransactionType, "TRANSFER" | "FX_CONVERSION" | "CASH_TRANSFER">;
  quantity?: string;
  toTxId: number;
}

export interface TransferPromoteOutcome {
  errors: string[];
  newFromTxId: number | null;
  newToTxId: number | null;
  rolledBack: boolean;
}

const none = { ok: true as const };
const empty = (): BatchInput => ({ creates: [], updates: [], deletes: [], splits: [], promotes: [] });
const failed = (errors: string[]): TransferPromoteOutcome => ({ rolledBack: true, newFromTxId: null, newToTxId: null, errors });
const describe = (issues: BatchIssue[]) => issues.map((i) => (i.code ? `${i.code}: ${i.error}` : i.error));

/**
 * `POST /transactions/transfers/promote`: a WITHDRAWAL (from) and a DEPOSIT (to) become one
 * pair, atomically, through the batch (so every batch rule applies). Cash pairs are promoted in
 * place and keep their ids; a TRANSFER replaces both rows with two new legs of `asset_id`
 * (−quantity at the sender, +quantity with the cost basis at the receiver), on the old dates.
 */
@injectable()
export class TransferPromoteService {
  constructor(
    @inject(TransactionBatchService) private readonly batch: TransactionBatchService,
    @inject(TransactionQueryService) private readonly query: TransactionQueryService,
  ) {}

  async promote(userId: number, r: TransferPromoteRequest): Promise<TransferPromoteOutcome> {
    if (r.newType !== "TRANSFER") {
      const input = { ...empty(), promotes: [{ ...none, value: { a: { id: r.fromTxId }, b: { id: r.toTxId }, expectedType: r.newType } }] };
      const out = await this.batch.run(userId, input, "commit");
      return out.committed ? { rolledBack: false, newFromTxId: r.fromTxId, newToTxId: r.toTxId, errors: [] } : failed(describe(out.issues));
    }
    if (r.assetId === undefined || r.quantity === undefined) return failed(["asset_id and quantity are required for a TRANSFER"]);
    const rows = await this.query.list(userId, { ids: [r.fromTxId, r.toTxId], limit: 2, offset: 0 });
    const [from, to] = [rows.find((x) => x.id === r.fromTxId), rows.find((x) => x.id === r.toTxId)];
    if (!from || !to) return failed([`Transaction ${!from ? r.fromTxId : r.toTxId} not found`]);
    if (from.type !== "WITHDRAWAL" || to.type !== "DEPOSIT") return failed([`noPromoteRule: expected a WITHDRAWAL and a DEPOSIT, got ${from.type} and ${to.type}`]);
    const leg = (row: TransactionRecord, quantity: Decimal, costBasisOverride: Money | null) => ({
      ...none, value: {
        brokerId: row.brokerId, date: row.date, quantity: toDecimalString(quantity), costBasisOverride, type: "TRANSFER" as const,
        assetId: r.assetId!, cash: null, linkUuid: "transfers-promote", tags: row.tags, description: row.description,
        costBasisMode: null, assetEventId: null,
      },
    });
    const quantity = new Decimal(r.quantity).abs();
    const input: BatchInput = {
      ...empty(),
      deletes: [{ ...none, value: from.id }, { ...none, value: to.id }],
      creates: [leg(from, quantity.neg(), null), leg(to, quantity, r.costBasisOverride ?? null)],
    };
    const out = await this.batch.run(userId, input, "commit");
    if (!out.committed) return failed(describe(out.issues));
    const ids = out.results.filter((x) => x.operation === "create").map((x) => x.ids[0]!);
    return { rolledBack: false, newFromTxId: ids[0]!, newToTxId: ids[1]!, errors: [] };
  }
}
