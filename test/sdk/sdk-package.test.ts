import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PLUGIN_KINDS } from "../../sdk/index.ts";
import { ApiClient } from "../helpers/client.ts";
import { ROOT, startServer } from "../helpers/server.ts";

// The published package, as a plugin author gets it: packed by `npm run sdk:pack`, installed into a
// project outside the repository, its contract suite run there under each runner it supports.
const SAMPLE = `{ expectedOutput: { amount: "1628.89" }, sampleInput: { principal: "1000", rate: "0.05", years: "10" } }`;
let dir: string;
let tarball: string;

function run(cmd: string[], cwd = dir) {
  const p = Bun.spawnSync(cmd, { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NO_COLOR: "1", CI: "1" } });
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
}

beforeAll(() => {
  const pack = run([process.execPath, join(ROOT, "host/api/plugins/sdk-pack.ts")], ROOT);
  expect(pack.code).toBe(0);
  tarball = pack.out.trim().split("\n").at(-1)!;
  dir = mkdtempSync(join(tmpdir(), "pt-sdk-consumer-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "my-plugin", private: true, type: "module" }));
  const install = run(["npm", "install", "--prefer-offline", "--no-audit", "--no-fund", tarball, "zod@4.6.7", "decimal.js@10.6.0", "vitest@3.2.4"]);
  expect(install.out).not.toContain("ERR!");
  expect(install.code).toBe(0);
  // The documented calculation-tool example, in TypeScript and as the JavaScript a build would produce.
  const source = readFileSync(join(ROOT, "test/fixtures/plugins/example-calc/index.ts"), "utf8");
  writeFileSync(join(dir, "index.ts"), source);
  writeFileSync(join(dir, "index.js"), new Bun.Transpiler({ loader: "ts" }).transformSync(source));
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }), 60_000);

describe("@portfolio-tracker/sdk as an installed package", () => {
  test("the tarball holds compiled JavaScript and .d.ts, declares its peers, and no TypeScript sources", () => {
    const listing = run(["tar", "-tzf", tarball]).out.split("\n");
    expect(listing).toContain("package/index.js");
    expect(listing).toContain("package/index.d.ts");
    expect(listing).toContain("package/testing/index.js");
    expect(listing.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(dir, "node_modules/@portfolio-tracker/sdk/package.json"), "utf8"));
    expect(pkg.peerDependencies).toMatchObject({ "decimal.js": expect.any(String), zod: expect.any(String) });
    for (const optional of Object.keys(pkg.peerDependenciesMeta ?? {})) expect(pkg.peerDependenciesMeta[optional].optional).toBe(true);
    expect(Object.keys(pkg.exports).sort()).toEqual(Object.keys(JSON.parse(readFileSync(join(ROOT, "sdk/package.json"), "utf8")).exports).sort());
  });

  test("a TypeScript plugin type-checks against the .d.ts, literals branded with decimal() and currency()", () => {
    writeFileSync(join(dir, "literals.ts"), `import { currency, decimal, type Money } from "@portfolio-tracker/sdk";
export const price: Money = { amount: decimal("42.00"), currency: currency("USD") };
`);
    const tsc = run([join(ROOT, "node_modules/.bin/tsc"), "--ignoreConfig", "--noEmit", "--strict", "--module", "esnext",
      "--moduleResolution", "bundler", "--target", "es2022", "--lib", "es2022,dom", "--types", "", "--skipLibCheck", "index.ts", "literals.ts"]);
    expect(tsc.out).toBe("");
  });

  test("the contract suite runs under bun test", () => {
    writeFileSync(join(dir, "bun.test.js"), `import { runCalculationToolContract } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.js";
runCalculationToolContract(plugin, ${SAMPLE});
`);
    const r = run([process.execPath, "test", "./bun.test.js"]);
    expect({ code: r.code, fail: / [1-9]\d* fail/.test(r.out), pass: /\b[1-9]\d* pass/.test(r.out) }).toEqual({ code: 0, fail: false, pass: true });
  }, 60_000);

  test("the contract suite runs under node:test", () => {
    writeFileSync(join(dir, "node.test.js"), `import { describe, test } from "node:test";
import { runCalculationToolContract, useTestRunner } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.js";
useTestRunner({ describe, test });
runCalculationToolContract(plugin, ${SAMPLE});
`);
    const r = run(["node", "--test", "node.test.js"]);
    expect({ code: r.code, out: /# fail 0/.test(r.out) && /# pass [1-9]/.test(r.out) }).toEqual({ code: 0, out: true });
  }, 60_000);

  test("the contract suite runs under vitest", () => {
    writeFileSync(join(dir, "vitest.test.js"), `import { describe, test } from "vitest";
import { runCalculationToolContract, useTestRunner } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.js";
useTestRunner({ describe, test });
runCalculationToolContract(plugin, ${SAMPLE});
`);
    const r = run(["node", "node_modules/vitest/vitest.mjs", "run", "vitest.test.js"]);
    expect({ code: r.code, passed: /Tests\s+[1-9]\d* passed/.test(r.out), failed: /failed/.test(r.out) }).toEqual({ code: 0, passed: true, failed: false });
  }, 120_000);
});

describe("plugin scaffold: npm run cli -- plugin new / plugin install", () => {
  const cli = (args: string[], env: Record<string, string> = {}) => {
    const p = Bun.spawnSync([process.execPath, join(ROOT, "host/cli/main.ts"), ...args], {
      cwd: ROOT, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", INIT_CWD: dir, ...env },
    });
    return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
  };

  test("every kind makes a project outside the repo that, moved to another folder, installs, type-checks and passes its own tests", () => {
    for (const kind of PLUGIN_KINDS) {
      const made = cli(["plugin", "new", kind, `my-${kind}`, `made/scaffold-${kind}`, "--sdk", tarball]);
      expect({ kind, code: made.code }).toEqual({ kind, code: 0 });
      // The SDK travels with the project (vendor/, a relative reference): moving it up a level breaks nothing.
      const project = join(dir, `scaffold-${kind}`);
      renameSync(join(dir, `made/scaffold-${kind}`), project);
      const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
      expect(pkg.devDependencies["@portfolio-tracker/sdk"]).toBe(`file:vendor/${tarball.split("/").at(-1)}`);
      expect(run(["npm", "install", "--prefer-offline", "--no-audit", "--no-fund"], project).code).toBe(0);
      const tsc = run(["npm", "run", "--silent", "typecheck"], project); // the project's own TypeScript
      expect({ kind, code: tsc.code, tsc: tsc.out }).toEqual({ kind, code: 0, tsc: "" });
      const tests = run(["npm", "test"], project); // as the docs say: Bun comes as a dev dependency
      expect({ kind, code: tests.code, fail: / [1-9]\d* fail/.test(tests.out), pass: /\b[1-9]\d* pass/.test(tests.out) })
        .toEqual({ kind, code: 0, fail: false, pass: true });
    }
    expect(cli(["plugin", "new", "price-oracle", "no-kind", "x", "--sdk", tarball]).out).toContain("Unknown kind 'price-oracle'");
    expect(cli(["plugin", "new", "calculation-tool", "Bad Id", "y", "--sdk", tarball]).out).toContain("Invalid id");
  }, 600_000);

  test("plugin install validates the plugin, puts it into PLUGINS_DIR, and the server loads it at the next start", async () => {
    const pluginsDir = join(dir, "plugins");
    const env = { PLUGINS_DIR: pluginsDir };
    const installed = cli(["plugin", "install", "scaffold-fx-provider"], env);
    expect(installed.out).toContain("Installed fx-provider plugin 'my-fx-provider'");
    expect(cli(["plugin", "install", "scaffold-import-plugin"], env).out).toContain("Installed import-plugin plugin 'my-import-plugin'");
    const packed = run(["npm", "pack", "--silent", "--pack-destination", dir], join(dir, "scaffold-quote-provider")).out.trim().split("\n").at(-1)!;
    expect(cli(["plugin", "install", packed], env).out).toContain("Installed quote-provider plugin 'my-quote-provider'");
    expect(cli(["plugin", "install", "scaffold-fx-provider"], env).out).toContain("exists; add --force");
    // An id a built-in or another installed plugin of the kind has is refused at install time, --force or not, and nothing is copied.
    const listing = () => readdirSync(pluginsDir).sort();
    const before = listing();
    cpSync(join(dir, "scaffold-fx-provider"), join(dir, "as-ecb"), { recursive: true, filter: (src) => !src.includes("node_modules") });
    const index = join(dir, "as-ecb", "index.ts");
    writeFileSync(index, readFileSync(index, "utf8").replace('id: "my-fx-provider"', 'id: "ecb"'));
    const builtin = cli(["plugin", "install", "as-ecb", "--force"], env);
    expect({ code: builtin.code, out: builtin.out.includes("the id 'ecb' is taken by a built-in fx-provider plugin"), dir: listing() })
      .toEqual({ code: 1, out: true, dir: before });
    renameSync(join(pluginsDir, "my-quote-provider"), join(pluginsDir, "quotes-by-hand")); // copied in under another name
    const taken = cli(["plugin", "install", packed, "--force"], env);
    expect({ code: taken.code, out: taken.out.includes(`the id 'my-quote-provider' is taken by the quote-provider plugin installed in ${join(pluginsDir, "quotes-by-hand")}`) })
      .toEqual({ code: 1, out: true });
    expect(listing()).toEqual(before.map((f) => (f === "my-quote-provider" ? "quotes-by-hand" : f)).sort());
    writeFileSync(join(dir, "scaffold-risk-tool", "index.ts"), "export default { not: 'a plugin' };\n");
    const refused = cli(["plugin", "install", "scaffold-risk-tool"], env);
    expect({ code: refused.code, out: refused.out.includes("not a plugin made by definePlugin") }).toEqual({ code: 1, out: true });
    const server = await startServer({ env });
    try {
      const client = new ApiClient(server.base);
      await client.post("/auth/register", { username: "author", email: "author@example.com", password: "Secret-pass1" });
      await client.post("/auth/login", { username: "author", password: "Secret-pass1" });
      const diag = await (await client.get("/system/plugin-diagnostics")).json();
      expect(diag.filter((d: any) => d.source === "external").map((d: any) => [d.id, d.status]).sort())
        .toEqual([["my-fx-provider", "loaded"], ["my-import-plugin", "loaded"], ["my-quote-provider", "loaded"]]);
    } finally {
      await server.stop(true);
    }
  }, 60_000);
});
