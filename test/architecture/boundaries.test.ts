import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

// The dependency rule (docs/architecture.md): plugins → sdk ← core ← host, the host's kernel below its
// API areas (host/api/). Scans import specifiers of every .ts file.

const ROOT = resolve(import.meta.dir, "..", "..");
const SKIP = new Set([".git", ".test-tmp", "node_modules", "data"]);

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith(".ts") ? [relative(ROOT, path).split(sep).join("/")] : [];
  });
}

/** Removes comments, keeping string literals (which may contain "//", as URLs do). */
export function stripComments(code: string): string {
  return code.replace(/("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`)|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (match, str) => str ?? "");
}

/** Specifiers of static imports, re-exports, side-effect imports and dynamic `import("...")`. */
export function importSpecifiers(code: string): string[] {
  const source = stripComments(code);
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]!));
}

const isRelative = (specifier: string) => specifier.startsWith(".");
const target = (file: string, specifier: string) => relative(ROOT, resolve(ROOT, dirname(file), specifier)).split(sep).join("/");
const inside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** Why `specifier` imported from `file` breaks a rule, or null when it is allowed. */
/**
 * Third-party libraries a built-in plugin may use besides the SDK (a parser is a library's job,
 * not ours). Each entry is a deliberate decision; nothing of ours outside sdk/ is ever allowed.
 */
const PLUGIN_LIBRARIES = [
  "node-html-parser",
  // Risk analytics (plugins/risk): exact normal quantiles (jstat), a dense convex QP solver (quadprog),
  // Cholesky/eigen checks (ml-matrix) and a seedable PRNG (pure-rand). Numerical kernels are a library's job.
  "jstat", "quadprog", "ml-matrix", "pure-rand/generator/xoroshiro128plus", "pure-rand/distribution/uniformFloat64",
];

/**
 * Parser libraries of the SDK's import helpers (`sdk/import/`, entry `@portfolio-tracker/sdk/import`):
 * optional peer dependencies, so only importers load them; the SDK's main entry
 * never reaches them.
 */
const SDK_IMPORT_LIBRARIES = ["papaparse", "@e965/xlsx", "fast-xml-parser", "unpdf"];

/**
 * The processes' and threads' entry points: the server (host/main.ts) assembles the API areas, the
 * CLI's dispatcher (host/cli/main.ts) runs the areas' commands, and the worker thread's file runs
 * the task map (host/api/tasks.ts). Boot's one list of plugin ports (host/plugins/ports.ts, called by
 * host/main.ts only) names the areas that own them. The kernel elsewhere knows no area: what it
 * needs of them (the OpenAPI texts, the routes) is handed to it through the lists in host/api/.
 */
const HOST_ENTRY_POINTS = ["host/cli/main.ts", "host/main.ts", "host/plugins/ports.ts", "host/workers/calc.worker.ts"];

/** The CLI's folder in the kernel: the dispatcher and its usage error; each command lives with what it serves. */
const CLI_DISPATCHER = ["host/cli/main.ts", "host/cli/usage-error.ts"];

/**
 * What of core/ the HTTP machinery may know: the error family (statuses), money (wire decimals) and
 * accounts (sessions, tokens). A capability's error or rule reaches it only through that family.
 */
const HTTP_CORE = ["core/errors", "core/money", "core/users"];

