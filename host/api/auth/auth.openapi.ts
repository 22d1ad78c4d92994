import type { AreaDocs } from "../../http/openapi/operations.ts";
import { OWNER } from "../brokers/brokers.openapi.ts";

/** OpenAPI text of the auth area, listed in host/api/openapi.ts (docs/architecture.md "Where to add"). */
export const authDocs: AreaDocs = {
  tag: { name: "auth", description: "Login, logout, registration, the current account, its preferences and personal access tokens" },
  operations: {
    "POST /auth/register": {
      changes: "Creates an account and its settings row. The first account becomes a superuser, even when registration is disabled.",
      request: { username: "carol", email: "carol@example.com", password: "correct horse 9" },
      errors: {
        403: "`REGISTRATION_DISABLED`: registration is turned off (`enable_registration`).",
        409: "`USER_EXISTS`: the user name or e-mail is taken (`params.field`).",
      },
    },
    "POST /auth/login": {
      changes: "Nothing stored; sets the `session` cookie (HTTP-only, lifetime `session_ttl_hours`).",
      request: { username: "carol", password: "correct horse 9" },
      errors: { 401: "`INVALID_CREDENTIALS`: wrong user name, e-mail or password; `ACCOUNT_DISABLED`: the account is disabled." },
    },
    "PATCH /auth/users/me/preferences": {
      changes: "The caller's language and base currency (settings row).",
      request: { language: "en", currency: "EUR" },
    },
    "POST /auth/tokens": {
      who: "Any signed-in user, by session cookie only (a token cannot create tokens). The admin scope needs a superuser.",
      changes: "Creates a personal access token; only the SHA-256 of its secret is stored. Password changes and resets, and an admin ending the user's sessions, end it too.",
      request: { name: "home-assistant", scope: "read", expires_at: "2030-01-01T00:00:00Z" },
    },
    "GET /auth/tokens": {
      who: "Any signed-in user, by session cookie only (a token cannot list tokens).",
    },
    "DELETE /auth/tokens/{id}": {
      who: "The token's owner, by session cookie only.",
      changes: "Deletes the token; requests carrying it get 401 at once.",
    },
    "DELETE /auth/users/me": {
      who: "Any signed-in user, by session cookie only.",
      changes: "Deletes the caller's account, settings and access rows; brokers where the caller was the last OWNER are deleted with their transactions. Refused for the only superuser (400 LAST_SUPERUSER).",
    },
    "POST /auth/change-password": {
      who: "Any signed-in user, by session cookie only.",
      changes: "The caller's password hash; every earlier session of the caller ends and the answer sets a new session cookie.",
      request: { current_password: "correct horse 9", new_password: "battery staple 10" },
    },
    "POST /auth/logout": {
      changes: "Revokes the session token until it would have expired (its id is kept in the revocation list) and clears the `session` cookie.",
    },
  },
  fields: {
    username: "Login name (unique)",
    email: "E-mail address (unique)",
    password: "Password, at least 8 characters; never returned",
    is_active: "False means disabled: a disabled account cannot log in or use its sessions",
    is_superuser: "System-wide administrator flag, independent of broker roles",
    is_admin: "True for a superuser",
    user: "The account",
    user_settings: "The account's settings row",
    language: "Language code such as en or pt-BR",
    theme: "UI theme: light, dark or auto",
    avatar_url: "URL of the user's avatar image",
    base_currency: "Currency code the user's figures are shown in by default",
    current_password: "The password in use now",
    new_password: "The new password, at least 8 characters",
  },
};
