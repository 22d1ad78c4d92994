import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

test("every example marked in docs/plugins.md is byte-equal to its tested file", () => {
  const guide = readFileSync(join(ROOT, "docs", "plugins.md"), "utf8");
  const marked = [...guide.matchAll(/<!-- example: (\S+) -->\s*```ts\n([\s\S]*?)\n```/g)];
  expect(marked.map((m) => m[1])).toEqual(expect.arrayContaining([
    "test/fixtures/plugins/example-calc/index.ts",
    "host/cli/plugin-templates/fx-provider/index.ts",
    "host/cli/plugin-templates/risk-tool/index.ts",
  ]));
  for (const [, path, block] of marked) {
    expect({ path, block }).toEqual({ path, block: readFileSync(join(ROOT, path!), "utf8").replace(/\n$/, "") });
  }
});
