/**
 * A broker PDF's text made fit for a bug report or a new importer's fixture (docs/import.md "Broker
 * PDF documents"): shared by `npm run cli -- import pdf-text --anonymise` and the import wizard's
 * "anonymised text" of a document that failed to parse.
 */

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
