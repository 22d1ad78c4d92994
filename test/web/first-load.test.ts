import { expect, test } from "bun:test";
import { webBundle } from "../../host/http/web-assets.ts";

/**
 * What a browser fetches before the first page shows: index.html and the files it names. The
 * quality bar is under 120 KB of JavaScript gzipped (level 6, as `bun bench/web.ts` measures);
 * the language catalogs, the chart-heavy pages and their text load on first use.
 */
test("the first load carries no language catalog and stays under 120 KB of JavaScript gzipped", async () => {
  const { index, files } = await webBundle();
  const html = new TextDecoder().decode(index.raw);
  const scripts = [...html.matchAll(/src="(\/[^"]+\.js)"/g)].map((m) => files.get(m[1]!)!);
  expect(scripts.length).toBeGreaterThan(0);
  const text = scripts.map((s) => new TextDecoder().decode(s.raw)).join("\n");
  // A German and an Italian translation of the settings page's confirmation.
  expect(text).not.toContain("Einstellungen gespeichert.");
  expect(text).not.toContain("Preferenze salvate.");
  const gzipped = scripts.reduce((sum, s) => sum + Bun.gzipSync(s.raw, { level: 6 }).length, 0);
  expect(gzipped).toBeLessThan(120 * 1024);
}, 60_000);
