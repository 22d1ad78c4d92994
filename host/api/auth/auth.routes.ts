import { Elysia } from "elysia";
import { uploadsDir } from "../../../core/uploads/paths.ts";
import { UploadService } from "../../../core/uploads/upload.service.ts";
import { GlobalSettingsService } from "../../../core/settings/global-settings.service.ts";
import { UserSettingsService } from "../../../core/settings/user-settings.service.ts";
import { LoginThrottleService } from "../../../core/users/login-throttle.service.ts";
import { SessionRevocationService } from "../../../core/users/session-revocation.service.ts";
import type { User } from "../../../core/users/user.entity.ts";
import { UserService } from "../../../core/users/user.service.ts";
import { clientAddress } from "../../http/client-address.ts";
import { ErrorBody, errorResponses, throttledErrorResponses } from "../../http/errors.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { isHttps, issueToken, SESSION_COOKIE, type SessionPlugin, verifyToken } from "../../http/session.ts";
import { tokensRoutes } from "./tokens.routes.ts";
import {
  AuthResponse, ChangePasswordRequest, LoginRequest, MeResponse, MessageResponse, PreferencesRequest, PreferencesResponse,
  RegisterRequest, toAccount, toUserSettings,
} from "./auth.schema.ts";

const DEFAULT_TTL_HOURS = 24;

type CookieJar = Record<string, { value?: unknown; set(options: Record<string, unknown>): unknown }>;

export function authRoutes(deps: HttpDeps, session: SessionPlugin) {
  const users = deps.container.resolve(UserService);
  const globals = deps.container.resolve(GlobalSettingsService);
  const userSettings = deps.container.resolve(UserSettingsService);
  const uploads = deps.container.resolve(UploadService);
  const revocations = deps.container.resolve(SessionRevocationService);
  const throttle = deps.container.resolve(LoginThrottleService);
  const addressOf = (request: Request) => clientAddress(request, deps.config.trustedProxies);

  /** Issues a session for `user` (TTL read now: a changed value applies from the next login) and sets the cookie. */
  async function startSession(user: User, cookie: CookieJar, request: Request): Promise<void> {
    let hours = await globals.int("session_ttl_hours");
    if (hours < 1) {
      deps.logger.warn("session_ttl_hours is below 1; using the default", { value: hours });
      hours = DEFAULT_TTL_HOURS;
    }
    const token = await issueToken(deps.sessionKey, user.id, hours * 3600, user.sessionEpoch);
    cookie[SESSION_COOKIE]!.set({
      value: token, httpOnly: true, sameSite: "lax", path: "/", maxAge: hours * 3600, secure: isHttps(request),
    });
  }

  return new Elysia({ prefix: "/auth", tags: ["auth"] })
    .use(session)
    .post("/register", async ({ body, request, status }) => {
      // Refusals that reveal an existing name or email count against the client address (docs/security.md "Login throttling").
      const keys = throttle.registrationKeys(addressOf(request));
      const { user, first } = await throttle.guard(keys, "USER_EXISTS", () => users.register(body));
      deps.logger.info("account registered", { user_id: user.id, username: user.username, superuser: first });
      return status(201, { user: toAccount(user), message: first ? "Registration successful (Admin)" : "Registration successful" });
    }, {
      body: RegisterRequest,
      response: { 201: AuthResponse, ...throttledErrorResponses, 409: ErrorBody },
      detail: { summary: "Create an account; the first account ever becomes superuser" },
    })
    .post("/login", async ({ body, cookie, request }) => {
      // Throttled per account and per client address (docs/security.md "Login throttling"): 429 with Retry-After when blocked.
      const keys = await throttle.loginKeys(body.username, addressOf(request));
      const user = await throttle.guard(keys, "INVALID_CREDENTIALS", () => users.authenticate(body.username, body.password), [keys[0]!]);
      await startSession(user, cookie as CookieJar, request);
      return { user: toAccount(user), user_settings: toUserSettings(await userSettings.get(user.id)), message: "Login successful" };
    }, {
      body: LoginRequest,
      response: { 200: AuthResponse, ...throttledErrorResponses, 401: ErrorBody },
      detail: { summary: "Log in with username or email; sets the HTTP-only session cookie" },
    })
    .post("/logout", async ({ cookie, request }) => {
      // The token itself is revoked until it expires (docs/security.md "Sessions"), not only the cookie cleared.
      const token = cookie[SESSION_COOKIE].value;
      const claims = typeof token === "string" && token !== "" ? await verifyToken(deps.sessionKey, token) : null;
      if (claims?.jti) await revocations.revoke(claims.jti, claims.userId, claims.exp);
      cookie[SESSION_COOKIE].set({
        value: "", httpOnly: true, sameSite: "lax", path: "/", maxAge: 0, secure: isHttps(request),
      });
      return { message: "Logged out" };
    }, {
      response: { 200: MessageResponse },
      detail: { summary: "End the session: the token is revoked until it expires and the cookie cleared" },
    })
    .post("/change-password", async ({ body, cookie, request, user }) => {
      const keys = [throttle.accountKey(user.id)];
      const changed = await throttle.guard(keys, "INVALID_PASSWORD",
        () => users.changePassword(user.id, body.current_password, body.new_password), keys);
      // Every earlier session ends; the caller continues in a new one.
      await startSession(changed, cookie as CookieJar, request);
      deps.logger.info("password changed", { user_id: user.id, username: user.username });
      return { message: "Password changed; other sessions were ended" };
    }, {
      auth: true,
      body: ChangePasswordRequest,
      response: { 200: MessageResponse, ...throttledErrorResponses },
      detail: { summary: "Change the own password (current password required); ends every other session" },
    })
    .get("/me", ({ user }) => ({ user: toAccount(user) }), {
      auth: true,
      response: { 200: MeResponse, ...errorResponses },
      detail: { summary: "The current account" },
    })
    .patch("/users/me/preferences", async ({ body, user }) => {
      const s = await userSettings.update(user.id, { language: body.language, baseCurrency: body.currency });
      return { language: s.language, currency: s.baseCurrency };
    }, {
      auth: true,
      body: PreferencesRequest,
      response: { 200: PreferencesResponse, ...errorResponses },
      detail: { summary: "Update language and base currency of the current user" },
    })
    .delete("/users/me", async ({ user, cookie, request }) => {
      const deletedUploads = await users.deleteSelf(user.id);
      await uploads.forget(uploadsDir(deps.config.dataDir), deletedUploads);
      cookie[SESSION_COOKIE].set({
        value: "", httpOnly: true, sameSite: "lax", path: "/", maxAge: 0, secure: isHttps(request),
      });
      deps.logger.info("account deleted", { user_id: user.id, username: user.username });
      return { message: "Account deleted" };
    }, {
      auth: true,
      response: { 200: MessageResponse, ...errorResponses, 400: ErrorBody },
      detail: { summary: "Delete the current account; refused for the only superuser" },
    })
    .use(tokensRoutes(deps, session));
}
