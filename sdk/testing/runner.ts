/**
 * The test runner the contract suites register with, and the assertions they use, so the suites
 * run under `bun test`, `vitest` and `node:test` alike. `describe` and `test` come from the
 * runner: the globals `bun test` and `vitest --globals` define, or the functions passed to
 * `useTestRunner` (required for `node:test` and for vitest without globals). `expect` is a small
 * runner-neutral assertion layer; a failed assertion throws an `Error`, which every runner reports.
 * Example: `import { describe, test } from "node:test"; useTestRunner({ describe, test });`.
 */

type Body = () => unknown;
/** What a runner provides: the two registration functions every runner has. */
export interface TestRunner {
  describe(name: string, body: () => void): unknown;
  test(name: string, body: Body): unknown;
}

let chosen: TestRunner | undefined;

/** Registers the suites with this runner's `describe` and `test` (call it before running a contract). */
export function useTestRunner(runner: TestRunner): void {
  chosen = runner;
}

function runner(): TestRunner {
  if (chosen) return chosen;
  // Under Bun, its runner (bun test has no globals unless asked); never reached under Node.
  if ((globalThis as { Bun?: unknown }).Bun) return (chosen = (import.meta as { require?: (m: string) => TestRunner }).require!("bun:test"));
  const g = globalThis as { describe?: TestRunner["describe"]; test?: TestRunner["test"]; it?: TestRunner["test"] };
  if (typeof g.describe === "function" && typeof (g.test ?? g.it) === "function") return { describe: g.describe, test: (g.test ?? g.it)! };
  throw new Error("No test runner: run under bun test or vitest --globals, or call useTestRunner({ describe, test }) first");
}

/** Registers a group with the current runner, e.g. `describe("parseHistory", () => { test(...) })` (exported since 1.7). */
export const describe = (name: string, body: () => void): void => void runner().describe(name, body);
/**
 * Registers a test with the current runner, so a plugin's own tests run wherever its contract suite
 * does (exported since 1.7). Example: `test("reads the sample", async () => { expect(n).toBe(3) })`.
 */
export const test = (name: string, body: Body): void => void runner().test(name, body);

const show = (v: unknown) => {
  try {
    return JSON.stringify(v, (_, x) => (typeof x === "bigint" ? `${x}n` : x)) ?? String(v);
  } catch {
    return String(v);
  }
};

function equal(a: unknown, b: unknown, strict: boolean): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  const keys = (o: object) => Object.keys(o).filter((k) => strict || (o as Record<string, unknown>)[k] !== undefined);
  const ka = keys(a);
  const kb = keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal((a as any)[k], (b as any)[k], strict));
}

function check(pass: boolean, message: () => string) {
  if (!pass) throw new Error(message());
}

/** The assertions the contract suites use (a subset of the Jest API shared by every runner). */
export function expect(actual: unknown) {
  return {
    toBe: (expected: unknown) => check(Object.is(actual, expected), () => `expected ${show(actual)} to be ${show(expected)}`),
    toEqual: (expected: unknown) => check(equal(actual, expected, false), () => `expected ${show(actual)} to equal ${show(expected)}`),
    toStrictEqual: (expected: unknown) => check(equal(actual, expected, true), () => `expected ${show(actual)} to strictly equal ${show(expected)}`),
    toBeGreaterThan: (n: number) => check((actual as number) > n, () => `expected ${show(actual)} > ${n}`),
    toBeGreaterThanOrEqual: (n: number) => check((actual as number) >= n, () => `expected ${show(actual)} >= ${n}`),
    toBeLessThan: (n: number) => check((actual as number) < n, () => `expected ${show(actual)} < ${n}`),
    toBeLessThanOrEqual: (n: number) => check((actual as number) <= n, () => `expected ${show(actual)} <= ${n}`),
    toContain: (item: unknown) => check(
      typeof actual === "string" ? actual.includes(String(item)) : Array.isArray(actual) && actual.some((x) => Object.is(x, item)),
      () => `expected ${show(actual)} to contain ${show(item)}`,
    ),
    toHaveLength: (n: number) => check((actual as { length?: number })?.length === n, () => `expected length ${n}, got ${show((actual as { length?: number })?.length)}`),
    toMatch: (re: RegExp | string) => check(typeof actual === "string" && (typeof re === "string" ? actual.includes(re) : re.test(actual)),
      () => `expected ${show(actual)} to match ${String(re)}`),
    not: {
      toThrow: () => {
        try {
          (actual as () => unknown)();
        } catch (error) {
          throw new Error(`expected no throw, got ${(error as Error)?.message ?? String(error)}`);
        }
      },
    },
  };
}
