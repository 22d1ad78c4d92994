/**
 * `npm run sdk:pack`: builds `@portfolio-tracker/sdk` from `sdk/` into `dist/sdk/` (JavaScript plus
 * `.d.ts`, consumable from Node, Bun, Deno or any bundler) and packs it into
 * `dist/portfolio-tracker-sdk-<version>.tgz`. Prints the tarball's path on the last line.
 */
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import sdkPackage from "../../../sdk/package.json" with { type: "json" };

const ROOT = resolve(import.meta.dir, "../../..");
const DIST = join(ROOT, "dist");
const OUT = join(DIST, "sdk");

function run(cmd: string[], cwd = ROOT): string {
  const p = Bun.spawnSync(cmd, { cwd, env: process.env });
  const out = p.stdout.toString() + p.stderr.toString();
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed:\n${out}`);
  return out;
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
run([
  join(ROOT, "node_modules/.bin/tsc"), "--ignoreConfig", "--outDir", OUT, "--rootDir", join(ROOT, "sdk"),
  "--declaration", "--module", "esnext", "--moduleResolution", "bundler", "--target", "es2022", "--lib", "es2022,dom",
  "--types", "node", "--strict", "--skipLibCheck", "--allowImportingTsExtensions", "--rewriteRelativeImportExtensions",
  ...Object.values(sdkPackage.exports).map((source) => join(ROOT, "sdk", source)),
]);
// Every entry of sdk/package.json (`./index.ts`, `./testing/index.ts`, ...) as its compiled files.
const entry = (source: string) => {
  const path = source.replace(/^\.\//, "").replace(/\.ts$/, "");
  return { types: `./${path}.d.ts`, import: `./${path}.js`, default: `./${path}.js` };
};
writeFileSync(join(OUT, "package.json"), `${JSON.stringify({
  name: sdkPackage.name,
  version: sdkPackage.version,
  description: sdkPackage.description,
  type: "module",
  license: sdkPackage.license,
  exports: Object.fromEntries(Object.entries(sdkPackage.exports).map(([key, source]) => [key, entry(source)])),
  types: "./index.d.ts",
  files: ["**/*.js", "**/*.d.ts", "README.md", "CHANGELOG.md"],
  peerDependencies: sdkPackage.peerDependencies,
  peerDependenciesMeta: (sdkPackage as { peerDependenciesMeta?: unknown }).peerDependenciesMeta,
  engines: { node: ">=20" },
}, null, 2)}\n`);
for (const file of ["README.md", "CHANGELOG.md"]) cpSync(join(ROOT, "sdk", file), join(OUT, file));
for (const old of readdirSync(DIST).filter((f) => f.endsWith(".tgz"))) rmSync(join(DIST, old));
run(["npm", "pack", "--silent", "--pack-destination", DIST], OUT);
const tarball = readdirSync(DIST).find((f) => f.endsWith(".tgz"))!;
console.log(join(DIST, tarball));
