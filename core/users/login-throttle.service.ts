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

/** A throttled key with its policy: `user:<id>` or `login:<name>` per account, `ip:<address>`, `register:<address>`. */
export interface ThrottleKey {
  readonly key: string;
  readonly policy: ThrottlePolicy;
}

interface Row {
  blocked_until: number;
  failures: number;
  last_failure_at: number;
}

const toState = (row: Row | undefined): ThrottleState | null =>
  row ? { blockedUntil: row.blocked_until, failures: row.failures, lastFailureAt: row.last_failure_at } : null;

/**
 * Failure counters of logins, password changes and registrations (issue 10.2), kept in the
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
    return [{ key: account, policy: ACCOUNT_POLICY }, ...(address ? [{ key: `ip:${address}`, policy: ADDRESS_POLICY }] : [])];
  }

  accountKey(userId: number): ThrottleKey {
    return { key: `user:${userId}`, policy: ACCOUNT_POLICY };
  }

  registrationKeys(address: string | undefined): ThrottleKey[] {
    return address ? [{ key: `register:${address}`, policy: REGISTRATION_POLICY }] : [];
  }

  /**
   * Runs `work` as one throttled attempt: refused with 429 while any key of `keys` or `late` is
   * blocked. `keys` count the attempt up front (parallel guesses at one account cannot all pass
   * the check before any is counted); `late` keys (the client address) count only a failure,
   * once it happened, so many people behind one address logging in at once are not refused.
   * A DomainError with `failureCode` is a failure; anything else (success included) settles the
   * attempt, forgetting every failure of the `forget` keys.
   */
  async guard<T>(
    keys: readonly ThrottleKey[], failureCode: string, work: () => Promise<T>,
    forget: readonly ThrottleKey[] = [], late: readonly ThrottleKey[] = [],
  ): Promise<T> {
    await this.refuseBlocked(late);
    await this.attempt(keys);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      if (error instanceof DomainError && error.code === failureCode) {
        await this.confirmFailure(keys);
        await this.count(late, false);
      } else await this.settle(keys, forget);
      throw error;
    }
    await this.settle(keys, forget);
    return result;
  }

  /**
   * Starts an attempt: throws 429 `TOO_MANY_ATTEMPTS` (the longest wait of the keys, nothing
   * counted) while any key is blocked; else counts the attempt as a failure on every key, in one
   * serialised write, so parallel guesses cannot all pass the check before any is counted.
   * Call {@link settle} when it turns out not to be a failure.
   */
  attempt(keys: readonly ThrottleKey[]): Promise<void> {
    return this.count(keys, true);
  }

  /**
   * Like {@link guard} with every key `late`: only a failure is counted, after it happened. For
   * registration, where many sign-ups from one address at once are legitimate (a script creating
   * the household's accounts) and a refusal reveals that a name exists, never a password.
   */
  guardFailures<T>(keys: readonly ThrottleKey[], failureCode: string, work: () => Promise<T>): Promise<T> {
    return this.guard([], failureCode, work, [], keys);
  }

  /** 429 `TOO_MANY_ATTEMPTS` (the longest wait) while any of `keys` is blocked; reads only. */
  private async refuseBlocked(keys: readonly ThrottleKey[]): Promise<void> {
    if (keys.length === 0) return;
    const now = this.now();
    const states = await Promise.all(keys.map(async ({ key }) => toState(await this.read(this.db.reads, key))));
    const wait = Math.max(0, ...states.map((state) => retryAfterSeconds(state, now)));
    if (wait > 0) throw new TooManyRequestsError("TOO_MANY_ATTEMPTS", `Too many failed attempts; try again in ${wait} s`, wait);
  }

  /** Counts one failure on every key in one serialised write; `refuseBlocked` first refuses (429) while any key is blocked. */
  private count(keys: readonly ThrottleKey[], refuseBlocked: boolean): Promise<void> {
    if (keys.length === 0) return Promise.resolve();
    const now = this.now();
    return this.db.write(async (tx) => {
      const states = await Promise.all(keys.map(async ({ key }) => toState(await this.read(tx, key))));
      const wait = Math.max(0, ...states.map((state) => retryAfterSeconds(state, now)));
      if (refuseBlocked && wait > 0) throw new TooManyRequestsError("TOO_MANY_ATTEMPTS", `Too many failed attempts; try again in ${wait} s`, wait);
      for (const [i, { key, policy }] of keys.entries()) {
        const next = afterFailure(policy, states[i]!, now);
        await tx.query(
          `INSERT INTO login_throttle (key, failures, blocked_until, last_failure_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, blocked_until = excluded.blocked_until,
           last_failure_at = excluded.last_failure_at`,
          [key, next.failures, next.blockedUntil, next.lastFailureAt],
        );
      }
    });
  }

  /**
   * The attempt was not a failure: `forget` keys (the account on a successful login) lose every
   * failure; the others (the client address) only lose this attempt, so logging in to one's own
   * account between guesses at others buys an address nothing.
   */
  settle(keys: readonly ThrottleKey[], forget: readonly ThrottleKey[] = []): Promise<void> {
    return this.db.write(async (tx) => {
      for (const { key, policy } of keys) {
        if (forget.some((f) => f.key === key)) {
          await tx.query(`DELETE FROM login_throttle WHERE key = ?`, [key]);
          continue;
        }
        await tx.query(
          `UPDATE login_throttle SET failures = max(failures - 1, 0),
           blocked_until = CASE WHEN failures - 1 <= ? THEN 0 ELSE blocked_until END WHERE key = ?`,
          [policy.freeFailures, key],
        );
      }
    });
  }

  /**
   * The attempt failed: each key's block starts now, at the answer, rather than when the attempt
   * began (a password check can take a moment), so Retry-After tells the full wait.
   */
  confirmFailure(keys: readonly ThrottleKey[]): Promise<void> {
    const now = this.now();
    return this.db.write(async (tx) => {
      for (const { key, policy } of keys) {
        const state = toState(await this.read(tx, key));
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
