import { expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { ImportPlugin } from "../../sdk/index.ts";
import { pdfText } from "../../sdk/import/index.ts";
import { workbookFixture } from "./brim-helpers.ts";

// Detection from the content alone: every broker importer (plugins/broker-<name>, its samples in
// test/fixtures/brim/<name>) claims each sample of its broker (≥ 0.9, whatever the file is called)
// and no other broker's sample (0), workbooks included. A new importer is checked as soon as it
// exists (a PDF importer plugins/broker-<name>-pdf with the PDFs of test/fixtures/brim/<name>-pdf, generated
// by test/fixtures/pdf/make-fixtures.ts). The generic CSV reader is the fallback: it may claim anything, but only weakly.
const PLUGINS_DIR = join(import.meta.dir, "..", "..", "plugins");
const FIXTURES = join(import.meta.dir, "..", "fixtures", "brim");
const FALLBACK = "generic-csv";

async function importers(): Promise<Record<string, ImportPlugin>> {
  const found: Record<string, ImportPlugin> = {};
  for (const dir of readdirSync(PLUGINS_DIR).filter((d) => d.startsWith("broker-")).sort()) {
    const module = await import(join(PLUGINS_DIR, dir, "index.ts"));
    found[dir.slice("broker-".length)] = (await module.default.create({} as never)) as ImportPlugin;
  }
  return found;
}

async function samples(): Promise<{ broker: string; file: Awaited<ReturnType<typeof workbookFixture>>["file"]; name: string }[]> {
  const out = [];
  for (const broker of readdirSync(FIXTURES).sort()) {
    for (const name of readdirSync(join(FIXTURES, broker)).filter((n) => !n.endsWith(".ts"))) {
      const { bytes, file } = await workbookFixture(broker, name);
      // A PDF's head is the start of its text, as the host reads it in the worker pool.
      const head = file.format === "pdf" ? (await pdfText(bytes)).text.slice(0, 4096) : file.head;
      out.push({ broker, file: { ...file, head, filename: `upload.${file.extension}` }, name });
    }
  }
  return out;
}

test("every broker importer has samples of its own", async () => {
  const codes = Object.keys(await importers()).filter((c) => c !== FALLBACK);
  expect(codes.length).toBeGreaterThanOrEqual(14);
  expect(codes.filter((c) => !existsSync(join(FIXTURES, c)))).toEqual([]);
});

test("each importer claims its own samples and none of the other brokers'", async () => {
  const plugins = await importers();
  const wrong: string[] = [];
  for (const { broker, file, name } of await samples()) {
    for (const [code, plugin] of Object.entries(plugins)) {
      if (code === FALLBACK) continue;
      const confidence = plugin.accepts(file);
      const own = code === broker;
      if (own ? confidence < 0.9 : confidence !== 0) wrong.push(`${code} on ${broker}/${name}: ${confidence}`);
    }
  }
  expect(wrong).toEqual([]);
});

test("the generic CSV fallback never claims a broker's sample as surely as an importer does", async () => {
  const generic = (await importers())[FALLBACK]!;
  const strong = (await samples()).map(({ broker, file, name }) => [`${broker}/${name}`, generic.accepts(file)] as const).filter(([, c]) => c >= 0.5);
  expect(strong).toEqual([]);
});
