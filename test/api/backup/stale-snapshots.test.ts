import { describe, expect, test } from "bun:test";
import { existsSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDataDir, useApi } from "../../helpers/server.ts";

// A sqlite export whose process died mid-download leaves its copy (all data) in DATA_DIR.
const dataDir = tempDataDir("pt-stale-snapshots-");
const old = join(dataDir, ".backup-0b7e2f3a-1111-4c2d-9e8f-123456789abc.sqlite");
const recent = join(dataDir, ".backup-0b7e2f3a-2222-4c2d-9e8f-123456789abc.sqlite");
writeFileSync(old, "old copy");
writeFileSync(recent, "copy of a download in progress elsewhere");
const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000);
utimesSync(old, twoDaysAgo, twoDaysAgo);
const api = useApi({ dataDir });

describe("leftover sqlite export copies", () => {
  test("copies older than a day are removed at start; a recent one (another process may stream it) stays", () => {
    expect(api.dataDir).toBe(dataDir);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  });
});
