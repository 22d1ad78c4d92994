import { inject, injectable } from "tsyringe";
import { type EntityManager, In } from "typeorm";
import type { QuoteProvider, ScheduledInvestmentProvider } from "../../sdk/index.ts";
import { Database } from "../db/database.ts";
import { declareChange } from "../db/data-changes.ts";
import { ValidationError } from "../errors/domain-error.ts";
import { AssetEvent } from "../events/asset-event.entity.ts";
import { isLimitMessage } from "../money/decimal-limits.ts";
import { PriceHistory } from "../prices/price-history.entity.ts";
import { Transaction } from "../transactions/transaction.entity.ts";
import { Asset } from "./asset.entity.ts";
import { PROVIDER_IDENTIFIER_TYPES, ProviderAssignment, type ProviderIdentifierType } from "./provider-assignment.entity.ts";

/** A pricing provider as core sees it: a loaded quote provider or scheduled-investment (parametric) provider. */
export type ProviderEntry = {
  readonly code: string;
  readonly description: string;
  /** Test-only providers: left out of lists and default searches, still assignable by code. */
  readonly hidden: boolean;
  readonly name: string;
} & (
  | { readonly instance: QuoteProvider; readonly kind: "quote-provider" }
  | { readonly instance: ScheduledInvestmentProvider<unknown>; readonly kind: "scheduled-investment-provider" }
);

/** Core's port to the plugin registry (the host implements it). Lists are sorted by code. */
export interface ProviderDirectory {
  find(code: string): ProviderEntry | undefined;
  list(): ProviderEntry[];
}

export const PROVIDER_DIRECTORY = Symbol("ProviderDirectory");

/** The identifier types a provider takes: its declared one, AUTO_GENERATED for parametric providers. */
export function acceptedIdentifierTypes(entry: ProviderEntry): ProviderIdentifierType[] {
  if (entry.kind === "scheduled-investment-provider") return ["AUTO_GENERATED"];
  const declared = PROVIDER_IDENTIFIER_TYPES.find((t) => t === entry.instance.identifierType);
  return declared ? [declared] : ["TICKER", "ISIN", "URL"];
}

export interface AssignmentInput {
  assetId: number;
  /** Empty with AUTO_GENERATED: a UUID is generated. */
  identifier: string;
  identifierType: ProviderIdentifierType;
  providerCode: string;
  providerParams?: Record<string, unknown> | null;
}

/** What was removed with an old assignment's market data. */
export interface MarketDataRemoved {
  events: number;
  prices: number;
  transactionsUnlinked: number;
}

export type AssignmentItemCode = "ASSET_NOT_FOUND" | "IDENTIFIER_TYPE_NOT_ACCEPTED" | "NO_PROVIDER_ASSIGNED" | "PROVIDER_NOT_FOUND" | "PROVIDER_PARAMS_INVALID";

export interface ParamIssue {
  loc: (number | string)[];
  msg: string;
  type: string;
}

export type AssignOutcome = { assetId: number } & (
  | { assignmentId: number; message: string; removed: MarketDataRemoved | null; success: true }
  | { code: AssignmentItemCode; issues?: ParamIssue[]; message: string; success: false }
);

export type RemoveOutcome = { assetId: number } & (
  | { message: string; removed: MarketDataRemoved; success: true }
  | { code: AssignmentItemCode; message: string; success: false }
);

export interface AssignmentView {
  assignment: ProviderAssignment;
  /** The instrument's page at the provider, when the provider is loaded and offers one. */
  providerUrl: string | null;
}

/** JSON with sorted keys, so equal parameters compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
    : v));
}

/**
 * Deletes the prices and events an assignment wrote (they no longer match the provider or its
 * parameters), after unlinking the
 * transactions tied to those events (`asset_event_id` set to null). Manual rows are untouched.
 */
