import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

// Cache invalidation is declared, not remembered (docs/architecture.md "Cache invalidation"): the
// caches computed from stored data are cleared in one place, core/cache/change-feed.ts, from the
// changes writes declare in their transactions. Scans core/, host/ and plugins/.

const ROOT = resolve(import.meta.dir, "..", "..");
const STORED_DATA_CACHES = ["portfolio_blob", "portfolio_layer2", "portfolio_wac", "portfolio_gains", "risk_simulation", "risk_optimization", "upload_metadata"];
/** The feed and the registry it calls. */
const ALLOWED = new Set(["core/cache/change-feed.ts", "core/cache/portfolio-caches.ts", "core/cache/cache-registry.ts"]);

/** Drops comments (a comment may name a cache). */
const stripComments = (code: string) => code.replace(/("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`)|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (match, str) => str ?? "");

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith(".ts") ? [relative(ROOT, join(ROOT, path)).split(sep).join("/")] : [];
  });
}

test("no code outside the change feed clears a cache computed from stored data by hand", () => {
  const offenders: string[] = [];
  for (const file of ["core", "host", "plugins"].flatMap(tsFiles)) {
    if (ALLOWED.has(file)) continue;
    const code = stripComments(readFileSync(join(ROOT, file), "utf8"));
    if (/\bnotePortfolioChange\s*\(/.test(code)) offenders.push(`${file}: notePortfolioChange`);
    for (const name of STORED_DATA_CACHES) {
      if (new RegExp(`\\.clear\\(\\s*["'\`]${name}["'\`]`).test(code)) offenders.push(`${file}: clear("${name}")`);
    }
  }
  expect(offenders).toEqual([]);
});
