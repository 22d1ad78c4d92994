import type { AreaDocs } from "../../http/openapi/operations.ts";

/** OpenAPI text of the users area, listed in host/api/openapi.ts (docs/architecture.md "Where to add"). */
export const usersDocs: AreaDocs = {
  tag: { name: "users", description: "User management and user search" },
  operations: {
    "DELETE /users/{user_id}/sessions": {
      changes: "Revokes every session of the user (cookies and tokens issued before now stop working); the user logs in again.",
    },
    // Answers written by hand: replaying them would promote bob or change his password for every later example.
    "PATCH /users/{user_id}": {
      who: "Superusers only (403 ADMIN_REQUIRED otherwise). Not on one's own account, and never leaving no active superuser.",
      changes: "The account's active flag (a deactivated account's next request and logins get 401) and/or superuser flag (applies at its next request). Audit-logged.",
      request: { is_superuser: true },
      response: { id: 2, username: "bob", email: "bob@example.com", is_active: true, is_superuser: true, created_at: "2026-01-05T09:30:00.000Z" },
      errors: { 400: "CANNOT_CHANGE_SELF: the caller's own account deactivated or demoted; LAST_SUPERUSER: no active superuser would remain" },
    },
    "POST /users/{user_id}/password": {
      who: "Superusers only (403 ADMIN_REQUIRED otherwise).",
      changes: "The account's password hash, after the password policy (422 WEAK_PASSWORD); every session of the account ends. Audit-logged without the password.",
      request: { password: "a new long passphrase 7" },
      response: { message: "The password was reset and every session of the user was ended" },
    },
  },
  fields: {
    admins: "true: superusers only",
  },
};
