import { Elysia } from "elysia";
import { uploadsDir } from "../../../core/uploads/paths.ts";
import { UploadService } from "../../../core/uploads/upload.service.ts";
import { GlobalSettingsService } from "../../../core/settings/global-settings.service.ts";
import { UserSettingsService } from "../../../core/settings/user-settings.service.ts";
import { UserService } from "../../../core/users/user.service.ts";
import { errorResponses } from "../errors.ts";
import type { HttpDeps } from "../deps.ts";
import { isHttps, issueToken, SESSION_COOKIE, type SessionPlugin } from "../session.ts";
import {
  AuthResponse, LoginRequest, MeResponse, MessageResponse, PreferencesRequest, PreferencesResponse,
  RegisterRequest, toAccount, toUserSettings,
} from "./auth.schema.ts";

const DEFAULT_TTL_HOURS = 24;

export function authRoutes(deps: HttpDeps, session: SessionPlugin) {
  const users = deps.container.resolve(UserService);
  const globals = deps.container.resolve(GlobalSettingsService);
  const userSettings = deps.container.resolve(UserSettingsService);
  const uploads = deps.container.resolve(UploadService);

  return new Elysia({ prefix: "/auth", tags: ["auth"] })
    .use(session)
    .post("/register", async ({ body, status }) => {
      const { user, first } = await users.register(body);
      deps.logger.info("account registered", { user_id: user.id, username: user.username, superuser: first });
      return status(201, { user: toAccount(user), message: first ? "Registration successful (Admin)" : "Registration successful" });
    }, {
      body: RegisterRequest,
      response: { 201: AuthResponse, ...errorResponses },
      detail: { summary: "Create an account; the first account ever becomes superuser" },
    })
    .post("/login", async ({ body, cookie, request }) => {
      const user = await users.authenticate(body.username, body.password);
      // TTL is read at login; a changed value applies from the next login (SPEC Authentication 2).
      let hours = await globals.int("session_ttl_hours");
      if (hours < 1) {
        deps.logger.warn("session_ttl_hours is below 1; using the default", { value: hours });
        hours = DEFAULT_TTL_HOURS;
      }
      const token = await issueToken(deps.sessionKey, user.id, hours * 3600);
      cookie[SESSION_COOKIE].set({
        value: token, httpOnly: true, sameSite: "lax", path: "/", maxAge: hours * 3600, secure: isHttps(request),
      });
      return { user: toAccount(user), user_settings: toUserSettings(await userSettings.get(user.id)), message: "Login successful" };
    }, {
      body: LoginRequest,
      response: { 200: AuthResponse, ...errorResponses },
      detail: { summary: "Log in with username or email; sets the HTTP-only session cookie" },
    })
    .post("/logout", ({ cookie, request }) => {
      cookie[SESSION_COOKIE].set({
        value: "", httpOnly: true, sameSite: "lax", path: "/", maxAge: 0, secure: isHttps(request),
      });
      return { message: "Logged out" };
    }, {
      response: { 200: MessageResponse },
      detail: { summary: "Clear the session cookie (the token itself stays valid until it expires)" },
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
      response: { 200: MessageResponse, ...errorResponses },
      detail: { summary: "Delete the current account; refused for the only superuser" },
    });
}
