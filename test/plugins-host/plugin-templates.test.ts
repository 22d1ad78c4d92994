// The scaffold's templates (host/api/plugins/templates/<kind>/) pass their own contract tests in the
// repository too: each template's index.test.ts is imported here and registers its suite.
import { expect, test } from "bun:test";
import { TEMPLATES } from "../../host/api/plugins/templates.ts";
import { PLUGIN_KINDS } from "../../sdk/index.ts";
import "../../host/api/plugins/templates/ai-export-dataset/index.test.ts";
import "../../host/api/plugins/templates/calculation-tool/index.test.ts";
import "../../host/api/plugins/templates/fx-provider/index.test.ts";
import "../../host/api/plugins/templates/import-plugin/index.test.ts";
import "../../host/api/plugins/templates/quote-provider/index.test.ts";
import "../../host/api/plugins/templates/risk-tool/index.test.ts";
import "../../host/api/plugins/templates/scheduled-investment-provider/index.test.ts";

test("every plugin kind of the SDK has a scaffold template, whose generated copy carries the new id and name", () => {
  expect(Object.keys(TEMPLATES).sort()).toEqual([...PLUGIN_KINDS].sort());
  for (const kind of PLUGIN_KINDS) {
    const index = TEMPLATES[kind]!.files("my-plugin", "My Plugin")["index.ts"]!;
    expect({ kind, id: index.includes('id: "my-plugin"'), name: index.includes('name: "My Plugin"'), kindLine: index.includes(`kind: "${kind}"`) })
      .toEqual({ kind, id: true, name: true, kindLine: true });
  }
});
