import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { Database } from "../db/database.ts";
import { declareChange } from "../db/data-changes.ts";
import { InputError } from "../errors/domain-error.ts";
import { type ChainStep, FxRoute } from "./fx-route.entity.ts";
import { normalisePair } from "./pair.ts";
import { MANUAL_PROVIDER } from "./route-search.calc.ts";

/** Priority of the MANUAL placeholder route: after every real route. */
export const MANUAL_PRIORITY = 999;

export interface RouteInput {
  base: string;
  chainSteps: ChainStep[];
  priority: number;
  quote: string;
}

export interface RouteView {
  base: string;
  chainSteps: ChainStep[];
  priority: number;
  quote: string;
}

export interface RouteOutcome extends RouteView {
  action: "created" | "updated" | "error";
  message?: string;
  success: boolean;
}

export interface RouteDeleteInput {
  base: string;
  priority?: number;
  quote: string;
}

export interface RouteDeleteOutcome {
  base: string;
  deletedCount: number;
  manualReinstated: boolean;
  message?: string;
  priority?: number;
  quote: string;
  success: boolean;
}

const manualChain = (base: string, quote: string): ChainStep[] => [{ from: base, provider: MANUAL_PROVIDER, to: quote }];
const isManual = (steps: ChainStep[]) => steps.length === 1 && steps[0]!.provider === MANUAL_PROVIDER;
const chainKey = (steps: ChainStep[]) => steps.map((s) => `${s.from}>${s.to}:${s.provider}`).join(" ");
const parseSteps = (row: FxRoute) => JSON.parse(row.chainSteps) as ChainStep[];

type Checked = { ok: true; route: RouteView } | { message: string; ok: false; unknownProvider?: boolean };

/**
 * Chain rules: continuous, endpoints equal the pair (either orientation), no repeated
 * edge, MANUAL only as a single step at priority 999, known providers only. A chain posted
 * quote→base is turned round so stored chains always run base→quote (alphabetical).
 */
export function checkRoute(input: RouteInput, knownProviders: ReadonlySet<string>): Checked {
  const pair = normalisePair(input.base, input.quote);
  if (!pair) return { message: "base and quote must be two different three-letter currency codes", ok: false };
  let steps = input.chainSteps.map((s) => ({ from: s.from.trim().toUpperCase(), provider: s.provider.trim().toUpperCase(), to: s.to.trim().toUpperCase() }));
  if (steps.length === 0) return { message: "chain_steps must not be empty", ok: false };
  const unknown = steps.find((s) => s.provider !== MANUAL_PROVIDER && !knownProviders.has(s.provider));
  if (unknown) return { message: `Unknown FX provider: ${unknown.provider}`, ok: false, unknownProvider: true };
  if (steps.some((s) => s.provider === MANUAL_PROVIDER) && (steps.length !== 1 || input.priority !== MANUAL_PRIORITY)) {
    return { message: `MANUAL is allowed only as a single step at priority ${MANUAL_PRIORITY}`, ok: false };
  }
  const edges = new Set<string>();
  for (const [i, s] of steps.entries()) {
    if (!normalisePair(s.from, s.to)) return { message: `Step ${i + 1} must join two different three-letter currency codes`, ok: false };
    if (i > 0 && steps[i - 1]!.to !== s.from) return { message: `Chain is not continuous at step ${i + 1}`, ok: false };
    const edge = [s.from, s.to].sort().join("/");
    if (edges.has(edge)) return { message: `Chain repeats the edge ${edge}`, ok: false };
    edges.add(edge);
  }
  const first = steps[0]!.from;
  const last = steps.at(-1)!.to;
  if (first === pair.quote && last === pair.base) {
    steps = steps.reverse().map((s) => ({ from: s.to, provider: s.provider, to: s.from }));
  } else if (first !== pair.base || last !== pair.quote) {
    return { message: `Chain must run between ${pair.base} and ${pair.quote}`, ok: false };
  }
  return { ok: true, route: { base: pair.base, chainSteps: steps, priority: input.priority, quote: pair.quote } };
}

/** Configured conversion routes per pair (docs/fx.md). */
@injectable()
export class FxRouteService {
  constructor(
    @inject(Database) private readonly db: Database,
  ) {}

  /** Every route, by pair then priority. */
  async list(): Promise<RouteView[]> {
    const rows = await this.db.reads.find(FxRoute, { order: { base: "ASC", quote: "ASC", priority: "ASC" } });
    return rows.map((r) => ({ base: r.base, chainSteps: parseSteps(r), priority: r.priority, quote: r.quote }));
  }

