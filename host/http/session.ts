import { Elysia } from "elysia";
import { jwtVerify, SignJWT } from "jose";
import { UnauthenticatedError, NotAllowedError } from "../../core/errors/domain-error.ts";
import type { User } from "../../core/users/user.entity.ts";
import { UserService } from "../../core/users/user.service.ts";
import type { HttpDeps } from "./deps.ts";

export const SESSION_COOKIE = "session";
const ALG = "HS256";

/** Signing key: JWT_SECRET read once; when unset or empty, a random key per process (SPEC Authentication 5). */
export function sessionKey(secret: string): Uint8Array {
  return secret ? new TextEncoder().encode(secret) : crypto.getRandomValues(new Uint8Array(32));
}

export async function issueToken(key: Uint8Array, userId: number, ttlSeconds: number, now = Date.now()) {
  const iat = Math.floor(now / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: ALG, typ: "JWT" })
    .setSubject(String(userId))
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(key);
}

/** The user id of a valid, unexpired token, or null. */
export async function verifyToken(key: Uint8Array, token: string): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: [ALG] });
    const id = Number(payload.sub);
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/** The Secure flag follows X-Forwarded-Proto (SPEC Authentication 4). */
export function isHttps(request: Request): boolean {
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return proto === "https" || new URL(request.url).protocol === "https:";
}

const notAuthenticated = () => new UnauthenticatedError("NOT_AUTHENTICATED", "Not authenticated");

/**
 * The session plugin: `auth: true` requires a valid session and resolves `user`, reloading
 * the account on every request (SPEC Authentication 6); `admin: true` also requires a superuser.
 * The check runs in the transform hook, before body and query validation, so a request without
 * a session gets 401 rather than a validation error. (Not in a parse hook: the OpenAPI generator
 * would then lose the request body's content types.)
 */
export function sessionPlugin(deps: HttpDeps) {
  const users = deps.container.resolve(UserService);
  const key = deps.sessionKey;
  const checked = new WeakMap<Request, User>();

  const authenticate = async ({ cookie, request }: { cookie: Record<string, { value?: unknown }>; request: Request }) => {
    if (checked.has(request)) return;
    const token = cookie[SESSION_COOKIE]?.value;
    if (typeof token !== "string" || token === "") throw notAuthenticated();
    const id = await verifyToken(key, token);
    const user = id === null ? null : await users.findById(id);
    if (!user) throw notAuthenticated();
    if (!user.isActive) throw new UnauthenticatedError("ACCOUNT_DISABLED", "User account is disabled");
    checked.set(request, user);
  };
  const authenticateAdmin = async (ctx: Parameters<typeof authenticate>[0]) => {
    await authenticate(ctx);
    if (!checked.get(ctx.request)!.isSuperuser) throw new NotAllowedError("ADMIN_REQUIRED", "Admin access required");
  };
  const resolveUser = ({ request }: { request: Request }) => ({ user: checked.get(request)! });

  return new Elysia({ name: "session" }).macro({
    auth: {
      detail: { security: [{ session: [] }], "x-access": "user" } as {},
      transform: authenticate,
      resolve: resolveUser,
    },
    admin: {
      detail: { security: [{ session: [] }], "x-access": "admin" } as {},
      transform: authenticateAdmin,
      resolve: resolveUser,
    },
  });
}

export type SessionPlugin = ReturnType<typeof sessionPlugin>;
