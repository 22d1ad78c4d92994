import { describe, expect, test } from "./runner.ts";
import type { PluginContext } from "../context.ts";
import { type KindInstance, isPlugin, missingMembers, type Plugin } from "../define-plugin.ts";
import { PLUGIN_ERROR_REASONS, type Outcome } from "../errors.ts";
import { type PluginKind, PluginManifestSchema } from "../manifest.ts";
import { SDK_API_VERSION } from "../version.ts";
import { createFakeContext } from "./fake-context.ts";

/**
 * Options every contract suite takes: the context `create()` receives (default a fake one whose
 * config is `{}` parsed with the plugin's `configSchema`, so defaults apply as in the host).
 */
export interface ContractOptions {
  context?: PluginContext<any>;
}

/**
 * Registers the checks shared by all kinds inside one `describe` block, then
 * calls `body` with a getter for the (once) created instance.
 */
export function describeContract<K extends PluginKind>(
  kind: K,
  plugin: Plugin<K, any>,
  options: ContractOptions,
  body: (instance: () => Promise<KindInstance<K>>) => void,
): void {
  let created: Promise<KindInstance<K>> | undefined;
  const instance = () => (created ??= Promise.resolve(plugin.create(options.context ?? defaultContext(plugin))));
  const id = typeof plugin?.manifest?.id === "string" ? plugin.manifest.id : "(no id)";

  describe(`${kind} contract: ${id}`, () => {
    test("the plugin is branded and its manifest is valid for this SDK", () => {
      expect(isPlugin(plugin)).toBe(true);
      const parsed = PluginManifestSchema.safeParse(plugin.manifest);
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(plugin.manifest.kind).toBe(kind);
      expect(plugin.apiVersion).toBe(SDK_API_VERSION);
      expect(Object.isFrozen(plugin)).toBe(true);
    });

    test(`create() returns an instance with every member of the ${kind} contract`, async () => {
      expect(missingMembers(kind, await instance())).toEqual([]);
    });

    body(instance);
  });
}

/** A fake context with the config the host would give a plugin nobody configured; `{}` when that is invalid. */
function defaultContext(plugin: Plugin<PluginKind, any, any>): PluginContext<any> {
  if (!isPlugin(plugin)) return createFakeContext();
  try {
    return createFakeContext(plugin);
  } catch {
    return createFakeContext(); // a required key without a default: the plugin's own create() reports it
  }
}

/** Asserts a zod-like schema accepts `value`, showing the issues when it doesn't. */
export function expectValid(schema: { safeParse(v: unknown): { error?: { issues: unknown[] }; success: boolean } }, value: unknown) {
  const result = schema.safeParse(value);
  expect(result.error?.issues ?? []).toEqual([]);
}

/** Asserts a batch answer has one well-formed outcome per requested item, and returns the values. */
export function expectOutcomes<T>(outcomes: ReadonlyArray<Outcome<T>>, requested: number): T[] {
  expect(Array.isArray(outcomes)).toBe(true);
  expect(outcomes).toHaveLength(requested);
  const values: T[] = [];
  for (const outcome of outcomes) {
    if (outcome.ok) {
      values.push(outcome.value);
    } else {
      expect(PLUGIN_ERROR_REASONS).toContain(outcome.error.reason);
      expect(typeof outcome.error.message).toBe("string");
      expect(typeof outcome.error.retryable).toBe("boolean");
    }
  }
  return values;
}

/** Input of the pure-tool checks: a sample the author knows is valid, and optionally its expected output. */
export interface PureToolSample {
  expectedOutput?: unknown;
  sampleInput: unknown;
}

type PureTool = {
  compute(input: unknown): unknown;
  inputSchema: { safeParse(v: unknown): { data?: unknown; error?: { issues: unknown[] }; success: boolean } };
  outputSchema: { safeParse(v: unknown): { error?: { issues: unknown[] }; success: boolean } };
};

/** Registers the checks shared by calculation and risk tools (schemas both ways, purity). */
export function pureToolTests(instance: () => Promise<PureTool>, sample: PureToolSample): void {
  const run = async () => {
    const tool = await instance();
    const input = tool.inputSchema.safeParse(sample.sampleInput).data;
    return { input, output: tool.compute(input), tool };
  };

  test("inputSchema accepts the sample input", async () => {
    expectValid((await instance()).inputSchema, sample.sampleInput);
  });

  test("compute output for the sample validates against outputSchema", async () => {
    const { output, tool } = await run();
    expectValid(tool.outputSchema, output);
    if ("expectedOutput" in sample) expect(output).toEqual(sample.expectedOutput);
  });

  test("compute is deterministic and leaves its input untouched", async () => {
    const tool = await instance();
    const input = tool.inputSchema.safeParse(sample.sampleInput).data;
    const before = structuredClone(input);
    expect(tool.compute(input)).toEqual(tool.compute(structuredClone(before)));
    expect(input).toEqual(before);
  });

  test("the output survives structured cloning, as it must to leave a worker", async () => {
    const { output } = await run();
    expect(structuredClone(output)).toStrictEqual(output);
  });
}
