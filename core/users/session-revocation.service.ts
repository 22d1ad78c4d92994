import { inject, injectable } from "tsyringe";
import { Database } from "../db/database.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { User } from "./user.entity.ts";

/**
 * Ends sessions while tokens stay stateless (docs/security.md "Sessions"): a logout puts the token's `jti` on a
 * list kept until the token expires; a password change or reset, or an admin, ends every earlier
 * session of an account by raising its session epoch (tokens carry the epoch they were issued in).
 * Both live in the database so every server process and the CLI see them.
 */
@injectable()
export class SessionRevocationService {
  constructor(@inject(Database) private readonly db: Database) {}

  // Whether a token was revoked is read with its account, in one statement on every request
  // (UserService.findForSession).

  /** Revokes one token until `expiresAt` (epoch seconds); entries of expired tokens are dropped on the way. */
  revoke(jti: string, userId: number, expiresAt: number, nowSeconds = Math.floor(Date.now() / 1000)): Promise<void> {
    return this.db.write(async (tx) => {
      await tx.query(`DELETE FROM revoked_sessions WHERE expires_at < ?`, [nowSeconds]);
      await tx.query(`INSERT OR IGNORE INTO revoked_sessions (jti, user_id, expires_at) VALUES (?, ?, ?)`, [jti, userId, expiresAt]);
    });
  }

  /** Ends every session of the account issued so far; answers the new epoch. */
  endAll(userId: number): Promise<number> {
    return this.db.write(async (tx) => {
      const user = await tx.findOneBy(User, { id: userId });
      if (!user) throw new NotFoundError("USER_NOT_FOUND", "User not found");
      await tx.query(`UPDATE users SET session_epoch = session_epoch + 1 WHERE id = ?`, [userId]);
      return user.sessionEpoch + 1;
    });
  }
}
