import { Elysia } from "elysia";
import { z } from "zod";
import { NotAllowedError } from "../../../core/errors/domain-error.ts";
import { UserSettingsService } from "../../../core/settings/user-settings.service.ts";
import { SessionRevocationService } from "../../../core/users/session-revocation.service.ts";
import { UserService } from "../../../core/users/user.service.ts";
import { Account, toAccount } from "../auth/auth.schema.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";

const SearchQuery = z.object({
  q: z.string().max(100).default(""),
  admins: z.enum(["true", "false", "1", "0"]).optional().transform((v) => v === "true" || v === "1"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const UserSearchItem = z.object({
  id: z.number().int(),
  username: z.string(),
  avatar_url: z.string().optional(),
  is_admin: z.boolean().optional(),
  email: z.string().optional(),
});

const UserIdParams = z.object({ user_id: z.coerce.number().int().positive().describe("The account's id") });

const AdminUserChange = z.object({
  is_active: z.boolean().optional().describe("true activates the account, false deactivates it (its next request gets 401)"),
  is_superuser: z.boolean().optional().describe("true promotes the account to administrator, false demotes it"),
}).strict().refine((b) => b.is_active !== undefined || b.is_superuser !== undefined, { message: "Give is_active or is_superuser" })
  .describe("The flags to change; at least one");

export function usersRoutes(deps: HttpDeps, session: SessionPlugin) {
  const users = deps.container.resolve(UserService);
  const settings = deps.container.resolve(UserSettingsService);
  const revocations = deps.container.resolve(SessionRevocationService);

  return new Elysia({ prefix: "/users", tags: ["users"] })
    .use(session)
    .get("", async () => ({ items: (await users.listAll()).map(toAccount) }), {
      admin: true,
      response: { 200: z.object({ items: z.array(Account) }), ...errorResponses },
      detail: { summary: "All accounts, active or not (admin only)" },
    })
    .get("/search", async ({ query, user }) => {
      // Email and admin flag are only for administrators (reference: admins=true).
      if (query.admins && !user.isSuperuser) throw new NotAllowedError("ADMIN_REQUIRED", "Admin access required");
      const found = await users.search(query.q, { superusersOnly: query.admins, limit: query.limit });
      const items = await Promise.all(found.map(async (u) => {
        const avatar = (await settings.find(u.id))?.avatarUrl;
        return {
          id: u.id,
          username: u.username,
          ...(avatar ? { avatar_url: avatar } : {}),
          ...(query.admins ? { is_admin: u.isSuperuser, email: u.email } : {}),
        };
      }));
      return { items };
    }, {
      auth: true,
      query: SearchQuery,
      response: { 200: z.object({ items: z.array(UserSearchItem) }), ...errorResponses },
      detail: { summary: "Search active users by username (for sharing); admins=true lists superusers with email" },
    })
    .delete("/:user_id/sessions", async ({ params, user }) => {
      await revocations.endAll(params.user_id);
      deps.audit.record("sessions.end_all", user, { target_user_id: params.user_id });
      return { message: "All sessions of the user were ended" };
    }, {
      admin: true,
      params: z.object({ user_id: z.coerce.number().int().positive() }),
      response: { 200: z.object({ message: z.string() }), ...errorResponses },
      detail: { summary: "End every session of a user (admin only); the user logs in again" },
    })
    .patch("/:user_id", async ({ params, body, user }) => {
      const updated = await users.adminUpdate(user.id, params.user_id, { isActive: body.is_active, isSuperuser: body.is_superuser });
      deps.audit.record("user.admin_update", user, { target_user_id: params.user_id, ...body });
      return toAccount(updated);
    }, {
      admin: true,
      params: UserIdParams,
      body: AdminUserChange,
      response: { 200: Account, ...errorResponses },
      detail: {
        summary: "Activate or deactivate, promote or demote an account (admin only); 400 CANNOT_CHANGE_SELF for one's own "
          + "account, 400 LAST_SUPERUSER when no active superuser would remain",
      },
    })
    .post("/:user_id/password", async ({ params, body, user }) => {
      await users.adminResetPassword(params.user_id, body.password);
      deps.audit.record("user.password_reset", user, { target_user_id: params.user_id });
      return { message: "The password was reset and every session of the user was ended" };
    }, {
      admin: true,
      params: UserIdParams,
      body: z.object({ password: z.string().max(1024).describe("The new password; it must meet the password policy (422 WEAK_PASSWORD)") }).strict(),
      response: { 200: z.object({ message: z.string().describe("What happened") }), ...errorResponses },
      detail: { summary: "Reset an account's password (admin only) through the password policy; ends every session of the account" },
    });
}
