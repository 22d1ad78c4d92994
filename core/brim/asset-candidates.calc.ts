import type { AssetCandidateDoc, MatchConfidence } from "./parse-result.ts";

/** An asset as candidate search needs it. */
export interface KnownAsset {
  id: number;
  isin: string | null;
  name: string;
  ticker: string | null;
}

export interface AssetHint {
  extracted_isin?: string;
  extracted_name?: string;
  extracted_symbol?: string;
}

const RANK: Record<MatchConfidence, number> = { exact: 0, high: 1, medium: 2, low: 3 };

/** Names compared without case, accents, punctuation and legal-form noise. */
function normalizeName(name: string): string {
  return name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .replace(/\b(inc|corp|corporation|plc|ag|sa|se|nv|spa|ltd|co|the|class [a-z]|ucits etf|etf|acc|dist)\b/g, " ")
    .replace(/\s+/g, " ").trim();
}

function bigrams(s: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) out.set(s.slice(i, i + 2), (out.get(s.slice(i, i + 2)) ?? 0) + 1);
  return out;
}

/** Sørensen–Dice coefficient of character bigrams, 0..1; 1 for equal normalised names. */
export function nameSimilarity(a: string, b: string): number {
  const x = normalizeName(a);
  const y = normalizeName(b);
  if (x === "" || y === "") return 0;
  if (x === y) return 1;
  const bx = bigrams(x);
  const by = bigrams(y);
  let overlap = 0;
  for (const [g, n] of bx) overlap += Math.min(n, by.get(g) ?? 0);
  const total = Math.max(1, x.length - 1) + Math.max(1, y.length - 1);
  return (2 * overlap) / total;
}

/**
 * Candidates for one hint, best first: ISIN equal → `exact`; ticker equal (case-insensitive) →
 * `high`; name similarity ≥ 0.8 → `medium`, ≥ 0.5 → `low`. An asset appears once, at its best
 * level; at most `limit` candidates.
 */
export function assetCandidates(hint: AssetHint, assets: readonly KnownAsset[], limit = 10): AssetCandidateDoc[] {
  const isin = hint.extracted_isin?.trim().toUpperCase();
  const symbol = hint.extracted_symbol?.trim().toUpperCase();
  const name = hint.extracted_name?.trim();
  const found: { c: AssetCandidateDoc; score: number }[] = [];
  for (const a of assets) {
    let level: MatchConfidence | null = null;
    let score = 0;
    if (isin && a.isin?.toUpperCase() === isin) { level = "exact"; score = 1; }
    else if (symbol && a.ticker?.toUpperCase() === symbol) { level = "high"; score = 1; }
    else if (name) {
      score = nameSimilarity(name, a.name);
      level = score >= 0.8 ? "medium" : score >= 0.5 ? "low" : null;
    }
    if (level) found.push({ c: { asset_id: a.id, symbol: a.ticker, isin: a.isin, name: a.name, match_confidence: level }, score });
  }
  return found
    .sort((p, q) => RANK[p.c.match_confidence] - RANK[q.c.match_confidence] || q.score - p.score || p.c.asset_id - q.c.asset_id)
    .slice(0, limit)
    .map((f) => f.c);
}

/** The asset to pre-select: the only `exact` candidate, else null. */
export function selectedAsset(candidates: readonly AssetCandidateDoc[]): number | null {
  const exact = candidates.filter((c) => c.match_confidence === "exact");
  return exact.length === 1 ? exact[0]!.asset_id : null;
}