export async function deleteAssignmentMarketData(tx: EntityManager, assignmentId: number): Promise<MarketDataRemoved> {
  const unlinked = await tx.createQueryBuilder().update(Transaction).set({ assetEventId: null })
    .where("asset_event_id IN (SELECT id FROM asset_events WHERE provider_assignment_id = :id)", { id: assignmentId })
    .execute();
  const events = await tx.delete(AssetEvent, { providerAssignmentId: assignmentId });
  const prices = await tx.delete(PriceHistory, { providerAssignmentId: assignmentId });
  return { events: events.affected ?? 0, prices: prices.affected ?? 0, transactionsUnlinked: unlinked.affected ?? 0 };
}

type Checked = { entry: ProviderEntry; identifier: string; params: string | null } | Extract<AssignOutcome, { success: false }>;

/**
 * Which provider prices each asset. Assigning another provider, or new parameters of a
 * parametric provider, first deletes the old assignment's market data and
 * starts a new assignment (new id); other edits (identifier, a quote provider's parameters)
 * keep the assignment and its data. Removing an assignment deletes its market data the same
 * way, so a later sync cannot double the provider's events next to orphaned copies.
 */
@injectable()
export class ProviderAssignmentService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(PROVIDER_DIRECTORY) private readonly providers: ProviderDirectory,
  ) {}

  assign(items: AssignmentInput[]): Promise<AssignOutcome[]> {
    const checks = items.map((item) => this.check(item));
    // A parameter outside the supported range of decimals refuses the whole request with 422, as in a
    // transaction batch (docs/errors.md), not an item issue: nothing of the request is written.
    const outOfRange = checks.flatMap((checked, index) => ("issues" in checked ? checked.issues ?? [] : [])
      .filter((issue) => isLimitMessage(issue.msg))
      .map((issue) => ({ loc: ["body", index, ...issue.loc], msg: issue.msg, type: "out_of_range" })));
    if (outOfRange.length) return Promise.reject(new ValidationError(outOfRange));
    // A new provider deletes the old assignment's prices and events.
    return this.db.write(async (tx) => {
      const outcomes: AssignOutcome[] = [];
      for (const [index, item] of items.entries()) outcomes.push(await this.assignOne(tx, item, checks[index]!));
      // The assignment rows themselves are asset data too: any success is declared.
      const assigned = outcomes.flatMap((o) => o.success ? [o.assetId] : []);
      if (assigned.length > 0) declareChange(tx, { kind: "assets", ids: assigned });
      return outcomes;
    });
  }

  private async assignOne(tx: EntityManager, item: AssignmentInput, checked: Checked): Promise<AssignOutcome> {
    const { assetId } = item;
    if (!(await tx.existsBy(Asset, { id: assetId }))) return notFound(assetId);
    if ("success" in checked) return checked;
    const current = await tx.findOneBy(ProviderAssignment, { assetId });
    const fields = { providerCode: checked.entry.code, identifier: checked.identifier, identifierType: item.identifierType, providerParams: checked.params };
    if (current && current.providerCode === fields.providerCode
      && (checked.entry.kind === "quote-provider" || current.providerParams === fields.providerParams)) {
      await tx.update(ProviderAssignment, { id: current.id }, fields);
      return { assetId, success: true, assignmentId: current.id, message: "Provider assignment updated", removed: null };
    }
    const removed = current ? await deleteAssignmentMarketData(tx, current.id) : null;
    if (current) await tx.delete(ProviderAssignment, { id: current.id });
    const saved = await tx.save(ProviderAssignment, Object.assign(new ProviderAssignment(), { assetId, ...fields }));
    const message = removed
      ? `Provider assigned; the previous assignment's ${removed.prices} prices and ${removed.events} events were deleted`
      : "Provider assigned";
    return { assetId, success: true, assignmentId: saved.id, message, removed };
  }

  /** Provider known, identifier type accepted, parameters valid by the provider's schema. */
  private check(item: AssignmentInput): Checked {
    const { assetId } = item;
    const entry = this.providers.find(item.providerCode);
    if (!entry) return { assetId, success: false, code: "PROVIDER_NOT_FOUND", message: `Provider '${item.providerCode}' not found` };
    const accepted = acceptedIdentifierTypes(entry);
    if (!accepted.includes(item.identifierType)) {
      return {
        assetId, success: false, code: "IDENTIFIER_TYPE_NOT_ACCEPTED",
        message: `Provider '${entry.code}' takes identifier type ${accepted.join(" or ")}, not ${item.identifierType}`,
      };
    }
    const raw = item.providerParams ?? null;
    const issues = paramIssues(entry, raw);
    if (issues.length) {
      return { assetId, success: false, code: "PROVIDER_PARAMS_INVALID", message: `Invalid provider_params for '${entry.code}'`, issues };
    }
    const identifier = item.identifier === "" && item.identifierType === "AUTO_GENERATED" ? crypto.randomUUID() : item.identifier;
    const params = raw === null || Object.keys(raw).length === 0 ? null : canonicalJson(raw);
    return { entry, identifier, params };
  }

  remove(assetIds: number[]): Promise<RemoveOutcome[]> {
    return this.db.write(async (tx) => {
      const outcomes: RemoveOutcome[] = [];
      for (const assetId of assetIds) {
        if (!(await tx.existsBy(Asset, { id: assetId }))) {
          outcomes.push(notFound(assetId));
          continue;
        }
        const current = await tx.findOneBy(ProviderAssignment, { assetId });
        if (!current) {
          outcomes.push({ assetId, success: false, code: "NO_PROVIDER_ASSIGNED", message: `Asset ${assetId} has no provider assignment` });
          continue;
        }
        const removed = await deleteAssignmentMarketData(tx, current.id);
        await tx.delete(ProviderAssignment, { id: current.id });
        outcomes.push({ assetId, success: true, message: "Provider assignment removed with its prices and events", removed });
        declareChange(tx, { kind: "assets", ids: [assetId] });
      }
      return outcomes;
    });
  }

  /** Assignments of the given assets in request order; assets without one are skipped. */
  async read(assetIds: number[]): Promise<AssignmentView[]> {
    if (assetIds.length === 0) return [];
    const rows = await this.db.reads.findBy(ProviderAssignment, { assetId: In([...new Set(assetIds)]) });
    const byAsset = new Map(rows.map((r) => [r.assetId, r]));
    return assetIds.flatMap((id) => {
      const assignment = byAsset.get(id);
      return assignment ? [{ assignment, providerUrl: this.pageUrl(assignment) }] : [];
    });
  }

  private pageUrl(a: ProviderAssignment): string | null {
    const entry = this.providers.find(a.providerCode);
    if (entry?.kind !== "quote-provider" || !entry.instance.pageUrl) return null;
    try {
      return entry.instance.pageUrl(a.identifier);
    } catch {
      return null;
    }
  }
}

function notFound(assetId: number): { assetId: number; code: "ASSET_NOT_FOUND"; message: string; success: false } {
  return { assetId, success: false, code: "ASSET_NOT_FOUND", message: `Asset ${assetId} not found` };
}

/**
 * Parameters checked by the provider's `paramsSchema` (absent ones as `{}`, so required
 * parameters are reported); a provider without a schema takes none.
 */
function paramIssues(entry: ProviderEntry, raw: Record<string, unknown> | null): ParamIssue[] {
  const schema = entry.instance.paramsSchema;
  if (!schema) {
    return raw && Object.keys(raw).length
      ? [{ loc: ["provider_params"], msg: `Provider '${entry.code}' takes no parameters`, type: "unrecognized_keys" }]
      : [];
  }
  try {
    const parsed = schema.safeParse(raw ?? {});
    if (parsed.success) return [];
    return parsed.error.issues.map((i) => ({ loc: ["provider_params", ...i.path.map((p) => (typeof p === "symbol" ? String(p) : p))], msg: i.message, type: i.code }));
  } catch (error) {
    return [{ loc: ["provider_params"], msg: `Parameters could not be checked: ${(error as Error).message}`, type: "custom" }];
  }
}
