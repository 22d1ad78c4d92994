import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../../helpers/cli.ts";
import { ApiClient } from "../../helpers/client.ts";
import { ON_POSTGRES } from "../../helpers/postgres.ts";
import { startServer, type TestServer, tempDataDir, useApi } from "../../helpers/server.ts";
import { snapshotOf, type Snapshot } from "./compare.ts";
import { disableScheduler } from "./backup-helpers.ts";
import { buildRichPortfolio } from "./rich-portfolio.ts";

// Server A runs with the rich portfolio and an upload; the archive is made while it runs.
const api = useApi({ users: ["alice", "bob"] });
const work = tempDataDir("pt-cli-archive-");
const archive = join(work, "nightly", "backup.tar.gz");
const target = join(work, "restored");
let before: Snapshot;
let uploadId: number;
let restored: TestServer | undefined;

beforeAll(async () => {
  await disableScheduler(api.as.alice!);
  await buildRichPortfolio(api.as.alice!, api.as.bob!, { alice: api.users.alice!.id, bob: api.users.bob!.id });
  const form = new FormData();
  form.append("file", new File(["date,amount\n2024-01-01,1\n"], "statement.csv", { type: "text/csv" }));
  uploadId = (await (await api.as.alice!.post("/uploads", form)).json()).id;
  mkdirSync(join(api.dataDir, "brim", "7"), { recursive: true });
  writeFileSync(join(api.dataDir, "brim", "7", "report.csv"), "broker report bytes");
  before = await snapshotOf(api.as.alice!);
}, 60_000);

afterAll(async () => {
  await restored?.stop();
  rmSync(work, { recursive: true, force: true });
});

// The archive holds the SQLite database file (docs/backup.md); on PostgreSQL the database is backed
// up with pg_dump, so these tests (and this file's server, whose hooks only run for a test) skip there.
describe.skipIf(ON_POSTGRES)("npm run cli -- backup create / restore", () => {
  test("create archives a snapshot of the live database with uploads, BRIM files and plugin configuration", async () => {
    // Writes keep going while the archive is made.
    const writing = api.as.bob!.post("/brokers", [{ name: "Written meanwhile" }]);
    const out = await runCli(api.dataDir, "backup", "create", archive);
    await writing;
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("Backup written to");
    const files = await new Bun.Archive(await Bun.file(archive).bytes()).files();
    expect([...files.keys()].sort()).toEqual(expect.arrayContaining(["manifest.json", "portfolio.sqlite", "plugins.json", "brim/7/report.csv"]));
    expect([...files.keys()].some((k) => k.startsWith("uploads/"))).toBe(true);
    expect(await files.get("brim/7/report.csv")!.text()).toBe("broker report bytes");
    expect(files.get("portfolio.sqlite")!.size).toBeGreaterThan(50_000);
    const manifest = JSON.parse(await files.get("manifest.json")!.text());
    expect(manifest).toMatchObject({ format: "portfolio-tracker-archive", archive_version: 1 });
    expect(manifest.migrations.length).toBeGreaterThan(0);
  });

  test("restore refuses a DATA_DIR that is not empty unless --force", async () => {
    const out = await runCli(api.dataDir, "backup", "restore", archive);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("is not empty");
    expect(out.stderr).toContain("--force");
  });

  test("restore refuses a file that is not an archive of ours, and writes nothing", async () => {
    const junk = join(work, "junk.tar.gz");
    writeFileSync(junk, "not an archive");
    const empty = join(work, "untouched");
    const out = await runCli(empty, "backup", "restore", junk);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/not a \.tar\.gz archive|Not a backup archive/);
    expect(existsSync(join(empty, "portfolio.sqlite"))).toBe(false);
  });

  test("the archive restored into an empty DATA_DIR serves the same portfolio, uploads and BRIM files", async () => {
    const out = await runCli(target, "backup", "restore", archive);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(readFileSync(join(target, "brim", "7", "report.csv"), "utf8")).toBe("broker report bytes");
    expect(existsSync(join(target, "plugins.json"))).toBe(true);
    restored = await startServer({ dataDir: target });
    const alice = new ApiClient(restored.base);
    expect((await alice.login("alice")).status).toBe(200);
    const after = await snapshotOf(alice);
    for (const key of Object.keys(before)) expect({ key, value: after[key] }).toEqual({ key, value: before[key] });
    const file = await alice.get(`/uploads/file/${uploadId}`);
    expect(await file.text()).toBe("date,amount\n2024-01-01,1\n");
  }, 30_000);

  test("--force replaces the database of a non-empty DATA_DIR with the archive's", async () => {
    await restored?.stop();
    restored = undefined;
    const out = await runCli(target, "backup", "restore", archive, "--force");
    expect(out.code).toBe(0);
    expect(existsSync(join(target, "portfolio.sqlite-wal"))).toBe(false);
  });
});
