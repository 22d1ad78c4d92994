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
    });
}
