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
 * The known assets prepared once for many hints (a parse's mappings, `POST /brokers/import/asset-candidates`):
 * ISINs and tickers by value, and each name normalised once with its bigrams in an inverted index, so
 * a hint's name is compared only with the names that share a bigram with it (the others score 0).
 * 1,000 hints against 2,000 assets took ~40 s comparing every pair afresh, most of it normalising
 * the same names again; through the index it is well under a second.
 */
export interface CandidateIndex {
  readonly assets: readonly KnownAsset[];
  readonly byIsin: ReadonlyMap<string, readonly number[]>;
  readonly byTicker: ReadonlyMap<string, readonly number[]>;
  readonly byName: ReadonlyMap<string, readonly number[]>;
  /** Bigram → the assets (positions) whose normalised name has it, and how often. */
  readonly postings: ReadonlyMap<string, { readonly at: number[]; readonly count: number[] }>;
  /** Normalised name length of each asset. */
  readonly lengths: Int32Array;
}

function push<K>(map: Map<K, number[]>, key: K, value: number) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function candidateIndex(assets: readonly KnownAsset[]): CandidateIndex {
  const byIsin = new Map<string, number[]>();
  const byTicker = new Map<string, number[]>();
  const byName = new Map<string, number[]>();
  const postings = new Map<string, { at: number[]; count: number[] }>();
  const lengths = new Int32Array(assets.length);
  assets.forEach((a, k) => {
    if (a.isin) push(byIsin, a.isin.toUpperCase(), k);
    if (a.ticker) push(byTicker, a.ticker.toUpperCase(), k);
    const name = normalizeName(a.name);
    lengths[k] = name.length;
    if (name === "") return;
    push(byName, name, k);
    for (const [g, n] of bigrams(name)) {
      let p = postings.get(g);
      if (!p) postings.set(g, p = { at: [], count: [] });
      p.at.push(k);
      p.count.push(n);
    }
  });
  return { assets, byIsin, byTicker, byName, postings, lengths };
}

/** Per-thread scratch of {@link findCandidates}: bigram overlap per asset position. */
let overlaps = new Int32Array(0);

/**
 * Candidates for one hint, best first: ISIN equal → `exact`; ticker equal (case-insensitive) →
 * `high`; name similarity ≥ 0.8 → `medium`, ≥ 0.5 → `low`. An asset appears once, at its best
 * level; at most `limit` candidates. Same answer as comparing the hint with every asset by
 * {@link nameSimilarity}.
 */
export function findCandidates(hint: AssetHint, index: CandidateIndex, limit = 10): AssetCandidateDoc[] {
  const isin = hint.extracted_isin?.trim().toUpperCase();
  const symbol = hint.extracted_symbol?.trim().toUpperCase();
  const name = hint.extracted_name?.trim();
  const found = new Map<number, { level: MatchConfidence; score: number }>();
  if (isin) for (const k of index.byIsin.get(isin) ?? []) found.set(k, { level: "exact", score: 1 });
  if (symbol) for (const k of index.byTicker.get(symbol) ?? []) if (!found.has(k)) found.set(k, { level: "high", score: 1 });
  const x = name ? normalizeName(name) : "";
  if (x !== "") {
    for (const k of index.byName.get(x) ?? []) if (!found.has(k)) found.set(k, { level: "medium", score: 1 });
    if (overlaps.length < index.assets.length) overlaps = new Int32Array(index.assets.length);
    const touched: number[] = [];
    for (const [g, n] of bigrams(x)) {
      const p = index.postings.get(g);
      if (!p) continue;
      for (let i = 0; i < p.at.length; i++) {
        const k = p.at[i]!;
        if (overlaps[k] === 0) touched.push(k);
        overlaps[k]! += Math.min(n, p.count[i]!);
      }
    }
    for (const k of touched) {
      const overlap = overlaps[k]!;
      overlaps[k] = 0;
      if (found.has(k)) continue;
      const score = (2 * overlap) / (Math.max(1, x.length - 1) + Math.max(1, index.lengths[k]! - 1));
      const level: MatchConfidence | null = score >= 0.8 ? "medium" : score >= 0.5 ? "low" : null;
      if (level) found.set(k, { level, score });
    }
  }
  return [...found]
    .map(([k, f]) => {
      const a = index.assets[k]!;
      return { c: { asset_id: a.id, symbol: a.ticker, isin: a.isin, name: a.name, match_confidence: f.level } as AssetCandidateDoc, score: f.score };
    })
    .sort((p, q) => RANK[p.c.match_confidence] - RANK[q.c.match_confidence] || q.score - p.score || p.c.asset_id - q.c.asset_id)
    .slice(0, limit)
    .map((f) => f.c);
}

/** Candidates for one hint among `assets` (one hint; for many, build a {@link candidateIndex} once). */
export function assetCandidates(hint: AssetHint, assets: readonly KnownAsset[] | CandidateIndex, limit = 10): AssetCandidateDoc[] {
  return findCandidates(hint, "postings" in assets ? assets : candidateIndex(assets), limit);
}

/** The asset to pre-select: the only `exact` candidate, else null. */
export function selectedAsset(candidates: readonly AssetCandidateDoc[]): number | null {
  const exact = candidates.filter((c) => c.match_confidence === "exact");
  return exact.length === 1 ? exact[0]!.asset_id : null;
}
