import { expect, test } from "bun:test";
import { defaultToolPolicy, toolPolicy } from "../../../host/api/tools/tool-policy.ts";
import { loadConfig } from "../../../host/config.ts";

test("TOOLS_* variables override only the limits they name; the others keep the tools area's defaults", () => {
  const config = loadConfig({ TOOLS_MAX_QUEUE: "0", TOOLS_EXECUTION_TIMEOUT_MS: "2000", TOOLS_CONCURRENCY: "" });
  expect(config.tools).toEqual({ maxQueue: 0, executionTimeoutMs: 2000 });
  expect(toolPolicy(config.tools)).toEqual({ ...defaultToolPolicy(), maxQueue: 0, executionTimeoutMs: 2000 });
});

test("a TOOLS_* value that is not a whole number in range stops start-up, naming the variable", () => {
  expect(() => loadConfig({ TOOLS_CONCURRENCY: "0" })).toThrow('TOOLS_CONCURRENCY must be a whole number ≥ 1, got "0"');
  expect(() => loadConfig({ TOOLS_MAX_QUEUE: "-1" })).toThrow('TOOLS_MAX_QUEUE must be a whole number ≥ 0, got "-1"');
  expect(() => loadConfig({ TOOLS_MAX_INPUT_BYTES: "1.5" })).toThrow('TOOLS_MAX_INPUT_BYTES must be a whole number ≥ 1, got "1.5"');
});
