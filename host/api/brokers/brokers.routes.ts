import { today } from "../../../core/dates/calendar.ts";
import { Elysia } from "elysia";
import { BrokerSummaryService } from "../../../core/brokers/broker-summary.service.ts";
import { BrokerService } from "../../../core/brokers/broker.service.ts";
import { ConflictError } from "../../../core/errors/domain-error.ts";
import { sweepBrimFiles } from "./import/brim-port.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { bulkLimits, itemsLimit } from "../../http/bulk-limits.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { accessRoutes } from "./access.routes.ts";
import {
  BrokerCreateRequest, BrokerCreateResponse, MAX_BROKER_ITEMS, BrokerDeleteResponse, BrokerIdParams, BrokerRead, BrokerSummaryBody,
  BrokerUpdateRequest, BrokerUpdateResponse, toBrokerRead, toBrokerSummary,
} from "./brokers.schema.ts";
import { z } from "zod";


/** Brokers: the unit of ownership and sharing. Visible only through access rows (404 otherwise). */
export function brokersRoutes(deps: HttpDeps, session: SessionPlugin) {
  const brokers = deps.container.resolve(BrokerService);
  const summaries = deps.container.resolve(BrokerSummaryService);

  return new Elysia({ prefix: "/brokers", tags: ["brokers"] })
    .use(session)
    .use(bulkLimits)
    .post("", async ({ body, user }) => {
      const outcomes = await brokers.create(user.id, body.map((b) => ({
        name: b.name, description: b.description, portalUrl: b.portal_url, iconUrl: b.icon_url,
        defaultImportPlugin: b.default_import_plugin, allowCashOverdraft: b.allow_cash_overdraft,
        allowAssetShorting: b.allow_asset_shorting, isActive: b.is_active, openedAt: b.opened_at,
        initialBalances: b.initial_balances,
      })), today());
      return {
        results: outcomes.map((o) => o.success
          ? {
            success: true, broker_id: o.brokerId, name: o.name, deposits_created: o.depositsCreated,
            deposits: o.deposits.map((d) => ({ transaction_id: d.transactionId, date: d.date, cash: { code: d.currency, amount: d.amount } })),
          }
          : { success: false, broker_id: null, name: o.name, deposits_created: 0, deposits: [], error: o.error }),
        success_count: outcomes.filter((o) => o.success).length,
        errors: [],
      };
    }, {
      auth: true,
      limits: [itemsLimit(MAX_BROKER_ITEMS)],
      body: BrokerCreateRequest,
      response: { 200: BrokerCreateResponse, ...errorResponses, 413: ErrorBody },
      detail: { summary: "Create brokers (the caller becomes OWNER with share 1); positive initial balances become DEPOSITs" },
    })
    .get("", async ({ user }) => ({ items: (await brokers.list(user.id)).map(toBrokerRead) }), {
      auth: true,
      response: { 200: z.object({ items: z.array(BrokerRead) }), ...errorResponses },
      detail: { summary: "Brokers the caller has access to, with their role and share" },
    })
    .get("/:id", async ({ params, user }) => toBrokerRead(await brokers.get(user.id, params.id)), {
      auth: true,
      params: BrokerIdParams,
      response: { 200: BrokerRead, ...errorResponses },
      detail: { summary: "One broker (VIEWER or better; 404 without access)" },
    })
    .get("/:id/summary", async ({ params, user }) => toBrokerSummary(await summaries.summary(user.id, params.id)), {
      auth: true,
      params: BrokerIdParams,
      response: { 200: BrokerSummaryBody, ...errorResponses },
      detail: { summary: "Cash balance per currency and open positions with quantity and average cost (VIEWER or better)" },
    })
    .patch("/:id", async ({ params, body, user }) => {
      try {
        const { validationTriggered } = await brokers.update(user.id, params.id, {
          name: body.name, description: body.description, portalUrl: body.portal_url, iconUrl: body.icon_url,
          defaultImportPlugin: body.default_import_plugin, allowCashOverdraft: body.allow_cash_overdraft,
          allowAssetShorting: body.allow_asset_shorting, isActive: body.is_active, openedAt: body.opened_at,
        });
        return { results: [{ id: params.id, success: true, validation_triggered: validationTriggered }], success_count: 1, errors: [] };
      } catch (error) {
        // The reference answers a refused re-validation in its bulk shape, per item.
        if (!(error instanceof ConflictError && error.code === "BALANCE_NEGATIVE")) throw error;
        return { results: [{ id: params.id, success: false, validation_triggered: true, error: error.message }], success_count: 0, errors: [] };
      }
    }, {
      auth: true,
      params: BrokerIdParams,
      body: BrokerUpdateRequest,
      response: { 200: BrokerUpdateResponse, ...errorResponses, 409: ErrorBody },
      detail: { summary: "Edit name, icon, description and settings (EDITOR or OWNER); empty strings clear text fields" },
    })
    .delete("/:id", async ({ params, user }) => {
      const { transactionsDeleted } = await brokers.delete(user.id, params.id);
      await sweepBrimFiles(deps.container, deps.config.dataDir);
      deps.logger.info("broker deleted", { broker_id: params.id, user_id: user.id, transactions_deleted: transactionsDeleted });
      return { success: true, deleted_count: 1, transactions_deleted: transactionsDeleted };
    }, {
      auth: true,
      params: BrokerIdParams,
      response: { 200: BrokerDeleteResponse, ...errorResponses },
      detail: { summary: "Delete the broker with its transactions and broker-report files (OWNER only)" },
    })
    .use(accessRoutes(deps, session));
}
