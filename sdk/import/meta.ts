import type { ImportFileMeta } from "../kinds/import-plugin.ts";
import { sniffFormat } from "./magic.ts";
import { decodeText } from "./text.ts";

/** How much of a file `describeFile` decodes into `head`. */
export const HEAD_BYTES = 4096;

/** The lower-cased last extension of a file name, without the dot; `""` when none. */
export function extensionOf(filename: string): string {
  const base = filename.replace(/[. ]+$/, "");
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/**
 * The {@link ImportFileMeta} the host gives `accepts()` for `bytes` named `filename`: the format
 * from the magic bytes, and for text and XML the first 4 KiB decoded with the sniffed encoding (a
 * character cut at the edge is dropped). Plugin tests build their metas with it, as the host does.
 */
export function describeFile(bytes: Uint8Array, filename: string): ImportFileMeta {
  const format = sniffFormat(bytes);
  let head = "";
  if (format === "text" || format === "xml") {
    head = decodeText(bytes.subarray(0, HEAD_BYTES)).text;
    if (bytes.length > HEAD_BYTES) head = head.replace(/\uFFFD$/, "");
  }
  return { extension: extensionOf(filename), filename, format, head, sizeBytes: bytes.length };
}
