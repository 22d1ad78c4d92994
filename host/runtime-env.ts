/**
 * Runtime options the server is started with (by host/start.ts, `npm start`) and measured with
 * (bench/server.ts); an option already in the environment is left as the operator set it.
 *
 * `BUN_JSC_heapGrowthMaxIncrease=1.2`: JavaScriptCore lets a thread's heap grow by at most 1.2×
 * (instead of 2×) what was live after a full collection before it collects again. A report
 * allocates tens of MB of short-lived decimals next to its long-lived input, and the default
 * let each worker thread hold the garbage of a whole replay: the report phase's peak RSS on 20,000
 * transactions went 292–299 → 279 MB (existing shape) and 279 → 259 MB (dense) with cold, warm
 * and incremental times unchanged within noise (docs/decisions.md, "Memory, third pass").
 */
export const RUNTIME_ENV: Readonly<Record<string, string>> = {
  BUN_JSC_heapGrowthMaxIncrease: "1.2",
};

/** `env` with every runtime option it does not set already. */
export function withRuntimeEnv<T extends Record<string, string | undefined>>(env: T): T & Record<string, string> {
  return { ...RUNTIME_ENV, ...env } as T & Record<string, string>;
}
