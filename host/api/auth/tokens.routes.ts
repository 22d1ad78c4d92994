import { Elysia } from "elysia";
import { AccessTokenService } from "../../../core/users/access-token.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { TokenCreateRequest, TokenCreateResponse, TokenIdParams, TokenList, TokenRevokeResponse, toTokenRead } from "./tokens.schema.ts";

/**
 * Personal access tokens of the signed-in user (docs/decisions.md "API clients"), under /auth/tokens. Managed with the
 * session cookie only: a token cannot mint or revoke tokens (host/http/bearer.ts).
 */
export function tokensRoutes(deps: HttpDeps, session: SessionPlugin) {
  const tokens = deps.container.resolve(AccessTokenService);
  return new Elysia({ prefix: "/tokens", tags: ["auth"] })
    .use(session)
    .post("", async ({ body, user, status }) => {
      const { secret, token } = await tokens.create(user, {
        name: body.name, scope: body.scope, admin: body.admin, expiresAt: body.expires_at ? new Date(body.expires_at) : null,
        mcp: body.mcp ? { grade: body.mcp.grade, brokerIds: body.mcp.broker_ids ?? null } : null,
      });
      deps.logger.info("access token created", { user_id: user.id, token_id: token.id, scope: token.scope, admin: token.admin, mcp_grade: token.mcp?.grade ?? null });
      return status(201, { ...toTokenRead(token), token: secret });
    }, {
      auth: true,
      body: TokenCreateRequest,
      response: { 201: TokenCreateResponse, ...errorResponses, 409: ErrorBody },
      detail: { summary: "Create a personal access token; the secret is in this answer only" },
    })
    .get("", async ({ user }) => ({ items: (await tokens.list(user.id)).map(toTokenRead) }), {
      auth: true,
      response: { 200: TokenList, ...errorResponses },
      detail: { summary: "The caller's personal access tokens (never their secrets)" },
    })
    .delete("/:id", async ({ params, user }) => {
      await tokens.revoke(user.id, params.id);
      deps.logger.info("access token revoked", { user_id: user.id, token_id: params.id });
      return { success: true, id: params.id };
    }, {
      auth: true,
      params: TokenIdParams,
      response: { 200: TokenRevokeResponse, ...errorResponses },
      detail: { summary: "Revoke one of the caller's personal access tokens; it stops working at once" },
    });
}
