import { expect, test } from "bun:test";
import { describeZodError, failure, isPluginError, ok, PLUGIN_ERROR_REASONS, PluginError, z } from "../../sdk/index.ts";

test("retryable defaults from the reason: only rate-limited, timeout and unavailable retry", () => {
  const retryable = PLUGIN_ERROR_REASONS.filter((reason) => new PluginError(reason, "x").retryable);
  expect(retryable).toEqual(["rate-limited", "timeout", "unavailable"]);
  expect(new PluginError("not-found", "x", { retryable: true }).retryable).toBe(true);
  expect(new PluginError("timeout", "x", { retryable: false }).retryable).toBe(false);
});

test("a PluginError is an Error carrying its reason, message and cause", () => {
  const cause = new Error("socket closed");
  const error = new PluginError("unavailable", "upstream down", { cause });
  expect(error).toBeInstanceOf(Error);
  expect([error.name, error.message, error.reason, error.cause]).toEqual(["PluginError", "upstream down", "unavailable", cause]);
  expect(JSON.parse(JSON.stringify(error))).toEqual({ message: "upstream down", reason: "unavailable", retryable: true });
});

test("isPluginError recognises plugin errors by shape, also from another SDK copy", () => {
  class ForeignPluginError extends Error {
    reason = "timeout";
    retryable = true;
  }
  expect(isPluginError(new PluginError("timeout", "t"))).toBe(true);
  expect(isPluginError(new ForeignPluginError("t"))).toBe(true);
  expect(isPluginError(Object.assign(new Error("x"), { reason: "exploded", retryable: true }))).toBe(false);
  expect(isPluginError({ message: "x", reason: "timeout", retryable: true })).toBe(false);
});

test("failure keeps a PluginError's reason and turns anything else into a retryable unavailable", () => {
  expect(failure(new PluginError("not-found", "no XYZ"))).toEqual({
    error: { message: "no XYZ", reason: "not-found", retryable: false },
    ok: false,
  });
  expect(failure(new TypeError("fetch failed"))).toEqual({
    error: { message: "fetch failed", reason: "unavailable", retryable: true },
    ok: false,
  });
  expect(failure("plain string")).toMatchObject({ error: { message: "plain string" }, ok: false });
  expect(ok(42)).toEqual({ ok: true, value: 42 });
});

test("describeZodError lists each issue as path: message on one line", () => {
  const result = z.object({ a: z.object({ b: z.string() }), n: z.number() }).safeParse({ a: { b: 1 }, n: "x" });
  expect(describeZodError(result.error!)).toBe(
    "a.b: Invalid input: expected string, received number; n: Invalid input: expected number, received string",
  );
  expect(describeZodError(z.string().safeParse(1).error!)).toBe("(root): Invalid input: expected string, received number");
});
