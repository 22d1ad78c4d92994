import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PLUGIN_FIXTURES } from "./fixture-dir.ts";

const MARKER = "<!-- example: test/fixtures/plugins/example-calc/index.ts -->";

test("the complete example in docs/plugins.md is exactly the example-calc fixture", () => {
  const guide = readFileSync(join(import.meta.dir, "..", "..", "docs", "plugins.md"), "utf8");
  const afterMarker = guide.split(MARKER)[1];
  expect(afterMarker).toBeDefined();
  const block = /^\s*```ts\n([\s\S]*?)\n```/.exec(afterMarker!)?.[1];
  const fixture = readFileSync(join(PLUGIN_FIXTURES, "example-calc", "index.ts"), "utf8");
  expect(block).toBe(fixture.replace(/\n$/, ""));
});
