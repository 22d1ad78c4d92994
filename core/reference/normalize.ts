/**
 * Text folding shared by the reference look-ups: matching ignores case, accents, dots and
 * apostrophes, and runs of other punctuation ("U.S.A." = "usa", "Côte d’Ivoire" = "cote divoire").
 */
export function foldName(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[.'’`]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Symbols keep their punctuation ("$", "US$", "R$"); only width, case and spacing are folded. */
export function foldSymbol(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * The canonical form of a BCP 47 tag ("en-us" → "en-US"); "en" when Intl rejects it. Callers
 * validate the shape first, so the fallback only guards core against direct misuse.
 */
export function canonicalLanguage(language: string): string {
  try {
    return Intl.getCanonicalLocales(language)[0] ?? "en";
  } catch {
    return "en";
  }
}

/** A name → codes index; one name may stand for several codes ("Bolívar Soberano": VED, VES). */
export class NameIndex {
  private readonly byKey = new Map<string, string[]>();

  constructor(private readonly fold: (text: string) => string = foldName) {}

  add(name: string | undefined, code: string): void {
    if (!name) return;
    const key = this.fold(name);
    if (!key) return;
    const codes = this.byKey.get(key);
    if (!codes) this.byKey.set(key, [code]);
    else if (!codes.includes(code)) codes.push(code);
  }

  get(name: string): string[] {
    return this.byKey.get(this.fold(name)) ?? [];
  }
}

/** A small per-language memo, capped so that a stream of distinct tags cannot grow it. */
export function memoByLocale<T>(build: (language: string) => T): (language: string) => T {
  const memo = new Map<string, T>();
  return (language) => {
    let value = memo.get(language);
    if (value === undefined) {
      value = build(language);
      if (memo.size < 64) memo.set(language, value);
    }
    return value;
  };
}
