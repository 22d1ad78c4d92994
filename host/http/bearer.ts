import { NotAllowedError, UnauthenticatedError } from "../../core/errors/domain-error.ts";
import { AccessTokenService, type TokenGrant } from "../../core/users/access-token.service.ts";
import type { User } from "../../core/users/user.entity.ts";
import { UserService } from "../../core/users/user.service.ts";
import type { HttpDeps } from "./deps.ts";
import { requestPath } from "./request-url.ts";

const API = "/api/v1";

/**
 * What a personal access token may reach besides reads (GET, HEAD), by path without the /api/v1
 * prefix. The areas' list (`TOKEN_ROUTES` of host/api/index.ts) fills it in; the kernel knows no route.
 */
export interface TokenRoutes {
  /** POST routes that only read (a query in a body): a read-only token may call them. */
  readonly readPosts: ReadonlySet<string>;
  /** Routes a token never reaches, whatever its scope: managing tokens and the account's own credentials. */
  readonly cookieOnly: readonly RegExp[];
}

/** The secret of an `Authorization: Bearer <token>` header; null when the header has another form. */
export function bearerSecret(header: string): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? null;
}

/**
 * `Authorization: Bearer <personal access token>` (docs/decisions.md, "Personal access tokens"):
 * the token's user is then checked exactly like a session's (reloaded, active, session epoch), with
 * the token's scope on top. The session plugin asks this module first and falls back to the cookie.
 */
export function bearerAuthenticator(deps: HttpDeps, routes: TokenRoutes) {
  const tokens = deps.container.resolve(AccessTokenService);
  const users = deps.container.resolve(UserService);
  const grants = new WeakMap<Request, TokenGrant>();
  const notAuthenticated = () => new UnauthenticatedError("NOT_AUTHENTICATED", "Not authenticated");

  return {
    /** The user of a valid bearer token; undefined when the request carries none. */
    async authenticate(request: Request): Promise<User | undefined> {
      const header = request.headers.get("authorization");
      if (!header) return undefined;
      const secret = bearerSecret(header);
      const grant = secret === null ? null : await tokens.check(secret);
      const user = grant ? await users.findById(grant.userId) : null;
      if (!grant || !user || user.sessionEpoch !== grant.epoch) throw notAuthenticated();
      if (!user.isActive) throw new UnauthenticatedError("ACCOUNT_DISABLED", "User account is disabled");
      const { method, path } = { method: request.method, path: requestPath(request).slice(API.length) };
      // An MCP token is graded (docs/mcp.md): the REST API would show it everything, so it reaches only the MCP server.
      if (grant.mcp) throw new NotAllowedError("TOKEN_MCP_ONLY", "This access token is for the MCP server only (/api/v1/mcp)");
      if (routes.cookieOnly.some((re) => re.test(path))) {
        throw new NotAllowedError("TOKEN_NOT_ALLOWED", "Access tokens cannot manage tokens or the account's credentials; sign in");
      }
      const reads = method === "GET" || method === "HEAD" || (method === "POST" && routes.readPosts.has(path));
      if (!reads && grant.scope !== "read-write") {
        throw new NotAllowedError("TOKEN_READ_ONLY", "This access token is read-only");
      }
      grants.set(request, grant);
      return user;
    },
    /** Admin-only routes: a token needs the admin scope (only superusers can create one). */
    requireAdminScope(request: Request) {
      const grant = grants.get(request);
      if (grant && !grant.admin) throw new NotAllowedError("ADMIN_REQUIRED", "This access token has no admin scope");
    },
  };
}
