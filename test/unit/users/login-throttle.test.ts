import { describe, expect, test } from "bun:test";
import {
  ACCOUNT_POLICY, afterFailure, delaySeconds, retryAfterSeconds, type ThrottleState,
} from "../../../core/users/login-throttle.calc.ts";

// Login throttling (docs/security.md "Login throttling"), driven by an explicit clock (`now` in milliseconds).

describe("login throttling arithmetic", () => {
  test("five free failures, then 1 s doubling per failure, capped at 5 minutes", () => {
    const delays = Array.from({ length: 16 }, (_, i) => delaySeconds(ACCOUNT_POLICY, i + 1));
    expect(delays).toEqual([0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]);
    expect(delaySeconds(ACCOUNT_POLICY, 10_000)).toBe(300);
  });

  test("Retry-After is the rest of the block in whole seconds, rounded up; 0 once it has passed", () => {
    let state: ThrottleState | null = null;
    let now = 1_000_000;
    for (let i = 0; i < 7; i++) state = afterFailure(ACCOUNT_POLICY, state, now);
    expect(state!.failures).toBe(7);
    expect(retryAfterSeconds(state, now)).toBe(2);
    now += 1_500;
    expect(retryAfterSeconds(state, now)).toBe(1);
    now += 500;
    expect(retryAfterSeconds(state, now)).toBe(0);
  });

  test("the owner is never blocked longer than the cap, however many failures", () => {
    let state: ThrottleState | null = null;
    const now = 5_000_000;
    for (let i = 0; i < 200; i++) state = afterFailure(ACCOUNT_POLICY, state, now + i);
    expect(retryAfterSeconds(state, now + 199)).toBe(300);
  });

  test("failures older than 15 minutes are forgotten", () => {
    let state: ThrottleState | null = null;
    for (let i = 0; i < 9; i++) state = afterFailure(ACCOUNT_POLICY, state, 0);
    const later = afterFailure(ACCOUNT_POLICY, state, 15 * 60_000 + 1);
    expect([later.failures, retryAfterSeconds(later, 15 * 60_000 + 1)]).toEqual([1, 0]);
  });
});
