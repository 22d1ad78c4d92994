import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, useApi } from "../../helpers/server.ts";

const api = useApi();

function run(cmd: string[], cwd: string) {
  const p = Bun.spawnSync(cmd, { cwd, env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" } });
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
}

/** A script a client author would write against the generated types; it must type-check. */
const CLIENT = `import type { components, paths } from "./schema";

type Schemas = components["schemas"];
type CommitBody = paths["/api/v1/transactions/commit"]["post"]["requestBody"]["content"]["application/json"];
type CommitAnswer = paths["/api/v1/transactions/commit"]["post"]["responses"][200]["content"]["application/json"];
type Brokers = paths["/api/v1/brokers"]["get"]["responses"][200]["content"]["application/json"];

const buy: Schemas["TxCreateRow"] = { type: "BUY", broker_id: 1, asset_id: 2, date: "2024-01-03", quantity: "10", cash: { code: "EUR", amount: "-1028.00" } };
const deposit: Schemas["TxCreateRow"] = { type: "DEPOSIT", broker_id: 1, date: "2024-01-02", cash: { code: "EUR", amount: "1000" } };
// @ts-expect-error a DEPOSIT carries no asset
const wrong: Schemas["TxCreateRow"] = { type: "DEPOSIT", broker_id: 1, date: "2024-01-02", asset_id: 2, cash: { code: "EUR", amount: "1" } };
const body: CommitBody = { creates: [buy, deposit] };

async function commit(base: string, token: string): Promise<CommitAnswer> {
  const res = await fetch(base + "/api/v1/transactions/commit", {
    method: "POST", headers: { "content-type": "application/json", authorization: "Bearer " + token }, body: JSON.stringify(body),
  });
  if (res.status === 422) {
    const error: Schemas["ValidationErrorBody"] = await res.json();
    throw new Error(error.detail.map((i) => i.loc.join(".") + ": " + i.msg).join("; "));
  }
  if (!res.ok) {
    const error: Schemas["ErrorBody"] = await res.json();
    throw new Error(error.code + ": " + error.detail);
  }
  return res.json();
}

export async function names(base: string, token: string): Promise<string[]> {
  const answer = await commit(base, token);
  const failed: string[] = answer.issues.map((i) => i.code ?? i.error);
  const brokers: Brokers = await (await fetch(base + "/api/v1/brokers")).json();
  return [...failed, ...brokers.items.map((b) => b.name + " " + b.user_role)];
}
void wrong;
`;

describe("the OpenAPI document as a client author meets it", () => {
  test("Redocly CLI lints it with zero errors (recommended rules, examples checked against their schemas)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pt-openapi-lint-"));
    try {
      const doc = await (await fetch(`${api.base}/openapi.json`)).json();
      writeFileSync(join(dir, "openapi.json"), JSON.stringify(doc));
      const lint = run([join(ROOT, "node_modules/.bin/redocly"), "lint", "openapi.json", "--config", join(ROOT, "test/api/http/redocly.yaml"), "--format", "summary"], dir);
      expect({ code: lint.code, out: lint.out.includes("valid") ? "valid" : lint.out }).toEqual({ code: 0, out: "valid" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("openapi-typescript generates a client whose typed use (commit rows, errors, lists) type-checks", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pt-openapi-client-"));
    try {
      writeFileSync(join(dir, "openapi.json"), JSON.stringify(await (await fetch(`${api.base}/openapi.json`)).json()));
      writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
      // openapi-typescript needs the TypeScript 5 compiler API, which the project's TypeScript 7 lacks.
      const install = run(["npm", "install", "--prefer-offline", "--no-audit", "--no-fund", "openapi-typescript@7.13.0", "typescript@5.9.3"], dir);
      expect(install.code).toBe(0);
      const gen = run(["node_modules/.bin/openapi-typescript", "openapi.json", "-o", "schema.d.ts"], dir);
      expect(gen.code).toBe(0);
      writeFileSync(join(dir, "client.ts"), CLIENT);
      const tsc = run(["node_modules/.bin/tsc", "--noEmit", "--strict", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "--lib", "es2022,dom", "client.ts"], dir);
      expect(tsc.out).toBe("");
      expect(tsc.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
