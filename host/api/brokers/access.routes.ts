import { Elysia } from "elysia";
import { AccessChangeService } from "../../../core/brokers/access-change.service.ts";
import { sweepBrimFiles } from "./import/brim-port.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import {
  AccessAddRequest, AccessList, AccessParams, AccessRow, AccessUpdateRequest, BrokerIdParams, SelfChangeResponse,
  SelfRoleRequest, toAccessListItem, toAccessRow,
} from "./brokers.schema.ts";

/**
 * Sharing: per-user broker roles (docs/decisions.md "Brokers and access"), on the routes `/access`,
 * `/access/{user_id}` and `/access/me`. Mounted inside the `/brokers` instance.
 */
export function accessRoutes(deps: HttpDeps, session: SessionPlugin) {
  const access = deps.container.resolve(AccessChangeService);

  return new Elysia({ tags: ["brokers"] })
    .use(session)
    .get("/:id/access", async ({ params, user }) => ({
      items: (await access.list(user.id, params.id)).map(toAccessListItem),
    }), {
      auth: true,
      params: BrokerIdParams,
      response: { 200: AccessList, ...errorResponses },
      detail: { summary: "Users with access to the broker, with role and share (VIEWER or better)" },
    })
    .post("/:id/access", async ({ params, body, user, status }) => status(201, toAccessRow(
      await access.add(user.id, params.id, { userId: body.user_id, role: body.role, share: body.share_percentage }),
    )), {
      auth: true,
      params: BrokerIdParams,
      body: AccessAddRequest,
      response: { 201: AccessRow, ...errorResponses, 409: ErrorBody },
      detail: { summary: "Give a user access (OWNER only); OWNER defaults to share 1.000000, others to 0" },
    })
    .patch("/:id/access/me", async ({ params, body, user }) => {
      const row = await access.demoteSelf(user.id, params.id, body.role);
      return { success: true, message: `Your role is now ${row.role}`, broker_deleted: false };
    }, {
      auth: true,
      params: BrokerIdParams,
      body: SelfRoleRequest,
      response: { 200: SelfChangeResponse, ...errorResponses, 409: ErrorBody },
      detail: { summary: "Lower your own role; the last OWNER cannot (409 LAST_OWNER)" },
    })
    .delete("/:id/access/me", async ({ params, user }) => {
      const { brokerDeleted } = await access.leave(user.id, params.id);
      if (brokerDeleted) await sweepBrimFiles(deps.container, deps.config.dataDir);
      return { success: true, message: brokerDeleted ? "You were the last OWNER: the broker was deleted" : "You left the broker", broker_deleted: brokerDeleted };
    }, {
      auth: true,
      params: BrokerIdParams,
      response: { 200: SelfChangeResponse, ...errorResponses, 409: ErrorBody },
      detail: { summary: "Leave the broker; the last OWNER leaving deletes it with its transactions" },
    })
    .patch("/:id/access/:user_id", async ({ params, body, user }) => toAccessRow(
      await access.update(user.id, params.id, params.user_id, { role: body.role, share: body.share_percentage }),
    ), {
      auth: true,
      params: AccessParams,
      body: AccessUpdateRequest,
      response: { 200: AccessRow, ...errorResponses, 409: ErrorBody },
      detail: { summary: "Change a user's role or share (OWNER only; the only way to promote)" },
    })
    .delete("/:id/access/:user_id", async ({ params, user }) => {
      await access.remove(user.id, params.id, params.user_id);
      return { success: true, message: "Access removed", broker_deleted: false };
    }, {
      auth: true,
      params: AccessParams,
      response: { 200: SelfChangeResponse, ...errorResponses, 409: ErrorBody },
      detail: { summary: "Remove a user's access (OWNER, or the user themself); the last OWNER cannot be removed" },
    });
}
