import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeZodError } from "../../sdk/index.ts";
import { GeographyGroup, Scenario } from "../../plugins/risk/scenario.ts";

const BUILT_IN = fileURLToPath(new URL("../../plugins/risk/scenarios/", import.meta.url));
const GROUPS = fileURLToPath(new URL("../../plugins/risk/geography/", import.meta.url));

export interface ScenarioEntry {
  source: "built_in" | "host";
  source_file: string;
  scenario: Scenario;
}

export interface ScenarioCatalog {
  items: ScenarioEntry[];
  geography_groups: GeographyGroup[];
  status: { schema_version: 1; loaded_at: string; built_in_count: number; host_count: number; warning_count: number };
  warnings: { source_file: string; message: string }[];
}

function jsonFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")).sort() : [];
}

/**
 * The stress scenarios: the built-in data files, then every `*.json` in `DATA_DIR/scenarios/`, each
 * validated; a file that is not JSON, breaks the schema or reuses an id is left out and reported in
 * `warnings` (the catalog itself never fails). Read on each call: files are few and small, and a
 * file dropped in takes effect without a restart.
 */
export function loadScenarioCatalog(dataDir: string): ScenarioCatalog {
  const items: ScenarioEntry[] = [];
  const warnings: ScenarioCatalog["warnings"] = [];
  const ids = new Set<string>();
  const read = (dir: string, file: string, source: "built_in" | "host") => {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(join(dir, file), "utf8"));
    } catch (e) {
      warnings.push({ source_file: file, message: `not valid JSON: ${(e as Error).message}` });
      return;
    }
    const parsed = Scenario.safeParse(raw);
    if (!parsed.success) { warnings.push({ source_file: file, message: describeZodError(parsed.error) }); return; }
    if (ids.has(parsed.data.id)) { warnings.push({ source_file: file, message: `duplicate scenario id '${parsed.data.id}'` }); return; }
    ids.add(parsed.data.id);
    items.push({ source, source_file: file, scenario: parsed.data });
  };
  for (const f of jsonFiles(BUILT_IN)) read(BUILT_IN, f, "built_in");
  const hostDir = join(dataDir, "scenarios");
  for (const f of jsonFiles(hostDir)) read(hostDir, f, "host");
  const geography_groups = jsonFiles(GROUPS).map((f) => GeographyGroup.parse(JSON.parse(readFileSync(join(GROUPS, f), "utf8"))));
  return {
    items, geography_groups, warnings,
    status: {
      schema_version: 1, loaded_at: new Date().toISOString(), built_in_count: items.filter((i) => i.source === "built_in").length,
      host_count: items.filter((i) => i.source === "host").length, warning_count: warnings.length,
    },
  };
}