  /**
   * Creates or updates routes in one transaction, item by item in request order. An unknown provider
   * anywhere refuses the whole batch (InputError FX_PROVIDER_UNKNOWN with `{message, results}`).
   */
  async save(items: RouteInput[], knownProviders: ReadonlySet<string>): Promise<RouteOutcome[]> {
    const checked = items.map((item) => checkRoute(item, knownProviders));
    const echo = (item: RouteInput): RouteView => ({ base: item.base, chainSteps: item.chainSteps, priority: item.priority, quote: item.quote });
    if (checked.some((c) => !c.ok && c.unknownProvider)) {
      const results = checked.map((c, i): RouteOutcome => c.ok
        ? { ...c.route, action: "error", message: "Batch refused: it names an unknown provider", success: false }
        : { ...echo(items[i]!), action: "error", message: c.message, success: false });
      const message = "Unknown FX provider in the batch; nothing was saved";
      throw new InputError("FX_PROVIDER_UNKNOWN", message, { message, results });
    }
    return this.db.write(async (tx) => {
      const outcomes: RouteOutcome[] = [];
      for (const [i, c] of checked.entries()) {
        outcomes.push(c.ok ? await this.saveOne(tx, c.route) : { ...echo(items[i]!), action: "error", message: c.message, success: false });
      }
      if (outcomes.some((o) => o.success)) declareChange(tx, { kind: "fx_routes" });
      return outcomes;
    });
  }

  private async saveOne(tx: EntityManager, route: RouteView): Promise<RouteOutcome> {
    const existing = await tx.find(FxRoute, { where: { base: route.base, quote: route.quote } });
    const manual = isManual(route.chainSteps);
    const refuse = (message: string): RouteOutcome => ({ ...route, action: "error", message, success: false });
    const key = chainKey(route.chainSteps);
    const twin = existing.find((r) => r.priority !== route.priority && chainKey(parseSteps(r)) === key);
    if (twin) return refuse(`${route.base}-${route.quote} is already configured with this chain at priority ${twin.priority}`);
    if (!manual) {
      // Adding a real route removes the pair's MANUAL placeholder, which only stands in for a pair
      // without one. A MANUAL route next to provider routes is no placeholder: an administrator
      // added it as their fallback (the manual rates convert the days the providers have no rate
      // for), and it stays when more provider routes come.
      const placeholders = existing.filter((r) => isManual(parseSteps(r)) && r.priority !== route.priority);
      const hasReal = existing.some((r) => !isManual(parseSteps(r)) && r.priority !== route.priority);
      if (placeholders.length > 0 && !hasReal) await tx.delete(FxRoute, placeholders.map((r) => r.id));
    }
    const same = existing.find((r) => r.priority === route.priority);
    if (same) {
      await tx.update(FxRoute, same.id, { chainSteps: JSON.stringify(route.chainSteps) });
      return { ...route, action: "updated", success: true };
    }
    await tx.insert(FxRoute, { base: route.base, chainSteps: JSON.stringify(route.chainSteps), priority: route.priority, quote: route.quote });
    return { ...route, action: "created", success: true };
  }

  /**
   * Deletes routes of pairs (one priority, or all). A pair that loses its last provider route gets
   * its MANUAL route back; deleting a MANUAL-only pair's routes removes the pair.
   */
  async delete(items: RouteDeleteInput[]): Promise<RouteDeleteOutcome[]> {
    return this.db.write(async (tx) => {
      const outcomes: RouteDeleteOutcome[] = [];
      for (const item of items) outcomes.push(await this.deleteOne(tx, item));
      if (outcomes.some((o) => o.success)) declareChange(tx, { kind: "fx_routes" });
      return outcomes;
    });
  }

  private async deleteOne(tx: EntityManager, item: RouteDeleteInput): Promise<RouteDeleteOutcome> {
    const pair = normalisePair(item.base, item.quote);
    const base = { base: item.base, deletedCount: 0, manualReinstated: false, priority: item.priority, quote: item.quote };
    if (!pair) return { ...base, message: "base and quote must be two different three-letter currency codes", success: false };
    const existing = await tx.find(FxRoute, { where: { base: pair.base, quote: pair.quote } });
    const doomed = existing.filter((r) => item.priority === undefined || r.priority === item.priority);
    if (doomed.length === 0) return { ...base, base: pair.base, message: "No matching route", quote: pair.quote, success: false };
    await tx.delete(FxRoute, doomed.map((r) => r.id));
    const lostReal = doomed.some((r) => !isManual(parseSteps(r)));
    const reinstate = lostReal && doomed.length === existing.length;
    if (reinstate) {
      await tx.insert(FxRoute, {
        base: pair.base, chainSteps: JSON.stringify(manualChain(pair.base, pair.quote)), priority: MANUAL_PRIORITY, quote: pair.quote,
      });
    }
    return { ...base, base: pair.base, deletedCount: doomed.length, manualReinstated: reinstate, quote: pair.quote, success: true };
  }
}
