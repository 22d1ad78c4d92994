/**
 * Route search (docs/fx.md "Providers, routes and route search"): every chain of provider steps
 * from one currency to another. Pure; no typeorm, no tsyringe.
 */

/** What one provider quotes: one unit of `base` in each of `targets` (one entry per base currency). */
export interface ProviderEdges {
  base: string;
  provider: string;
  targets: readonly string[];
}

/** One step of a found path; `reversed` means the provider quotes `to`→`from`, so its rate is inverted. */
export interface SearchStep {
  from: string;
  provider: string;
  reversed: boolean;
  to: string;
}

export interface RouteSearchOptions {
  /** Stop once this many paths are found (paths come shortest first, so the shortest are kept). */
  limit?: number;
  /** At most this many steps; never more than {@link MAX_STEPS}. */
  maxSteps?: number;
}

export const MAX_STEPS = 4;
export const MAX_PROVIDER_USES = 2;
export const MANUAL_PROVIDER = "MANUAL";
/**
 * The step code of the requesting user's private manual rates (docs/fx.md "Private manual rates"):
 * a route added after a pair's shared routes when reading, never stored in `fx_routes`; no plugin
 * has this code (plugin ids have no colon), so saving a route that names it is refused.
 */
export const PRIVATE_PROVIDER = "MANUAL:PRIVATE";

/** Outgoing steps per currency, native and reversed, deduplicated, in a stable order. */
function adjacency(edges: readonly ProviderEdges[]): Map<string, SearchStep[]> {
  const seen = new Set<string>();
  const out = new Map<string, SearchStep[]>();
  const add = (step: SearchStep) => {
    const key = `${step.from}|${step.to}|${step.provider}|${step.reversed}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.set(step.from, [...(out.get(step.from) ?? []), step]);
  };
  for (const e of edges) {
    if (e.provider.toUpperCase() === MANUAL_PROVIDER) continue;
    for (const target of e.targets) {
      if (target === e.base) continue;
      add({ from: e.base, provider: e.provider, reversed: false, to: target });
      add({ from: target, provider: e.provider, reversed: true, to: e.base });
    }
  }
  for (const steps of out.values()) steps.sort(compareStep);
  return out;
}

/** Native before reversed, then provider, then destination: the tie-break inside one length. */
function compareStep(a: SearchStep, b: SearchStep): number {
  return Number(a.reversed) - Number(b.reversed) || a.provider.localeCompare(b.provider) || a.to.localeCompare(b.to);
}

function comparePath(a: SearchStep[], b: SearchStep[]): number {
  if (a.length !== b.length) return a.length - b.length;
  const reversed = (p: SearchStep[]) => p.filter((s) => s.reversed).length;
  const byReversed = reversed(a) - reversed(b);
  if (byReversed !== 0) return byReversed;
  for (let i = 0; i < a.length; i++) {
    const c = compareStep(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

/** Every path of exactly `length` steps, by depth-first search under the path rules. */
function pathsOfLength(adj: Map<string, SearchStep[]>, from: string, to: string, length: number): SearchStep[][] {
  const found: SearchStep[][] = [];
  const path: SearchStep[] = [];
  const visited = new Set<string>([from]);
  const uses = new Map<string, number>();
  const walk = (at: string) => {
    const last = path.length === length - 1;
    for (const step of adj.get(at) ?? []) {
      if (last ? step.to !== to : step.to === to || visited.has(step.to)) continue;
      if ((uses.get(step.provider) ?? 0) >= MAX_PROVIDER_USES) continue;
      path.push(step);
      if (last) found.push([...path]);
      else {
        visited.add(step.to);
        uses.set(step.provider, (uses.get(step.provider) ?? 0) + 1);
        walk(step.to);
        uses.set(step.provider, uses.get(step.provider)! - 1);
        visited.delete(step.to);
      }
      path.pop();
    }
  };
  if (length >= 1) walk(from);
  return found;
}

/**
 * All paths `from`→`to`: at most 4 steps, no currency twice (the source is never revisited), one
 * provider at most twice, each step native or reversed, MANUAL left out. Shortest first; within a
 * length, fewer reversed steps first, then step by step (native first, provider, currency).
 */
export function searchRoutes(edges: readonly ProviderEdges[], from: string, to: string, options: RouteSearchOptions = {}): SearchStep[][] {
  if (from === to) return [];
  const adj = adjacency(edges);
  const maxSteps = Math.min(options.maxSteps ?? MAX_STEPS, MAX_STEPS);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const result: SearchStep[][] = [];
  for (let length = 1; length <= maxSteps && result.length < limit; length++) {
    result.push(...pathsOfLength(adj, from, to, length).sort(comparePath));
  }
  return result.slice(0, limit);
}
