import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compressRepeated, tarBlocks, tarHeader } from "../../helpers/archives.ts";
import { runCli } from "../../helpers/cli.ts";
import { ON_POSTGRES } from "../../helpers/postgres.ts";
import { tempDataDir } from "../../helpers/server.ts";

// A backup archive is unpacked in memory on restore; a decompression bomb (built here at run time)
// is refused from a first streamed read, before anything is unpacked or written.
const work = tempDataDir("pt-cli-bomb-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(ON_POSTGRES)("npm run cli -- backup restore of a decompression bomb", () => {
  test("an archive whose database entry is 400 MB of zeros (under 1 MB of gzip) is refused naming the limit; nothing is restored", async () => {
    const manifest = JSON.stringify({ format: "portfolio-tracker-archive", archive_version: 1, app_version: "0.1.0",
      created_at: "2026-11-25T00:00:00.000Z", migrations: [], files: 2 });
    const size = 400 * 1024 * 1024;
    const head = new Uint8Array([...tarHeader("manifest.json", manifest.length), ...tarBlocks(manifest), ...tarHeader("portfolio.sqlite", size)]);
    const { compressed } = await compressRepeated(head, new Uint8Array(1024 * 1024), size / (1024 * 1024), new Uint8Array(1024), "gzip");
    expect(compressed.length).toBeLessThan(1024 * 1024);
    const bomb = join(work, "bomb.tar.gz");
    writeFileSync(bomb, compressed);
    const target = join(work, "data");
    const out = await runCli(target, "backup", "restore", bomb);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("The archive unpacks to more than 256 MB (100 times its size)");
    expect(out.stderr).toContain("nothing was restored");
    expect(existsSync(target) ? readdirSync(target) : []).toEqual([]);
  }, 60_000);
});
