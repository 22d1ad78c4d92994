import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeZodError } from "../../../sdk/index.ts";
import { type GeographyGroup, GeographyGroupSchema, type RiskScenario, RiskScenarioSchema } from "../../../sdk/index.ts";

const BUILT_IN = fileURLToPath(new URL("./scenarios/", import.meta.url));
const GROUPS = fileURLToPath(new URL("./geography/", import.meta.url));

export interface ScenarioEntry {
  source: "built_in" | "host";
  source_file: string;
  scenario: RiskScenario;
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

type Parsed = { scenario: RiskScenario } | { message: string };

function parseFile(path: string): Parsed {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    return { message: `not valid JSON: ${(e as Error).message}` };
  }
  const parsed = RiskScenarioSchema.safeParse(raw);
  return parsed.success ? { scenario: parsed.data } : { message: describeZodError(parsed.error) };
}

/** Files parsed and validated, keyed by path; a host file is read again when its size or mtime changes. */
const parsedFiles = new Map<string, { stamp: string; parsed: Parsed }>();

function parsedFile(path: string, stamped: boolean): Parsed {
  let stamp = "";
  if (stamped) {
    try {
      const st = statSync(path);
      stamp = `${st.size}:${st.mtimeMs}`;
    } catch {
      stamp = "missing";
    }
  }
  const known = parsedFiles.get(path);
  if (known && known.stamp === stamp) return known.parsed;
  const parsed = parseFile(path);
  parsedFiles.set(path, { stamp, parsed });
  return parsed;
}

let builtInGroups: GeographyGroup[] | undefined;

/**
 * The stress scenarios: the built-in data files, then every `*.json` in `DATA_DIR/scenarios/`, each
 * validated; a file that is not JSON, breaks the schema or reuses an id is left out and reported in
 * `warnings` (the catalog itself never fails). The host folder is listed on each call, so a file
 * dropped in takes effect without a restart; a file is parsed and validated again only when its
 * size or modification time changed (built-in files once), which keeps this off the request
 * thread's budget (3–25 ms a call when every file was read and validated each time).
 */
export function loadScenarioCatalog(dataDir: string): ScenarioCatalog {
  const items: ScenarioEntry[] = [];
  const warnings: ScenarioCatalog["warnings"] = [];
  const ids = new Set<string>();
  const read = (dir: string, file: string, source: "built_in" | "host") => {
    const parsed = parsedFile(join(dir, file), source === "host");
    if ("message" in parsed) { warnings.push({ source_file: file, message: parsed.message }); return; }
    if (ids.has(parsed.scenario.id)) { warnings.push({ source_file: file, message: `duplicate scenario id '${parsed.scenario.id}'` }); return; }
    ids.add(parsed.scenario.id);
    items.push({ source, source_file: file, scenario: parsed.scenario });
  };
  for (const f of jsonFiles(BUILT_IN)) read(BUILT_IN, f, "built_in");
  const hostDir = join(dataDir, "scenarios");
  for (const f of jsonFiles(hostDir)) read(hostDir, f, "host");
  builtInGroups ??= jsonFiles(GROUPS).map((f) => GeographyGroupSchema.parse(JSON.parse(readFileSync(join(GROUPS, f), "utf8"))));
  const geography_groups = builtInGroups;
  return {
    items, geography_groups, warnings,
    status: {
      schema_version: 1, loaded_at: new Date().toISOString(), built_in_count: items.filter((i) => i.source === "built_in").length,
      host_count: items.filter((i) => i.source === "host").length, warning_count: warnings.length,
    },
  };
}
