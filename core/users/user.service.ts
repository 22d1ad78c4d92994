import { inject, injectable } from "tsyringe";
import { type EntityManager, Like } from "typeorm";
import { deleteSolelyOwnedBrokers } from "../brokers/access-change.service.ts";
import { Database, type PreparedRead } from "../db/database.ts";
import { fromSqliteDatetime } from "../db/sqlite-date.ts";
import {
  ConflictError, InputError, NotAllowedError, NotFoundError, ValidationError, UnauthenticatedError,
} from "../errors/domain-error.ts";
import { GlobalSettingsService } from "../settings/global-settings.service.ts";
import { UserSettingsService } from "../settings/user-settings.service.ts";
import { UploadedFile } from "../uploads/uploaded-file.entity.ts";
import { dummyVerify, hashPassword, passwordProblems, type PasswordOwner, verifyPassword } from "./password.ts";
import { User } from "./user.entity.ts";

interface UserRow {
  created_at: string;
  email: string;
  id: number;
  is_active: number;
  is_superuser: number;
  password_hash: string;
  session_epoch: number;
  username: string;
}

function toUser(row: UserRow): User {
  return Object.assign(new User(), {
    id: row.id,
    username: row.username,
    email: row.email,
    passwordHash: row.password_hash,
    isActive: Boolean(row.is_active),
    isSuperuser: Boolean(row.is_superuser),
    sessionEpoch: row.session_epoch,
    createdAt: fromSqliteDatetime(row.created_at),
  });
}

export interface NewAccount {
  email: string;
  password: string;
  username: string;
}

