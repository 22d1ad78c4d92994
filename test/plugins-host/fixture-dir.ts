import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The plugin fixtures folder (example-calc and the broken-* plugins). */
export const PLUGIN_FIXTURES = join(import.meta.dir, "..", "fixtures", "plugins");

/**
 * Copies plugin fixtures (all, or the named folders) into a fresh temporary folder usable as
 * PLUGINS_DIR, outside the repository so nothing resolves through our own node_modules by accident.
 */
export function pluginsDirWith(names?: readonly string[]): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "pt-plugins-"));
  if (names) for (const name of names) cpSync(join(PLUGIN_FIXTURES, name), join(dir, name), { recursive: true });
  else cpSync(PLUGIN_FIXTURES, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { force: true, recursive: true }) };
}
