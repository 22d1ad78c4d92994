import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pdfErrorCode, pdfText } from "../../sdk/import/pdf.ts";

/** A refusal of `import pdf-text`: printed, exit code 1. */
export class PdfTextCliError extends Error {}

/** Letters become x/X and digits 0, so a masked value keeps its length and shape (an importer's patterns still match). */
const mask = (value: string) => value.replace(/[A-Za-zÀ-ÿ]/g, (c) => (c === c.toUpperCase() ? "X" : "x")).replace(/\d/g, "0");

/** The document's own letterhead (the bank, its address and contacts) stays readable: it identifies the format. */
const LETTERHEAD = /bank|gmbh|\bag\b|capital|www\.|@|seite|page|service|fortsetzung/i;
/** The line that starts the document's body: its title. */
const TITLE = /abrechnung|settlement|dividend|ausschüttung|zinsen|interest|kontoauszug|statement|invoice|confirmation|avis|nota|relevé/i;
// Three groups of four at least: an ISIN (12 characters) never matches; a shorter IBAN's digits fall to the digit rule.
const IBAN = /\b([A-Z]{2})(\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?)\b/g;

/**
 * A PDF's text with what identifies its owner replaced, for a bug report or a new importer's fixture:
 * IBANs (country kept), every run of 7 or more digits (account, depot, customer and tax numbers; dates,
 * amounts and ISINs have separators or letters and stay), and in the address block above the title
 * the first cell of each line that is not a label in capitals nor the bank's letterhead (name, street,
 * postcode and town). Masks keep length and shape: letters become x/X, digits 0.
 */
export function anonymise(text: string): string {
  const lines = text.split("\n");
  const title = lines.findIndex((l, i) => i > 0 && TITLE.test(l) && !LETTERHEAD.test(l));
  const header = title < 0 ? Math.min(lines.length, 15) : title;
  return lines.map((line, i) => {
    let out = line.replace(IBAN, (_all, country: string, rest: string) => `${country}${mask(rest)}`).replace(/\b\d{7,}\b/g, mask);
    if (i < header && i > 0) {
      const [first, ...rest] = out.split(/(\s{2,})/);
      const label = (/^[A-ZÄÖÜ0-9 .:/-]+$/.test(first!) && /[A-Z]{3}/.test(first!)) || /:$|\bNr\./.test(first!);
      if (first && !label && !LETTERHEAD.test(first) && /[A-Za-zÀ-ÿ]{2}/.test(first)) out = [mask(first), ...rest].join("");
      else if (first && /^\d{4,5} /.test(first) && !LETTERHEAD.test(first)) out = [mask(first), ...rest].join("");
    }
    return out;
  }).join("\n");
}

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
