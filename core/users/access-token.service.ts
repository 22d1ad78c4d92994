import { createHash, randomBytes } from "node:crypto";
import { inject, injectable } from "tsyringe";
import { brokerNotFound } from "../brokers/broker-access.service.ts";
import { Database, type PreparedRead } from "../db/database.ts";
import { ConflictError, InputError, NotAllowedError, NotFoundError } from "../errors/domain-error.ts";

/** `read`: only reads (GET and the read-with-a-body routes); `read-write`: everything the user may do. */
export type TokenScope = "read" | "read-write";
export const TOKEN_SCOPES = ["read", "read-write"] as const;

/**
 * What an MCP token may see (docs/mcp.md "Data grades"): `full` amounts; `relative` weights, returns and
 * percentages without quantities or currency amounts; `aggregate` portfolio-level figures only.
 */
export type McpGrade = "full" | "relative" | "aggregate";
export const MCP_GRADES = ["full", "relative", "aggregate"] as const;

/** The MCP scope of a token: its grade and, optionally, the brokers it is narrowed to (null: all the owner sees). */
export interface McpScope {
  readonly brokerIds: readonly number[] | null;
  readonly grade: McpGrade;
}

/** What a secret starts with, so it is recognisable (for example by secret scanners). */
export const TOKEN_PREFIX = "pt_";

export interface AccessTokenView {
  readonly admin: boolean;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly id: number;
  readonly lastUsedAt: Date | null;
  /** The MCP scope; a token that has one reaches only the MCP endpoint. */
  readonly mcp: McpScope | null;
  readonly name: string;
  /** The first characters of the secret, to tell tokens apart. */
  readonly prefix: string;
  readonly scope: TokenScope;
}

/** A valid token: whose it is and what it may do. */
export interface TokenGrant {
  readonly admin: boolean;
  readonly epoch: number;
  readonly mcp: McpScope | null;
  readonly scope: TokenScope;
  readonly tokenId: number;
  readonly userId: number;
}

interface Row {
  admin: number; created_at: number; expires_at: number | null; id: number; last_used_at: number | null;
  mcp_broker_ids: string | null; mcp_grade: McpGrade | null; name: string; prefix: string; scope: TokenScope;
  session_epoch: number; user_id: number;
}

const hashOf = (secret: string) => createHash("sha256").update(secret).digest("hex");
const toDate = (s: number | null) => (s === null ? null : new Date(s * 1000));
const TOUCH_EVERY_SECONDS = 60;

/**
 * Personal access tokens (docs/decisions.md, "Personal access tokens"). The secret is 32 random
 * bytes, shown once; only its SHA-256 is stored (a random secret needs no slow hash). A token
 * carries the account's session epoch, so ending every session of the account ends its tokens too.
 */
@injectable()
export class AccessTokenService {
  private byHash?: PreparedRead<Row>;
  private readonly touched = new Map<number, number>();

  constructor(@inject(Database) private readonly db: Database) {}

