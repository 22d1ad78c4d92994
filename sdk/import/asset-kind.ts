import type { ImportedTransaction } from "../kinds/import-plugin.ts";

/** The kinds a security's name can tell: never CRYPTO (a coin has no name words to read). */
export type NamedAssetType = Extract<NonNullable<ImportedTransaction["assetType"]>, "BOND" | "ETF" | "FUND" | "STOCK">;

// Words as brokers print them in security names (German PDF notes, CSV product columns), compared
// whole and lower-cased after splitting at anything not a letter or digit: "U.ETF" holds the word
// "etf", "Petfood" does not. A phrase is words in a row ("exchange traded fund").

/** A structured product or an exchange-traded commodity or note: not an ETF, a bond or a share, whatever else the name says. */
const NEITHER = [
  "etc", "etcs", "etn", "etns", "etp", "etps", "exchange traded commodity", "exchange traded commodities", "exchange traded note", "exchange traded notes",
  "zertifikat", "zertifikate", "certificate", "certificates", "dt zt", "optionsschein", "optionsscheine", "warrant", "warrants",
  "turbo", "knock out", "mini future", "cfd", "aktienanleihe", "aktienanleihen", "reverse convertible",
];
const ETF = ["etf", "exchange traded fund", "exchange traded funds"];
const FUND = ["fund", "funds", "fonds", "fondsanteile", "fondo", "fondi", "anteile", "anteilsklasse", "anteilklasse", "sicav", "oeic", "mutual fund", "unit trust"];
/**
 * Singular or in a bond's own wording: "Bond", "Bonds", "Anleihen", "Obligationen" name bond funds and
 * ETFs as often as bonds ("iShares JPMorgan EM Bond", "CSIF (CH) Bond Corporate Global"), so they say nothing.
 */
const BOND = [
  "anleihe", "anl", "schuldverschreibung", "schv", "notes", "mtn", "pfandbrief", "obligation", "obbligazione", "btp", "gilt",
  "treasury bill", "treasury bills",
];
/**
 * A share's own wording: the class of a German, French, Spanish, Italian or Dutch note ("Namens-Aktien",
 * "Actions Port.", "Acciones Nominativas", "Aandelen op naam"), "Shares", "Shs", "Common Stock",
 * depositary receipts. Not "Aktien", "Actions", "Azioni" or "Stock" alone: equity funds carry them
 * ("DWS Aktien Strategie Deutschland", "BNY Mellon Global Stock").
 */
const STOCK = [
  "aktie", "namens aktien", "inhaber aktien", "namensaktien", "inhaberaktien", "stammaktien", "vorzugsaktien", "shares", "shs", "common stock",
  "adr", "adrs", "ads", "gdr", "gdrs", "actions port", "actions nom", "actions au porteur", "actions nominatives", "acciones nominativas",
  "acciones al portador", "azioni ordinarie", "azioni privilegiate", "azioni di risparmio", "aandelen op naam", "aandelen aan toonder",
  "ações ordinárias", "ações nominativas", "ações preferenciais",
];
/**
 * Words of an index, a fund range or a share class: funds are "Registered Shares" too
 * ("Xtr.(IE)-MSCI World Registered Shares 1C"), and bond funds carry bond words, so a share or bond
 * word beside one of these tells nothing.
 */
const FUND_RANGE = [
  "ucits", "msci", "ftse", "stoxx", "russell", "index", "acc", "dist", "dis", "thes", "thesaurierend", "ausschüttend", "accumulating", "distributing",
  "admiral", "institutional", "ishares", "xtrackers", "xtr", "vanguard", "amundi", "lyxor", "spdr", "wisdomtree", "investment trust",
];
const has = (text: string, words: readonly string[]) => words.some((w) => text.includes(` ${w} `));

/**
 * The kind of instrument a security's name or description states, or `undefined` when it does not
 * say unambiguously: `ETF` for "UCITS ETF" or "U.ETF", `FUND` for "Fund", "Fonds", "Inhaber-Anteile",
 * `BOND` for "Anleihe", "Notes", "Inh.-Schv.", `STOCK` for "Namens-Aktien", "Registered Shares",
 * "Reg. Shs", "Common Stock", "ADR". Whole words only, in any case. An ETF's or fund's name wins over
 * the share or bond words it also carries ("… UCITS ETF Registered Shares", "… Corporate Bond UCITS
 * ETF"); an exchange-traded commodity or note ("ETC", "ETN"), a certificate, a warrant and a reverse
 * convertible ("Aktienanleihe") are none of the four; a bond word beside a share word, and a share
 * or bond word beside an index or fund range ("MSCI", "UCITS", "iShares", "Acc"), say nothing.
 *
 * An importer sets `ImportedTransaction.assetType` from it only when its report has no column
 * naming the kind: such a column wins. The ISIN is no help (its prefix is a registration country).
 * ```ts
 * assetTypeOfName("iShsIII-Core MSCI World U.ETF Reg. Shs USD Acc. oN") // "ETF"
 * assetTypeOfName("Bayer AG Namens-Aktien o.N.")                        // "STOCK"
 * assetTypeOfName("Petfood AG")                                         // undefined
 * ```
 */
export function assetTypeOfName(name: string | undefined): NamedAssetType | undefined {
  const words = (name ?? "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return undefined;
  const text = ` ${words.join(" ")} `;
  if (has(text, NEITHER)) return undefined;
  if (has(text, ETF)) return "ETF";
  if (has(text, FUND)) return "FUND";
  if (has(text, FUND_RANGE)) return undefined;
  const stock = has(text, STOCK);
  if (has(text, BOND)) return stock ? undefined : "BOND";
  return stock ? "STOCK" : undefined;
}
