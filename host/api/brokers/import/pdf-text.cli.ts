import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { anonymise } from "../../../../core/brim/pdf-anonymise.ts";
import { pdfErrorCode, pdfText } from "../../../../sdk/import/pdf.ts";

export { anonymise };

/** A refusal of `import pdf-text`: printed, exit code 1. */
export class PdfTextCliError extends Error {}

/** `import pdf-text <file.pdf> [--anonymise]`: the text importers read, line by line (pages apart by a form feed). */
export async function runImport(command: string | undefined, args: string[], out: (line: string) => void): Promise<number> {
  const anonymised = args.includes("--anonymise") || args.includes("--anonymize");
  const files = args.filter((a) => !a.startsWith("--"));
  if (command !== "pdf-text" || files.length !== 1) throw new PdfTextCliError("Expected: import pdf-text <file.pdf> [--anonymise]");
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), files[0]!);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(path));
  } catch {
    throw new PdfTextCliError(`cannot read ${files[0]}`);
  }
  try {
    const { text } = await pdfText(bytes);
    out(anonymised ? anonymise(text) : text);
    return 0;
  } catch (error) {
    const code = pdfErrorCode(error);
    if (code) throw new PdfTextCliError(`${code}: ${(error as Error).message}`);
    throw error;
  }
}
