import { describe, expect, test } from "bun:test";
import { ok, PluginError, ratesPerPair } from "../../sdk/index.ts";

const pair = (base: string, quote: string) => ({ base, quote }) as any;
const params = (pairs: any[], extra: Record<string, unknown> = {}) => ({ from: "2024-01-01", pairs, to: "2024-01-31", ...extra }) as any;
const keyOf = (p: { base: string; quote: string }) => (p.base === "EUR" ? p.quote : new PluginError("invalid-input", "not published"));

describe("ratesPerPair", () => {
  test("one fetch for the distinct keys of published pairs; answers in request order; a left-out key is an empty list", async () => {
    const fetched: string[][] = [];
    const out = await ratesPerPair(params([pair("EUR", "USD"), pair("USD", "JPY"), pair("EUR", "USD"), pair("EUR", "GBP")]), {
      keyOf,
      fetch: async (keys) => (fetched.push([...keys]), new Map([["USD", ok([{ date: "2024-01-02", rate: "1.1" }])]])) as any,
    });
    expect(fetched).toEqual([["USD", "GBP"]]);
    expect(out.map((o) => (o.ok ? o.value.length : o.error.reason))).toEqual([1, "invalid-input", 1, 0]);
  });

  test("a failed fetch fails every published pair with its reason; from after to fails all without fetching", async () => {
    const failed = await ratesPerPair(params([pair("EUR", "USD"), pair("CHF", "USD")]), {
      keyOf, fetch: async () => { throw new PluginError("rate-limited", "slow down"); },
    });
    expect(failed.map((o) => !o.ok && o.error.reason)).toEqual(["rate-limited", "invalid-input"]);
    let calls = 0;
    const backwards = await ratesPerPair(params([pair("EUR", "USD")], { from: "2024-02-01" }), { keyOf, fetch: async () => (calls++, new Map()) });
    expect(backwards[0]!.ok).toBe(false);
    expect(calls).toBe(0);
  });

  test("a caller's abort rejects with the caller's reason", async () => {
    const controller = new AbortController();
    controller.abort(new Error("user went away"));
    await expect(ratesPerPair(params([pair("EUR", "USD")], { signal: controller.signal }), {
      keyOf, fetch: async () => { throw new Error("aborted"); },
    })).rejects.toThrow("user went away");
  });
});