  /** Creates a token; `admin` needs a superuser. Answers the secret (never stored) and the record. */
  create(
    owner: { id: number; isSuperuser: boolean; sessionEpoch: number },
    input: { admin: boolean; expiresAt: Date | null; mcp?: McpScope | null; name: string; scope: TokenScope },
    now = new Date(),
  ): Promise<{ secret: string; token: AccessTokenView }> {
    if (input.admin && !owner.isSuperuser) throw new NotAllowedError("ADMIN_REQUIRED", "Only a superuser can create a token with the admin scope");
    if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) throw new InputError("TOKEN_EXPIRY_PAST", "expires_at must be in the future");
    const mcp = input.mcp ?? null;
    // An MCP token is never admin; only a `full` one may be read-write (committing its own drafts),
    // since a write answers what a lower grade hides.
    if (mcp && (input.admin || (input.scope !== "read" && mcp.grade !== "full"))) {
      throw new InputError("TOKEN_MCP_READ_ONLY", "An MCP token has no admin, and only a `full` one may have scope `read-write`");
    }
    const secret = TOKEN_PREFIX + randomBytes(32).toString("base64url");
    const prefix = secret.slice(0, TOKEN_PREFIX.length + 6);
    const createdAt = Math.floor(now.getTime() / 1000);
    const expiresAt = input.expiresAt ? Math.floor(input.expiresAt.getTime() / 1000) : null;
    return this.db.write(async (tx) => {
      const taken = await tx.query(`SELECT 1 FROM access_tokens WHERE user_id = ? AND name = ?`, [owner.id, input.name]);
      if (taken.length) throw new ConflictError("TOKEN_NAME_TAKEN", `You already have a token named '${input.name}'`);
      if (mcp?.brokerIds) {
        // Never more than the owner sees: every broker named must be one the owner has a role on.
        const seen = new Set((await tx.query(`SELECT broker_id FROM broker_access WHERE user_id = ?`, [owner.id]) as { broker_id: number }[])
          .map((r) => Number(r.broker_id)));
        const unknown = mcp.brokerIds.find((id) => !seen.has(id));
        if (unknown !== undefined) throw brokerNotFound(unknown);
      }
      await tx.query(
        `INSERT INTO access_tokens (user_id, name, token_hash, prefix, scope, admin, session_epoch, created_at, expires_at, mcp_grade, mcp_broker_ids)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [owner.id, input.name, hashOf(secret), prefix, input.scope, input.admin ? 1 : 0, owner.sessionEpoch, createdAt, expiresAt,
          mcp?.grade ?? null, mcp?.brokerIds ? JSON.stringify([...new Set(mcp.brokerIds)].sort((a, b) => a - b)) : null],
      );
      const [row] = await tx.query(`SELECT * FROM access_tokens WHERE token_hash = ?`, [hashOf(secret)]);
      return { secret, token: toView(row as Row) };
    });
  }

  /** The caller's tokens, newest first. */
  async list(userId: number): Promise<AccessTokenView[]> {
    const rows: Row[] = await this.db.reads.query(`SELECT * FROM access_tokens WHERE user_id = ? ORDER BY id DESC`, [userId]);
    return rows.map(toView);
  }

  /** Deletes one of the caller's tokens; another user's token is not found. */
  revoke(userId: number, tokenId: number): Promise<void> {
    return this.db.write(async (tx) => {
      const found = await tx.query(`SELECT 1 FROM access_tokens WHERE id = ? AND user_id = ?`, [tokenId, userId]);
      if (!found.length) throw new NotFoundError("TOKEN_NOT_FOUND", "Access token not found");
      await tx.query(`DELETE FROM access_tokens WHERE id = ?`, [tokenId]);
    });
  }

  /** The grant of a secret that exists and has not expired, or null (a prepared lookup by hash). */
  async check(secret: string, now = Date.now()): Promise<TokenGrant | null> {
    if (!secret.startsWith(TOKEN_PREFIX) || secret.length > 200) return null;
    this.byHash ??= this.db.prepareRead<Row>(`SELECT * FROM access_tokens WHERE token_hash = ?`);
    const row = await this.byHash.get(hashOf(secret));
    const seconds = Math.floor(now / 1000);
    if (!row || (row.expires_at !== null && row.expires_at <= seconds)) return null;
    this.touch(row.id, seconds);
    return { admin: Boolean(row.admin), epoch: row.session_epoch, mcp: mcpOf(row), scope: row.scope, tokenId: row.id, userId: row.user_id };
  }

  /** Records the last use at most once a minute per token, without holding up the request. */
  private touch(id: number, seconds: number) {
    if ((this.touched.get(id) ?? 0) > seconds - TOUCH_EVERY_SECONDS) return;
    this.touched.set(id, seconds);
    this.db.write((tx) => tx.query(`UPDATE access_tokens SET last_used_at = ? WHERE id = ?`, [seconds, id])).catch(() => undefined);
  }
}

function mcpOf(row: Row): McpScope | null {
  if (!row.mcp_grade) return null;
  return { grade: row.mcp_grade, brokerIds: row.mcp_broker_ids ? (JSON.parse(row.mcp_broker_ids) as number[]) : null };
}

function toView(row: Row): AccessTokenView {
  return {
    id: row.id, name: row.name, scope: row.scope, admin: Boolean(row.admin), prefix: row.prefix, mcp: mcpOf(row),
    createdAt: toDate(row.created_at)!, expiresAt: toDate(row.expires_at), lastUsedAt: toDate(row.last_used_at),
  };
}
