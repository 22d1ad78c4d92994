import { extensionOf } from "../../sdk/import/meta.ts";
import { isUnpackLimitError, looksLikeZip, type UnpackLimit, unpackZip, WORKBOOK_LIMITS } from "../../sdk/import/zip.ts";

/** Why a compressed file is refused: the limit it went past, its value and a message naming it. */
export interface UnpackRefusal {
  limit: UnpackLimit;
  max: number;
  message: string;
}

/** The refusal carried by an `UnpackLimitError` (from `unpackZip` or `readWorkbook`, also thrown inside a plugin), else null. */
export function refusalOf(error: unknown): UnpackRefusal | null {
  return isUnpackLimitError(error) ? { limit: error.limit, max: error.max, message: error.message } : null;
}

/**
 * Checks a file that is a ZIP (an XLSX workbook, or any archive uploaded for import) against the
 * import's limits (`WORKBOOK_LIMITS`: entries, bytes unpacked, cells, XML elements) by unpacking it
 * as the spreadsheet reader would, stopping at the first limit passed; answers the refusal, or
 * null for a file within them, not a ZIP, or one too damaged to unpack (its importer says why).
 * Runs in the worker pool: it inflates up to 100 MB.
 */
export async function unpackRefusal(bytes: Uint8Array, filename: string): Promise<UnpackRefusal | null> {
  if (!looksLikeZip(bytes)) return null;
  const label = ["xlsx", "xlsm", "xltx", "xltm", "xls"].includes(extensionOf(filename)) ? "the spreadsheet" : "the ZIP file";
  try {
    await unpackZip(bytes, WORKBOOK_LIMITS, label);
    return null;
  } catch (error) {
    return refusalOf(error);
  }
}
