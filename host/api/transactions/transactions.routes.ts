import { Elysia } from "elysia";
import { z } from "zod";
import { TransactionBatchService } from "../../../core/transactions/batch.service.ts";
import { EventSuggestService } from "../../../core/transactions/event-suggest.service.ts";
import { PromoteSuggestService } from "../../../core/transactions/promote-suggest.service.ts";
import { TransactionQueryService } from "../../../core/transactions/transaction-query.service.ts";
import { TransferPromoteService } from "../../../core/transactions/transfer-promote.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { bulkLimits, itemsLimit, type Limit, queryListLimit } from "../../http/bulk-limits.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { typesResponse, TypesResponse } from "./transaction-types.schema.ts";
import {
  toBatchInput, toBatchResponse, toEventSuggestion, toPromoteSuggestions, toTransactionQuery, toTxRead,
} from "./transactions.dto.ts";
import {
  BatchRequest, BatchResponse, EventSuggestRequest, EventSuggestResponse, ListQuery, MAX_PAIR_OPS, MAX_ROWS, MAX_SUGGEST_ITEMS,
  PromoteSuggestQuery, PromoteSuggestRequest, PromoteSuggestResponse, TransferPromoteRequest, TransferPromoteResponse, TxRead,
} from "./transactions.schema.ts";

/** Rows of each list of a batch; beyond them the whole batch is refused before any row is checked. */
const BATCH_LIMITS: Limit[] = ([["creates", MAX_ROWS], ["updates", MAX_ROWS], ["deletes", MAX_ROWS], ["splits", MAX_PAIR_OPS], ["promotes", MAX_PAIR_OPS]] as const)
  .map(([key, max]) => ({
    max, unit: key, count: ({ body }) => (Array.isArray(body?.[key]) ? body[key].length : 0), hint: "Split the batch over several requests",
  }));
const LIST_LIMITS: Limit[] = [queryListLimit(MAX_ROWS, "ids"), queryListLimit(MAX_ROWS, "exclude_ids", "excluded ids")];

/** The ledger: batch writes, filtered reads and the helpers. Session only; brokers decide what is visible. */
export function transactionsRoutes(deps: HttpDeps, session: SessionPlugin) {
  const batch = deps.container.resolve(TransactionBatchService);
  const query = deps.container.resolve(TransactionQueryService);
  const events = deps.container.resolve(EventSuggestService);
  const promoteSuggest = deps.container.resolve(PromoteSuggestService);
  const transferPromote = deps.container.resolve(TransferPromoteService);
  const types = typesResponse();

  return new Elysia({ prefix: "/transactions", tags: ["transactions"] })
    .use(session)
    .use(bulkLimits)
    .post("/validate", async ({ body, user }) => toBatchResponse(await batch.run(user.id, toBatchInput(body), "validate")), {
      auth: true,
      limits: BATCH_LIMITS,
      body: BatchRequest,
      response: { 200: BatchResponse, ...errorResponses, 413: ErrorBody },
      detail: { summary: "Dry-run a mixed batch: every check runs, nothing is kept (committed is always false)" },
    })
    .post("/commit", async ({ body, user }) => toBatchResponse(await batch.run(user.id, toBatchInput(body), "commit")), {
      auth: true,
      limits: BATCH_LIMITS,
      body: BatchRequest,
      response: { 200: BatchResponse, ...errorResponses, 413: ErrorBody },
      detail: { summary: "Apply a mixed batch all or nothing: deletes, updates, creates, splits, promotes; any issue keeps nothing" },
    })
    .get("", async ({ query: q, user }) => (await query.list(user.id, toTransactionQuery(q))).map(toTxRead), {
      auth: true,
      limits: LIST_LIMITS,
      query: ListQuery,
      response: { 200: z.array(TxRead), ...errorResponses, 413: ErrorBody, 404: ErrorBody },
      detail: { summary: "Transactions of the brokers you can see, newest first (a plain array); `ids` returns those rows in input order" },
    })
    .get("/types", () => types, {
      auth: true,
      response: { 200: TypesResponse, ...errorResponses },
      detail: { summary: "The twelve types with their field and sign rules, event compatibility and every validation code" },
    })
    .post("/events/suggest", async ({ body }) => (await events.suggest(body.map((r) => ({
      assetId: r.asset_id, date: r.date, type: r.type, toleranceDays: r.tolerance_days,
    })))).map(toEventSuggestion), {
      auth: true,
      limits: [itemsLimit(MAX_SUGGEST_ITEMS)],
      body: EventSuggestRequest,
      response: { 200: EventSuggestResponse, ...errorResponses, 413: ErrorBody },
      detail: { summary: "Asset events a transaction could link to, of a compatible type, within ± tolerance days" },
    })
    .post("/promote-suggest", async ({ body, query: q, user }) => {
      const found = await promoteSuggest.suggest(user.id, body.map((p) => ({
        id: p.id, type: p.type, brokerId: p.broker_id, date: p.date, currency: p.currency, assetId: p.asset_id, amount: p.amount, quantity: p.quantity,
      })), q.tolerance_days);
      return toPromoteSuggestions(found);
    }, {
      auth: true,
      limits: [itemsLimit(MAX_SUGGEST_ITEMS)],
      body: PromoteSuggestRequest,
      query: PromoteSuggestQuery,
      response: { 200: PromoteSuggestResponse, ...errorResponses, 413: ErrorBody },
      detail: { summary: "Partners two standalone rows could be promoted into a pair with (brokers you can write only)" },
    })
    .post("/transfers/promote", async ({ body, user }) => {
      const out = await transferPromote.promote(user.id, {
        fromTxId: body.from_tx_id, toTxId: body.to_tx_id, newType: body.new_type, assetId: body.asset_id,
        quantity: body.quantity, costBasisOverride: body.cost_basis_override,
      });
      return { rolled_back: out.rolledBack, new_from_tx_id: out.newFromTxId, new_to_tx_id: out.newToTxId, errors: out.errors };
    }, {
      auth: true,
      body: TransferPromoteRequest,
      response: { 200: TransferPromoteResponse, ...errorResponses },
      detail: { summary: "Atomically turn a WITHDRAWAL and a DEPOSIT into a TRANSFER, FX_CONVERSION or CASH_TRANSFER pair" },
    });
}
