import { Elysia } from "elysia";
import { jwtVerify, SignJWT } from "jose";
import { UnauthenticatedError, NotAllowedError } from "../../core/errors/domain-error.ts";
import type { DependencyContainer } from "tsyringe";
import { AccessTokenService } from "../../core/users/access-token.service.ts";
import type { User } from "../../core/users/user.entity.ts";
import { UserService } from "../../core/users/user.service.ts";
import { bearerAuthenticator, bearerSecret, type TokenRoutes } from "./bearer.ts";
import type { HttpDeps } from "./deps.ts";
import { requestUrl } from "./request-url.ts";

export const SESSION_COOKIE = "session";

/**
 * The request presents credentials at all: a session cookie or an Authorization header (not
 * verified here; the session plugin does that). Used to leave large bodies of anonymous requests
 * unread (host/http/worker-json-body.ts).
 */
export function carriesCredentials(request: Request): boolean {
  return request.headers.has("authorization") || sessionCookieOf(request) !== null;
}

function sessionCookieOf(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE) return value.join("=");
  }
  return null;
}

/**
 * Whether the request's credentials hold up before its body is read: a session cookie whose
 * session lasts (valid signature, not expired, the account's current epoch, not revoked by its
 * logout: `liveSessions`), or a known, unexpired access token. Not the whole check (a disabled
 * account is told so by the session plugin after parsing); this keeps anonymous, forged and ended
 * sessions from having a large body read (host/http/server.ts).
 */
export function credentialsProbe(container: DependencyContainer, key: Uint8Array): (request: Request) => Promise<boolean> {
  const tokens = container.resolve(AccessTokenService);
  const sessions = liveSessions(container, key);
  return async (request) => {
    const header = request.headers.get("authorization");
    if (header !== null) {
      const secret = bearerSecret(header);
      return secret !== null && (await tokens.check(secret)) !== null;
    }
    const token = sessionCookieOf(request);
    return token !== null && token !== "" && (await sessions(token)) !== null;
  };
}

/**
 * The account a session token stands for while its session lasts, else null: a forged or expired
 * token, an account gone, an earlier session epoch (password change or reset) or a token revoked
 * by its logout (docs/security.md "Sessions"). The account may be disabled: callers decide what that means.
 */
function liveSessions(container: DependencyContainer, key: Uint8Array): (token: string) => Promise<User | null> {
  const users = container.resolve(UserService);
  return async (token) => {
    const claims = await verifyToken(key, token);
    const found = claims === null ? null : await users.findForSession(claims.userId, claims.jti);
    if (!found || claims!.epoch !== found.user.sessionEpoch || found.revoked) return null;
    return found.user;
  };
}
const ALG = "HS256";

/** Signing key: JWT_SECRET read once; when unset or empty, a random key per process (sessions then end with a restart). */
export function sessionKey(secret: string): Uint8Array {
  return secret ? new TextEncoder().encode(secret) : crypto.getRandomValues(new Uint8Array(32));
}

/**
 * Signs a session token: the spec's claims (`sub`, `iat`, `exp`) plus `jti` (a random id, so a
 * logout can revoke this token alone) and `sv` (the account's session epoch when issued: raising
 * the epoch ends every earlier token).
 */
export async function issueToken(key: Uint8Array, userId: number, ttlSeconds: number, epoch = 0, now = Date.now()) {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ sv: epoch })
    .setProtectedHeader({ alg: ALG, typ: "JWT" })
    .setSubject(String(userId))
    .setJti(crypto.randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(key);
}

/** What a valid token says: its account, id (absent on tokens from before logout revoked them), epoch and expiry. */
export interface SessionClaims {
  readonly epoch: number;
  readonly exp: number;
  readonly jti: string | null;
  readonly userId: number;
}

/** The claims of a valid, unexpired token, or null. Tokens without `sv` were issued in epoch 0. */
export async function verifyToken(key: Uint8Array, token: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: [ALG] });
    const id = Number(payload.sub);
    if (!Number.isSafeInteger(id) || id <= 0) return null;
    const epoch = payload.sv === undefined ? 0 : payload.sv;
    if (typeof epoch !== "number" || !Number.isSafeInteger(epoch)) return null;
    return { epoch, exp: payload.exp!, jti: typeof payload.jti === "string" ? payload.jti : null, userId: id };
  } catch {
    return null;
  }
}

/** The Secure flag follows X-Forwarded-Proto (docs/security.md "Deployment: the reverse proxy"). */
export function isHttps(request: Request): boolean {
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return proto === "https" || requestUrl(request).protocol === "https:";
}

const notAuthenticated = () => new UnauthenticatedError("NOT_AUTHENTICATED", "Not authenticated");

/**
 * How an admin-only route refuses a signed-in user who is not a superuser: `true` with
 * `ADMIN_REQUIRED`; a route may name a code and message of its own that tell what to do instead
 * (docs/errors.md). An access token without the admin scope is always `ADMIN_REQUIRED`.
 */
export type AdminRefusal = true | { readonly code: string; readonly message: string };

/**
 * The session plugin: `auth: true` requires a valid session and resolves `user`, reloading
 * the account on every request (a disabled or deleted account is refused at once); `admin: true` (or an {@link AdminRefusal})
 * also requires a superuser.
 * The check runs in the transform hook, before body and query validation, so a request without
 * a session gets 401 rather than a validation error. (Not in a parse hook: the OpenAPI generator
 * would then lose the request body's content types.) `tokenRoutes` says which routes an access
 * token may reach (bearer.ts).
 */
export function sessionPlugin(deps: HttpDeps, tokenRoutes: TokenRoutes) {
  const sessions = liveSessions(deps.container, deps.sessionKey);
  const checked = new WeakMap<Request, User>();
  const bearer = bearerAuthenticator(deps, tokenRoutes);

  const authenticate = async ({ cookie, request }: { cookie: Record<string, { value?: unknown }>; request: Request }) => {
    if (checked.has(request)) return;
    const viaToken = await bearer.authenticate(request);
    if (viaToken) return void checked.set(request, viaToken);
    const token = cookie[SESSION_COOKIE]?.value;
    if (typeof token !== "string" || token === "") throw notAuthenticated();
    const user = await sessions(token);
    if (!user) throw notAuthenticated();
    if (!user.isActive) throw new UnauthenticatedError("ACCOUNT_DISABLED", "User account is disabled");
    checked.set(request, user);
  };
  const authenticateAdmin = async (ctx: Parameters<typeof authenticate>[0], refusal: AdminRefusal) => {
    await authenticate(ctx);
    bearer.requireAdminScope(ctx.request);
    if (!checked.get(ctx.request)!.isSuperuser) {
      throw refusal === true ? new NotAllowedError("ADMIN_REQUIRED", "Admin access required") : new NotAllowedError(refusal.code, refusal.message);
    }
  };
  const resolveUser = ({ request }: { request: Request }) => ({ user: checked.get(request)! });

  return new Elysia({ name: "session" }).macro({
    auth: {
      detail: { security: [{ session: [] }, { bearer: [] }], "x-access": "user" } as {},
      transform: authenticate,
      resolve: resolveUser,
    },
    admin: (refusal: AdminRefusal) => ({
      detail: { security: [{ session: [] }, { bearer: [] }], "x-access": "admin" } as {},
      transform: (ctx: Parameters<typeof authenticate>[0]) => authenticateAdmin(ctx, refusal),
      resolve: resolveUser,
    }),
  });
}

export type SessionPlugin = ReturnType<typeof sessionPlugin>;
