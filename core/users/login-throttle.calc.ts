/**
 * Login throttling as pure arithmetic over one counter (docs/security.md "Login throttling"): after `freeFailures`
 * failures in a row, each further failure blocks the key for an exponentially growing delay
 * (1 s, 2 s, 4 s, ...) capped at `capSeconds`. Failures older than `forgetAfterSeconds` are forgotten.
 */
export interface ThrottlePolicy {
  readonly capSeconds: number;
  readonly forgetAfterSeconds: number;
  readonly freeFailures: number;
}

/** One key's state; times in epoch milliseconds. */
export interface ThrottleState {
  readonly blockedUntil: number;
  readonly failures: number;
  readonly lastFailureAt: number;
}

/** Per account (username, email or the account behind them): a few tries, then at most one every 5 minutes. */
export const ACCOUNT_POLICY: ThrottlePolicy = { capSeconds: 300, forgetAfterSeconds: 900, freeFailures: 5 };
/** Per client address, over all accounts (password spraying): more room for a shared household address. */
export const ADDRESS_POLICY: ThrottlePolicy = { capSeconds: 300, forgetAfterSeconds: 900, freeFailures: 20 };
/** Registrations refused because the name or email exists (account discovery), per client address. */
export const REGISTRATION_POLICY: ThrottlePolicy = { capSeconds: 300, forgetAfterSeconds: 900, freeFailures: 10 };

/** Whole seconds until the key may try again (rounded up), or 0 when it may try now. */
export function retryAfterSeconds(state: ThrottleState | null, now: number): number {
  if (!state || state.blockedUntil <= now) return 0;
  return Math.ceil((state.blockedUntil - now) / 1000);
}

/** The delay after the `failures`-th failure in a row: 0 within the free ones, then 1 s doubling to the cap. */
export function delaySeconds(policy: ThrottlePolicy, failures: number): number {
  const over = failures - policy.freeFailures;
  if (over <= 0) return 0;
  return Math.min(policy.capSeconds, 2 ** Math.min(over - 1, 30));
}

/** The state after one more failure at `now`. */
export function afterFailure(policy: ThrottlePolicy, state: ThrottleState | null, now: number): ThrottleState {
  const stale = !state || now - state.lastFailureAt > policy.forgetAfterSeconds * 1000;
  const failures = stale ? 1 : state.failures + 1;
  return { blockedUntil: now + delaySeconds(policy, failures) * 1000, failures, lastFailureAt: now };
}
