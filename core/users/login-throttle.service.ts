import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { Database } from "../db/database.ts";
import { DomainError, TooManyRequestsError } from "../errors/domain-error.ts";
import {
  ACCOUNT_POLICY, ADDRESS_POLICY, afterFailure, delaySeconds, REGISTRATION_POLICY, retryAfterSeconds, type ThrottlePolicy, type ThrottleState,
} from "./login-throttle.calc.ts";

/** Milliseconds since the epoch; a DI token so tests can drive time. */
export const THROTTLE_NOW = Symbol("THROTTLE_NOW");
export type Now = () => number;

/**
 * A throttled key with its policy: `user:<id>` or `login:<name>` per account, `ip:<address>`,
 * `register:<address>`. `precount` keys count an attempt before its outcome is known (parallel
 * guesses at one account); the others count confirmed failures only, so many people logging in
 * at once from one address never block each other.
 */
export interface ThrottleKey {
  readonly key: string;
  readonly policy: ThrottlePolicy;
  readonly precount: boolean;
}

interface Row {
  blocked_until: number;
  failures: number;
  last_failure_at: number;
}

const toState = (row: Row | undefined): ThrottleState | null =>
  row ? { blockedUntil: row.blocked_until, failures: row.failures, lastFailureAt: row.last_failure_at } : null;

/** 429 `TOO_MANY_ATTEMPTS` with the longest wait while any of the states is blocked. */
function assertNotBlocked(states: readonly (ThrottleState | null)[], now: number): void {
  const wait = Math.max(0, ...states.map((state) => retryAfterSeconds(state, now)));
  if (wait > 0) throw new TooManyRequestsError("TOO_MANY_ATTEMPTS", `Too many failed attempts; try again in ${wait} s`, wait);
}

/**
 * Failure counters of logins, password changes and registrations, kept in the
 * database so every server process and the CLI share them and a restart gives an attacker no
 * fresh budget (docs/decisions.md).
 */
@injectable()
export class LoginThrottleService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(THROTTLE_NOW) private readonly now: Now,
  ) {}

  /** The keys of a login attempt: the account behind `login` (else the name itself) and the client address. */
  async loginKeys(login: string, address: string | undefined): Promise<ThrottleKey[]> {
    const rows = await this.db.reads.query(
      `SELECT id FROM users WHERE lower(username) = lower(?) OR lower(email) = lower(?) ORDER BY id LIMIT 1`, [login, login],
    ) as { id: number }[];
    const account = rows[0] ? `user:${rows[0].id}` : `login:${login.trim().toLowerCase()}`;
    return [
      { key: account, policy: ACCOUNT_POLICY, precount: true },
      ...(address ? [{ key: `ip:${address}`, policy: ADDRESS_POLICY, precount: false }] : []),
    ];
  }

  accountKey(userId: number): ThrottleKey {
    return { key: `user:${userId}`, policy: ACCOUNT_POLICY, precount: true };
  }

  registrationKeys(address: string | undefined): ThrottleKey[] {
    return address ? [{ key: `register:${address}`, policy: REGISTRATION_POLICY, precount: false }] : [];
  }

  /**
   * Runs `work` as one throttled attempt on `keys`: refused with 429 while blocked; a DomainError
   * with `failureCode` counts as a failure; anything else (success included) settles the attempt,
   * forgetting every failure of the `forget` keys.
   */
  async guard<T>(keys: readonly ThrottleKey[], failureCode: string, work: () => Promise<T>, forget: readonly ThrottleKey[] = []): Promise<T> {
    await this.attempt(keys);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      if (error instanceof DomainError && error.code === failureCode) await this.confirmFailure(keys);
      else await this.settle(keys, forget);
      throw error;
    }
    await this.settle(keys, forget);
    return result;
  }

  /**
   * Starts an attempt: throws 429 `TOO_MANY_ATTEMPTS` (the longest wait of the keys, nothing
   * counted) while any key is blocked; else counts the attempt as a failure on the `precount`
   * keys, in one serialised write, so parallel guesses at one account cannot all pass the check
   * before any is counted. Then {@link settle} or {@link confirmFailure}.
   */
  async attempt(keys: readonly ThrottleKey[]): Promise<void> {
    const now = this.now();
    if (!keys.some((k) => k.precount)) {
      // Nothing to count up front: a read on the reader connection, no write queued.
      assertNotBlocked(await Promise.all(keys.map(async ({ key }) => toState(await this.read(this.db.reads, key)))), now);
      return;
    }
    return this.db.write(async (tx) => {
      const states = await Promise.all(keys.map(async ({ key }) => toState(await this.read(tx, key))));
      assertNotBlocked(states, now);
      for (const [i, { key, policy, precount }] of keys.entries()) {
        if (precount) await this.store(tx, key, afterFailure(policy, states[i]!, now));
      }
    });
  }

  private async store(tx: EntityManager, key: string, state: ThrottleState): Promise<void> {
    await tx.query(
      `INSERT INTO login_throttle (key, failures, blocked_until, last_failure_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, blocked_until = excluded.blocked_until,
       last_failure_at = excluded.last_failure_at`,
      [key, state.failures, state.blockedUntil, state.lastFailureAt],
    );
  }

  /**
   * The attempt was not a failure: `forget` keys (the account on a successful login) lose every
   * failure; other pre-counted keys lose this attempt only. The client address keeps its count,
   * so logging in to one's own account between guesses at others buys an address nothing.
   */
  async settle(keys: readonly ThrottleKey[], forget: readonly ThrottleKey[] = []): Promise<void> {
    if (!keys.some((k) => k.precount || forget.some((f) => f.key === k.key))) return;
    return this.db.write(async (tx) => {
      for (const { key, policy, precount } of keys) {
        if (forget.some((f) => f.key === key)) {
          await tx.query(`DELETE FROM login_throttle WHERE key = ?`, [key]);
          continue;
        }
        if (!precount) continue;
        await tx.query(
          `UPDATE login_throttle SET failures = max(failures - 1, 0),
           blocked_until = CASE WHEN failures - 1 <= ? THEN 0 ELSE blocked_until END WHERE key = ?`,
          [policy.freeFailures, key],
        );
      }
    });
  }

  /**
   * The attempt failed: keys that were not pre-counted count it now; each key's block starts now,
   * at the answer, rather than when the attempt began (a password check can take a moment), so
   * Retry-After tells the full wait.
   */
  confirmFailure(keys: readonly ThrottleKey[]): Promise<void> {
    const now = this.now();
    return this.db.write(async (tx) => {
      for (const { key, policy, precount } of keys) {
        const state = toState(await this.read(tx, key));
        if (!precount) {
          await this.store(tx, key, afterFailure(policy, state, now));
          continue;
        }
        if (!state) continue;
        const blockedUntil = now + delaySeconds(policy, state.failures) * 1000;
        await tx.query(`UPDATE login_throttle SET blocked_until = ? WHERE key = ?`, [blockedUntil, key]);
      }
    });
  }

  /** Forgets every failure of the account (a password reset by the CLI: the owner's way back in). */
  clearAccount(userId: number): Promise<void> {
    return this.db.write((tx) => tx.query(`DELETE FROM login_throttle WHERE key = ?`, [`user:${userId}`]));
  }

  private async read(manager: EntityManager, key: string): Promise<Row | undefined> {
    const rows = await manager.query(`SELECT failures, blocked_until, last_failure_at FROM login_throttle WHERE key = ?`, [key]) as Row[];
    return rows[0];
  }
}
