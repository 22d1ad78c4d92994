import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Starting points of `npm run cli -- plugin new <kind> <id>`: the files of
 * `host/api/plugins/templates/<kind>/` (a small working plugin and the contract test that proves it),
 * with the template's id and name replaced. The same files are the per-kind examples of
 * docs/plugins.md (kept byte-equal by test/plugins-host/plugin-guide-examples.test.ts), and
 * test/plugins-host/plugin-templates.test.ts runs each one's contract suite.
 */
export interface PluginTemplate {
  readonly files: (id: string, name: string) => Record<string, string>;
}

const DIR = join(import.meta.dir, "templates");

/** Kind → the template's own id and name (replaced in the generated copy). */
const TEMPLATE_IDS: Record<string, { id: string; name: string }> = {
  "ai-export-dataset": { id: "activity-summary", name: "Activity Summary" },
  "calculation-tool": { id: "compound-interest-calc", name: "Compound Interest Calc" },
  "fx-provider": { id: "fx-peg", name: "Fx Peg" },
  "import-plugin": { id: "tiny-broker-csv", name: "Tiny Broker Csv" },
  "quote-provider": { id: "json-quotes", name: "Json Quotes" },
  "risk-tool": { id: "worst-and-mean", name: "Worst And Mean" },
  "scheduled-investment-provider": { id: "accruing-note", name: "Accruing Note" },
};

export const TEMPLATES: Partial<Record<string, PluginTemplate>> = Object.fromEntries(Object.entries(TEMPLATE_IDS).map(([kind, own]) => [kind, {
  files: (id: string, name: string) => Object.fromEntries(["index.ts", "index.test.ts"].map((file) => [file,
    readFileSync(join(DIR, kind, file), "utf8")
      .replace(`id: "${own.id}"`, `id: ${JSON.stringify(id)}`)
      .replace(`name: "${own.name}"`, `name: ${JSON.stringify(name)}`)])),
}]));