@injectable()
export class UserService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(GlobalSettingsService) private readonly globals: GlobalSettingsService,
    @inject(UserSettingsService) private readonly userSettings: UserSettingsService,
  ) {}

  private byId?: PreparedRead<UserRow>;
  private bySession?: PreparedRead<UserRow & { revoked: number | boolean }>;

  /** Runs on every authenticated request, so it skips TypeORM's query building. */
  async findById(id: number): Promise<User | null> {
    this.byId ??= this.db.prepareRead<UserRow>(
      `SELECT id, username, email, password_hash, is_active, is_superuser, session_epoch, created_at FROM users WHERE id = ?`,
    );
    const row = await this.byId.get(id);
    return row ? toUser(row) : null;
  }

  /**
   * The account a session token names and whether the token's id is on the logout list
   * (core/users/session-revocation.service.ts), in one statement: it runs on every request
   * authenticated by a session, and on PostgreSQL each statement is a round trip. `jti` null (a
   * token from before logouts revoked tokens) is never revoked.
   */
  async findForSession(id: number, jti: string | null): Promise<{ user: User; revoked: boolean } | null> {
    this.bySession ??= this.db.prepareRead<UserRow & { revoked: number | boolean }>(
      `SELECT id, username, email, password_hash, is_active, is_superuser, session_epoch, created_at,
        EXISTS (SELECT 1 FROM revoked_sessions WHERE jti = ?) AS revoked FROM users WHERE id = ?`,
    );
    const row = await this.bySession.get(jti, id);
    return row ? { user: toUser(row), revoked: Boolean(row.revoked) } : null;
  }

  async getByUsername(username: string): Promise<User> {
    const user = await this.db.reads.findOneBy(User, { username });
    if (!user) throw new NotFoundError("USER_NOT_FOUND", `User '${username}' not found`);
    return user;
  }

  /**
   * Self-registration. The first account ever becomes superuser and is accepted even when
   * enable_registration is false, so a new installation gets its administrator. Counting happens inside the
   * serialised write, so two racing "first" accounts cannot both become superuser.
   */
  async register(input: NewAccount): Promise<{ user: User; first: boolean }> {
    checkPasswordPolicy(input.password, input, "password");
    const passwordHash = await hashPassword(input.password);
    const registrationOpen = await this.globals.bool("enable_registration");
    return this.db.write(async (tx) => {
      const first = (await tx.count(User)) === 0;
      if (!first && !registrationOpen) {
        throw new NotAllowedError("REGISTRATION_DISABLED", "Registration is disabled");
      }
      const user = await this.insert(tx, input, passwordHash, first);
      await this.userSettings.ensure(tx, user.id);
      return { user, first };
    });
  }

  /** Accounts made by the command-line tool are superusers. */
  async createSuperuser(input: NewAccount): Promise<User> {
    checkPasswordPolicy(input.password, input, "password");
    const passwordHash = await hashPassword(input.password);
    return this.db.write(async (tx) => {
      const user = await this.insert(tx, input, passwordHash, true);
      await this.userSettings.ensure(tx, user.id);
      return user;
    });
  }

  private async insert(tx: EntityManager, input: NewAccount, passwordHash: string, superuser: boolean) {
    const clash = await tx.findOne(User, { where: [{ username: input.username }, { email: input.email }] });
    if (clash) {
      const field = clash.username.toLowerCase() === input.username.toLowerCase() ? "username" : "email";
      throw new ConflictError("USER_EXISTS", `A user with this ${field} already exists`, { field });
    }
    return tx.save(User, Object.assign(new User(), {
      username: input.username, email: input.email, passwordHash, isActive: true, isSuperuser: superuser,
    }));
  }

  /** Login by username or email. Password first, so a wrong password never learns the account state. */
  async authenticate(login: string, password: string): Promise<User> {
    const user = await this.db.reads.findOne(User, { where: [{ username: login }, { email: login }] });
    const ok = user ? await verifyPassword(password, user.passwordHash) : await dummyVerify(password);
    if (!user || !ok) throw new UnauthenticatedError("INVALID_CREDENTIALS", "Invalid credentials");
    if (!user.isActive) throw new UnauthenticatedError("ACCOUNT_DISABLED", "Account is disabled");
    return user;
  }

  listAll(): Promise<User[]> {
    return this.db.reads.find(User, { order: { id: "ASC" } });
  }

  /** Active accounts whose username contains `query` (case-insensitive); empty query lists all. */
  search(query: string, opts: { superusersOnly?: boolean; limit?: number } = {}): Promise<User[]> {
    const escaped = query.replace(/[\\%_]/g, (c) => `\\${c}`);
    return this.db.reads.find(User, {
      where: {
        isActive: true,
        ...(query ? { username: Like(`%${escaped}%`) } : {}),
        ...(opts.superusersOnly ? { isSuperuser: true } : {}),
      },
      order: { username: "ASC" },
      take: opts.limit ?? 50,
    });
  }

  async setActive(username: string, active: boolean): Promise<User> {
    return this.db.write(async (tx) => {
      const user = await tx.findOneBy(User, { username });
      if (!user) throw new NotFoundError("USER_NOT_FOUND", `User '${username}' not found`);
      user.isActive = active;
      return tx.save(User, user);
    });
  }

  /** Promote or demote; demotion does not check that another superuser remains (the CLI can promote again). */
  async setSuperuser(username: string, superuser: boolean): Promise<User> {
    return this.db.write(async (tx) => {
      const user = await tx.findOneBy(User, { username });
      if (!user) throw new NotFoundError("USER_NOT_FOUND", `User '${username}' not found`);
      if (user.isSuperuser === superuser) {
        throw new ConflictError(superuser ? "ALREADY_SUPERUSER" : "NOT_SUPERUSER",
          superuser ? `User '${username}' is already a superuser` : `User '${username}' is not a superuser`);
      }
      user.isSuperuser = superuser;
      return tx.save(User, user);
    });
  }

  /**
   * An administrator's change of another account's active or superuser flag. Refused (400) when
   * the administrator targets their own account or when the change would leave no active
   * superuser, so the system always keeps one administrator who can sign in. The count is read in
   * the same write transaction as the change, so two administrators demoting each other at once
   * cannot both succeed.
   */
  async adminUpdate(actorId: number, targetId: number, change: { isActive?: boolean; isSuperuser?: boolean }): Promise<User> {
    return this.db.write(async (tx) => {
      const user = await tx.findOneBy(User, { id: targetId });
      if (!user) throw new NotFoundError("USER_NOT_FOUND", "User not found");
      const removesAdmin = (change.isActive === false && user.isActive) || (change.isSuperuser === false && user.isSuperuser);
      if (removesAdmin && targetId === actorId) {
        throw new InputError("CANNOT_CHANGE_SELF", "You cannot deactivate or demote your own account");
      }
      if (removesAdmin && user.isSuperuser && user.isActive
        && (await tx.countBy(User, { isSuperuser: true, isActive: true })) <= 1) {
        throw new InputError("LAST_SUPERUSER", "Cannot deactivate or demote the last active superuser; promote another user first");
      }
      if (change.isActive !== undefined) user.isActive = change.isActive;
      if (change.isSuperuser !== undefined) user.isSuperuser = change.isSuperuser;
      return tx.save(User, user);
    });
  }

  /** An administrator's password reset of an account by id: the password policy, then {@link resetPassword}'s effect. */
  async adminResetPassword(targetId: number, password: string): Promise<User> {
    const owner = await this.db.reads.findOneBy(User, { id: targetId });
    if (!owner) throw new NotFoundError("USER_NOT_FOUND", "User not found");
    return this.resetPassword(owner.username, password);
  }

  /**
   * Sets a new password and ends every earlier session of the account, so a reset after a leak
   * locks out whoever held the old password (docs/security.md "Sessions").
   */
  async resetPassword(username: string, password: string): Promise<User> {
    const owner = await this.db.reads.findOneBy(User, { username });
    if (owner) checkPasswordPolicy(password, owner, "password");
    const passwordHash = await hashPassword(password);
    return this.db.write(async (tx) => {
      const user = await tx.findOneBy(User, { username });
      if (!user) throw new NotFoundError("USER_NOT_FOUND", `User '${username}' not found`);
      return this.setPassword(tx, user, passwordHash);
    });
  }

  /**
   * The account owner's password change: the current password must match and the new one must
   * differ (400 `INVALID_PASSWORD`, `PASSWORD_UNCHANGED`, as the reference). Ends every earlier
   * session; answers the account with its new session epoch.
   */
  async changePassword(userId: number, current: string, next: string): Promise<User> {
    const user = await this.db.reads.findOneBy(User, { id: userId });
    if (!user) throw new NotFoundError("USER_NOT_FOUND", "User not found");
    if (!(await verifyPassword(current, user.passwordHash))) throw new InputError("INVALID_PASSWORD", "Current password is incorrect");
    if (current === next) throw new InputError("PASSWORD_UNCHANGED", "New password must be different from the current one");
    checkPasswordPolicy(next, user, "new_password");
    const passwordHash = await hashPassword(next);
    return this.db.write(async (tx) => {
      const stored = await tx.findOneBy(User, { id: userId });
      if (!stored) throw new NotFoundError("USER_NOT_FOUND", "User not found");
      return this.setPassword(tx, stored, passwordHash);
    });
  }

  private async setPassword(tx: EntityManager, user: User, passwordHash: string): Promise<User> {
    user.passwordHash = passwordHash;
    user.sessionEpoch += 1;
    return tx.save(User, user);
  }

  /**
   * Deletes the caller's own account with its settings, uploads, access rows and the brokers it
   * was the only OWNER of. Refused (400) when the
   * caller is a superuser and at most one superuser exists, so the system keeps an administrator.
   * Returns the deleted upload rows so the caller can remove their bytes and cache entries.
   */
  deleteSelf(userId: number): Promise<UploadedFile[]> {
    return this.db.write(async (tx) => {
      const user = await tx.findOneBy(User, { id: userId });
      if (!user) throw new NotFoundError("USER_NOT_FOUND", "User not found");
      if (user.isSuperuser && (await tx.countBy(User, { isSuperuser: true })) <= 1) {
        throw new InputError("LAST_SUPERUSER", "Cannot delete the only superuser account; promote another user first");
      }
      await deleteSolelyOwnedBrokers(tx, userId);
      const files = await tx.findBy(UploadedFile, { userId });
      await tx.delete(UploadedFile, { userId });
      await tx.delete(User, { id: userId });
      return files;
    });
  }
}

/**
 * Refuses a password outside the policy (core/users/password.ts) with 422 `WEAK_PASSWORD`, the
 * unmet requirements listed at the field, before any hashing or writing.
 */
function checkPasswordPolicy(password: string, owner: PasswordOwner, field: string): void {
  const problems = passwordProblems(password, owner);
  if (problems.length === 0) return;
  const message = `The password needs: ${problems.join("; ")}`;
  throw new ValidationError([{ loc: ["body", field], msg: message, type: "password_policy" }], message, "WEAK_PASSWORD", { unmet: problems });
}
