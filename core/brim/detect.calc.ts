import type { ImportFileMeta, ImportPlugin } from "../../sdk/index.ts";

/** A plugin as detection needs it. */
export interface DetectCandidate {
  readonly code: string;
  readonly detectionPriority: number;
  readonly instance: Pick<ImportPlugin, "accepts">;
  readonly supportedExtensions: readonly string[];
}

/** One plugin's verdict on one file, with the reason in words (shown by the preview and the docs). */
export interface DetectVerdict {
  readonly code: string;
  readonly confidence: number;
  readonly priority: number;
  readonly reason: string;
}

/** One check of the chain: a reason to stop (confidence 0), or null to go on. */
type Check = (file: ImportFileMeta, plugin: DetectCandidate) => string | null;

const CHECKS: readonly Check[] = [
  (file) => (file.sizeBytes === 0 ? "the file is empty" : null),
  (file, plugin) => (file.format === "pdf" && !plugin.supportedExtensions.includes("pdf")
    ? "the plugin reads no PDF documents; export the CSV or spreadsheet instead" : null),
  (file) => (file.format === "binary" ? "the file is neither text nor a spreadsheet" : null),
  (file, plugin) => (file.format === "xlsx" || file.format === "xls") && !plugin.supportedExtensions.some((e) => e === "xlsx" || e === "xls")
    ? "the plugin reads no spreadsheets" : null,
  (file, plugin) => (file.format === "text" || file.format === "xml") && !plugin.supportedExtensions.some((e) => e !== "xlsx" && e !== "xls")
    ? "the plugin reads only spreadsheets" : null,
];

function confidenceOf(file: ImportFileMeta, plugin: DetectCandidate): { confidence: number; reason: string } {
  let value: number;
  try {
    value = plugin.instance.accepts(file);
  } catch (error) {
    return { confidence: 0, reason: `accepts() failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return { confidence: 0, reason: "the plugin does not recognise the content" };
  return { confidence: Math.min(1, value), reason: "recognised by its content" };
}

/** One plugin's verdict on `file`: the chain of checks, then its `accepts()`. */
function verdictOf(file: ImportFileMeta, plugin: DetectCandidate): DetectVerdict {
  for (const check of CHECKS) {
    const reason = check(file, plugin);
    if (reason) return { code: plugin.code, confidence: 0, priority: plugin.detectionPriority, reason };
  }
  return { code: plugin.code, priority: plugin.detectionPriority, ...confidenceOf(file, plugin) };
}

const bestFirst = (a: DetectVerdict, b: DetectVerdict) => b.confidence - a.confidence || a.priority - b.priority || a.code.localeCompare(b.code);

/**
 * Every plugin's verdict on `file`, best first: confidence descending, then `detection_priority`
 * ascending, then code. A chain of checks runs before `accepts()`, each with the reason it stops.
 */
export function detect(file: ImportFileMeta, plugins: readonly DetectCandidate[]): DetectVerdict[] {
  return plugins.map((plugin) => verdictOf(file, plugin)).sort(bestFirst);
}

/**
 * {@link detect} with `breathe()` awaited before each plugin, so the caller can let other work run
 * between importers (thirty `accepts()` over a 4 KiB head take 20–30 ms on a busy machine). The
 * verdicts are the same.
 */
export async function detectInTurns(file: ImportFileMeta, plugins: readonly DetectCandidate[], breathe: () => Promise<void>): Promise<DetectVerdict[]> {
  const verdicts: DetectVerdict[] = [];
  for (const plugin of plugins) {
    await breathe();
    verdicts.push(verdictOf(file, plugin));
  }
  return verdicts.sort(bestFirst);
}

/** The codes of plugins with a confidence above zero, best first. */
export function compatibleCodes(verdicts: readonly DetectVerdict[]): string[] {
  return verdicts.filter((v) => v.confidence > 0).map((v) => v.code);
}