function violation(file: string, specifier: string): string | null {
  const to = isRelative(specifier) ? target(file, specifier) : null;
  if (inside(file, "sdk")) {
    if (to !== null && inside(to, "sdk/import") && !inside(file, "sdk/import") && !inside(file, "sdk/testing")) {
      return "the SDK's main entry never imports sdk/import/ (its parser libraries are optional)";
    }
    if (to !== null) return inside(to, "sdk") ? null : "sdk/ may import only files inside sdk/";
    if (specifier === "zod" || specifier === "decimal.js") return null;
    if (inside(file, "sdk/import") && SDK_IMPORT_LIBRARIES.includes(specifier)) return null;
    if (specifier === "bun:test" && inside(file, "sdk/testing")) return null;
    return "sdk/ may import only zod and decimal.js (and bun:test in sdk/testing)";
  }
  if (inside(file, "plugins")) {
    const own = file === "plugins/index.ts" ? "plugins" : file.split("/").slice(0, 2).join("/");
    if (to !== null) return inside(to, "sdk") || inside(to, own) ? null : `plugins may import only sdk/ and ${own}/`;
    if (file.endsWith(".test.ts") && (specifier === "bun:test" || specifier.startsWith("node:"))) return null;
    if (PLUGIN_LIBRARIES.includes(specifier)) return null;
    return "plugins may import only sdk/, their own files and the allowed libraries";
  }
  if (inside(file, "core")) {
    if (/^(elysia|jose|croner|tinypool)(\/|$)|^@elysiajs\//.test(specifier)) return `core/ never imports ${specifier}`;
    if (to !== null && inside(to, "host")) return "core/ never imports from host/";
    if (to !== null && inside(to, "plugins")) return "core/ never imports plugins (the host hands them over through ports)";
  }
  if (file === "host/config.ts" && to !== null) {
    return "host/config.ts reads the environment and imports nothing of ours (a feature's settings shape lives in config, its defaults in its area)";
  }
  if (inside(file, "host/scheduler") && to !== null && inside(to, "core") && !inside(to, "core/db")) {
    return "the kernel's scheduler runs jobs the areas register and knows no capability (only core/db/)";
  }
  if (file === "host/cli/main.ts" && to !== null && !inside(to, "host/api") && !inside(to, "host/cli") && !inside(to, "core/errors") && to !== "host/config.ts") {
    return "the CLI dispatcher reaches each command in its area (host/api/<area>/*.cli.ts), never in the kernel";
  }
  if (inside(file, "host/http") && to !== null && inside(to, "core") && !HTTP_CORE.some((folder) => inside(to, folder))) {
    return "host/http/ knows of core/ only errors, money and accounts (a capability's error maps to its status through its category)";
  }
  if (inside(file, "host") && to !== null) {
    if (inside(to, "plugins") && to !== "plugins/index.ts") return "the host reaches plugins only through plugins/index.ts";
    if (inside(to, "host/api") && !inside(file, "host/api") && !HOST_ENTRY_POINTS.includes(file)) {
      return "only host/api/ itself and the entry points import host/api/ (the kernel knows no capability)";
    }
    if (file.endsWith(".task.ts") && inside(to, "host/http")) return "a worker task never imports host/http/ (it runs off the request thread)";
    if (inside(to, "host/http") && !inside(file, "host/api") && !inside(file, "host/http") && !HOST_ENTRY_POINTS.includes(file)) {
      return "the kernel below host/http/ never imports it (the HTTP machinery sits on top; only host/api/ and the entry points use it)";
    }
  }
  if (file.endsWith(".calc.ts") && /^(typeorm|tsyringe)(\/|$)/.test(specifier)) return "*.calc.ts never imports typeorm or tsyringe";
  return null;
}

describe("the import scanner", () => {
  test("finds static, type-only, re-export, side-effect, multi-line and dynamic specifiers, not commented ones", () => {
    const code = `import { a } from "./a.ts";
import type { B } from '../b.ts';
import {
  c,
  d,
} from "zod";
import "reflect-metadata";
export { e } from "./e.ts";
export * from "./f.ts";
const g = await import("./g.ts");
const url = "http://example.com"; // import x from "./commented.ts"
/* import y from "./block.ts"; */`;
    expect(importSpecifiers(code).sort()).toEqual(["../b.ts", "./a.ts", "./e.ts", "./f.ts", "./g.ts", "reflect-metadata", "zod"]);
  });

  test("flags the imports each rule forbids and allows the rest", () => {
    expect(violation("sdk/money.ts", "decimal.js")).toBeNull();
    expect(violation("sdk/money.ts", "../core/money/decimal.ts")).not.toBeNull();
    expect(violation("sdk/money.ts", "bun:test")).not.toBeNull();
    expect(violation("sdk/testing/x.ts", "bun:test")).toBeNull();
    expect(violation("sdk/import/csv.ts", "papaparse")).toBeNull();
    expect(violation("sdk/money.ts", "papaparse")).not.toBeNull();
    expect(violation("sdk/index.ts", "./import/csv.ts")).not.toBeNull();
    expect(violation("plugins/broker-degiro/parse.ts", "../../sdk/import/index.ts")).toBeNull();
    expect(violation("plugins/ecb/index.ts", "../../sdk/index.ts")).toBeNull();
    expect(violation("plugins/ecb/index.ts", "./client.ts")).toBeNull();
    expect(violation("plugins/ecb/index.ts", "../yahoo/client.ts")).not.toBeNull();
    expect(violation("plugins/ecb/index.ts", "zod")).not.toBeNull();
    expect(violation("plugins/cssscraper/parse.ts", "node-html-parser")).toBeNull();
    expect(violation("plugins/cssscraper/parse.ts", "cheerio")).not.toBeNull();
    expect(violation("plugins/index.ts", "./ecb/index.ts")).toBeNull();
    expect(violation("core/fx/fx.service.ts", "elysia")).not.toBeNull();
    expect(violation("core/fx/fx.service.ts", "@elysiajs/openapi")).not.toBeNull();
    expect(violation("core/fx/fx.service.ts", "../../host/config.ts")).not.toBeNull();
    expect(violation("core/fx/fx.service.ts", "typeorm")).toBeNull();
    expect(violation("core/portfolio/nav.calc.ts", "typeorm")).not.toBeNull();
    expect(violation("host/workers/x.calc.ts", "tsyringe")).not.toBeNull();
    expect(violation("core/fx/x.ts", "../../plugins/ecb/parse.ts")).not.toBeNull();
    expect(violation("host/api/risk/risk.task.ts", "../../../plugins/risk/index.ts")).not.toBeNull();
    expect(violation("host/api/risk/risk.task.ts", "../../../plugins/index.ts")).toBeNull();
    expect(violation("host/http/server.ts", "../api/index.ts")).not.toBeNull();
    expect(violation("host/workers/pool.ts", "../api/tasks.ts")).not.toBeNull();
    expect(violation("host/main.ts", "./api/index.ts")).toBeNull();
    expect(violation("host/workers/calc.worker.ts", "../api/tasks.ts")).toBeNull();
    expect(violation("host/plugins/ports.ts", "../api/brokers/import/brim-port.ts")).toBeNull();
    expect(violation("host/plugins/loader.ts", "../api/brokers/import/brim-port.ts")).not.toBeNull();
    expect(violation("host/db/data-source.ts", "../http/errors.ts")).not.toBeNull();
    expect(violation("host/workers/pool.ts", "../http/deps.ts")).not.toBeNull();
    expect(violation("host/config.ts", "./workers/tool-policy.ts")).not.toBeNull();
    expect(violation("host/config.ts", "node:path")).toBeNull();
    expect(violation("host/http/docs.ts", "../api/openapi.ts")).not.toBeNull();
    expect(violation("host/http/openapi/document.ts", "../../api/fx/fx.openapi.ts")).not.toBeNull();
    expect(violation("host/api/fx/fx.openapi.ts", "../../http/openapi/operations.ts")).toBeNull();
    expect(violation("host/cli/main.ts", "../api/users/users.cli.ts")).toBeNull();
    expect(violation("host/db/copy-to-postgres.ts", "../api/users/users.cli.ts")).not.toBeNull();
    expect(violation("host/cli/main.ts", "../api/plugins/plugin.cli.ts")).toBeNull();
    expect(violation("host/cli/main.ts", "../db/copy-to-postgres.ts")).not.toBeNull();
    expect(violation("host/cli/main.ts", "../plugins/authoring/plugin.cli.ts")).not.toBeNull();
    expect(violation("host/plugins/registry.ts", "../api/plugins/templates.ts")).not.toBeNull();
    expect(violation("host/http/bearer.ts", "../api/index.ts")).not.toBeNull();
    expect(violation("host/http/errors.ts", "../../core/system/errors.ts")).not.toBeNull();
    expect(violation("host/http/errors.ts", "../../core/errors/domain-error.ts")).toBeNull();
    expect(violation("host/http/session.ts", "../../core/users/user.service.ts")).toBeNull();
    expect(violation("host/scheduler/market-data.jobs.ts", "../../core/prices/price-sync.service.ts")).not.toBeNull();
    expect(violation("host/scheduler/slot-claims.ts", "../../core/db/database.ts")).toBeNull();
    expect(violation("host/main.ts", "./http/server.ts")).toBeNull();
    expect(violation("host/http/server.ts", "./gzip.ts")).toBeNull();
    expect(violation("host/api/fx/fx.routes.ts", "../../http/errors.ts")).toBeNull();
    expect(violation("host/api/brokers/import/brim-parse.task.ts", "../../../http/errors.ts")).not.toBeNull();
  });
});

test("every import in the repository respects the dependency rule", () => {
  const files = tsFiles(ROOT);
  expect(files).toContain("sdk/index.ts");
  const violations = files.flatMap((file) =>
    importSpecifiers(readFileSync(join(ROOT, file), "utf8")).flatMap((specifier) => {
      const why = violation(file, specifier);
      return why ? [`${file}: "${specifier}" (${why})`] : [];
    }),
  );
  expect(violations).toEqual([]);
});

test("the kernel's CLI folder holds only the command dispatcher", () => {
  expect(tsFiles(ROOT).filter((file) => inside(file, "host/cli")).sort()).toEqual(CLI_DISPATCHER);
});

/** The API areas: the folders of host/api/. */
const AREAS = readdirSync(join(ROOT, "host/api"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

/**
 * A route path of one of `areas` written in `code` (comments left out): a string starting with
 * `/<area>` or `/api/v1/<area>`, or a regular expression anchored there. Null when there is none.
 */
export function namedRoute(code: string, areas: readonly string[]): string | null {
  const names = areas.join("|");
  const pattern = new RegExp(`["'\`](?:/api/v1)?/(?:${names})(?=[/"'\`?])|\\^\\\\/(?:${names})\\b`);
  return pattern.exec(stripComments(code))?.[0] ?? null;
}

/** Kernel files (host/ without host/api/) that are a capability's: a CLI command, plugin authoring (templates, the SDK pack). */
const CAPABILITY_FILE = /\.cli\.ts$|\/templates?(\/|\.ts$)|sdk-pack/;

test("finds an area's route path in code, not a comment or a word of text", () => {
  const areas = ["assets", "auth", "system"];
  expect(namedRoute(`const READS = new Set(["/assets/prices/query"]);`, areas)).toBe(`"/assets`);
  expect(namedRoute(`links: { health: "/api/v1/system/health" }`, areas)).toBe(`"/api/v1/system`);
  expect(namedRoute("const ONLY = [/^\\/auth\\/tokens(\\/|$)/];", areas)).not.toBeNull();
  expect(namedRoute(`// "/assets/prices/query" in a comment\nconst x = "Authenticate with POST /auth/login";`, areas)).toBeNull();
  expect(namedRoute(`const DOCS = "/api/v1/docs";`, areas)).toBeNull();
});

test("host/http/ names no area's route: the areas hand their route lists to it (host/api/index.ts, host/api/openapi.ts)", () => {
  expect(AREAS).toContain("assets");
  const named = tsFiles(join(ROOT, "host/http")).flatMap((file) => {
    const found = namedRoute(readFileSync(join(ROOT, file), "utf8"), AREAS);
    return found ? [`${file}: ${found}`] : [];
  });
  expect(named).toEqual([]);
});

test("the kernel holds no CLI command and no plugin authoring: they live in their areas (host/api/<area>/)", () => {
  const kernel = tsFiles(ROOT).filter((file) => inside(file, "host") && !inside(file, "host/api"));
  expect(kernel).toContain("host/plugins/loader.ts");
  expect(kernel.filter((file) => CAPABILITY_FILE.test(file) && !CLI_DISPATCHER.includes(file))).toEqual([]);
});

/** The one module of ours the browser app imports from outside web/: the password policy, dependency-free (docs/web.md). */
const WEB_SHARED = ["core/users/password-policy.ts"];

test("the web app imports nothing of ours outside web/ but the password policy, which imports nothing", () => {
  const files = (readdirSync(join(ROOT, "web/src"), { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f)).map((f) => `web/src/${f.split(sep).join("/")}`);
  expect(files).toContain("web/src/pages/login.tsx");
  const outside = files.flatMap((file) => importSpecifiers(readFileSync(join(ROOT, file), "utf8"))
    .filter(isRelative).map((specifier) => target(file, specifier))
    .filter((to) => !inside(to, "web") && !WEB_SHARED.includes(to)).map((to) => `${file}: ${to}`));
  expect(outside).toEqual([]);
  for (const shared of WEB_SHARED) expect({ shared, imports: importSpecifiers(readFileSync(join(ROOT, shared), "utf8")) }).toEqual({ shared, imports: [] });
});
