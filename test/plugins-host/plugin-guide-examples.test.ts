import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PLUGIN_KINDS } from "../../sdk/index.ts";

const ROOT = join(import.meta.dir, "..", "..");

// Each marked file is tested where it lives: the fixtures by their own tests, the templates by
// test/plugins-host/plugin-templates.test.ts (and, generated outside the repo, test/sdk/sdk-package.test.ts).
test("every example marked in docs/plugins.md is byte-equal to its tested file, and every kind has one", () => {
  const guide = readFileSync(join(ROOT, "docs", "plugins.md"), "utf8");
  const marked = [...guide.matchAll(/<!-- example: (\S+) -->\s*```ts\n([\s\S]*?)\n```/g)];
  expect(marked.map((m) => m[1])).toEqual(expect.arrayContaining([
    "test/fixtures/plugins/example-calc/index.ts",
    "test/fixtures/plugins/example-importer/index.ts",
    "host/api/plugins/templates/ai-export-dataset/index.ts",
    "host/api/plugins/templates/fx-provider/index.ts",
    "host/api/plugins/templates/quote-provider/index.ts",
    "host/api/plugins/templates/risk-tool/index.ts",
    "host/api/plugins/templates/scheduled-investment-provider/index.ts",
  ]));
  for (const [, path, block] of marked) {
    expect({ path, block }).toEqual({ path, block: readFileSync(join(ROOT, path!), "utf8").replace(/\n$/, "") });
  }
  const kinds = new Set(marked.flatMap((m) => [...m[2]!.matchAll(/^ {2}kind: "([a-z-]+)",$/gm)].map((k) => k[1])));
  expect([...kinds].sort()).toEqual([...PLUGIN_KINDS].sort());
});
