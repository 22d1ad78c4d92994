import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { Database } from "../db/database.ts";
import { declareChange } from "../db/data-changes.ts";
import { AssetEvent } from "../events/asset-event.entity.ts";
import { Decimal, toDecimalString } from "../money/decimal.ts";
import { PriceHistory } from "../prices/price-history.entity.ts";
import { Transaction } from "../transactions/transaction.entity.ts";
import { Asset, type AssetType } from "./asset.entity.ts";
import { type Classification, parseClassification, serializeClassification } from "./classification.ts";

/** Editable asset fields (core names). In a patch, an absent key keeps the value and null clears it. */
export interface AssetFields {
  active?: boolean;
  assetType?: AssetType | null;
  classification?: Classification | null;
  currency?: string;
  iconUrl?: string | null;
  identifierCusip?: string | null;
  identifierFigi?: string | null;
  identifierIsin?: string | null;
  identifierOther?: string[] | null;
  identifierSedol?: string | null;
  identifierTicker?: string | null;
  identifierUuid?: string | null;
  name?: string;
  /** Decimal string; zero, negative or null means 1. */
  quoteBaseQuantity?: string | null;
  userUrl?: string | null;
}

export interface NewAsset extends AssetFields {
  currency: string;
  name: string;
}

export interface AssetPatch extends AssetFields {
  assetId: number;
}

export type AssetFieldKey = keyof AssetFields;

/** One changed field of a patch, with values in core form (classification parsed, identifier_other as a list). */
export interface FieldChange {
  field: AssetFieldKey;
  new: unknown;
  old: unknown;
}

/** Per-item failure codes of the bulk asset writes. */
export type AssetItemCode = "ASSET_NAME_TAKEN" | "ASSET_NOT_FOUND" | "CURRENCY_CHANGE_BLOCKED_BY_MARKET_DATA" | "HAS_TRANSACTIONS";

export type AssetItemOutcome<T> = ({ success: true } & T) | { code: AssetItemCode; message: string; success: false };

export type CreateOutcome = { name: string } & AssetItemOutcome<{ assetId: number }>;
export type PatchOutcome = { assetId: number } & AssetItemOutcome<{ changes: FieldChange[] }>;
export type DeleteOutcome = { assetId: number } & AssetItemOutcome<{}>;

type ColumnKey = Exclude<keyof Asset, "createdAt" | "id" | "updatedAt">;

const COLUMN_OF: Record<AssetFieldKey, ColumnKey> = {
  active: "active", assetType: "assetType", classification: "classificationParams", currency: "currency",
  iconUrl: "iconUrl", identifierCusip: "identifierCusip", identifierFigi: "identifierFigi", identifierIsin: "identifierIsin",
  identifierOther: "identifierOther", identifierSedol: "identifierSedol", identifierTicker: "identifierTicker",
  identifierUuid: "identifierUuid", name: "name", quoteBaseQuantity: "quoteBaseQuantity", userUrl: "userUrl",
};

/** `identifier_other` is stored as a JSON array of strings. */
export function parseIdentifierOther(json: string | null): string[] | null {
  if (json === null) return null;
  try {
    const list = JSON.parse(json);
    return Array.isArray(list) ? list.map(String) : null;
  } catch {
    return null;
  }
}

function normalizeQuoteBase(value: string | null | undefined): string {
  if (value === null || value === undefined) return "1";
  const q = new Decimal(value);
  return q.lte(0) ? "1" : toDecimalString(q);
}

/** A classification with nothing in it is stored as none, so `has_metadata` stays honest. */
function isEmpty(c: Classification | null): boolean {
  return c === null || (c.shortDescription === null && c.geographicArea === null && c.sectorArea === null);
}

function toColumn(key: AssetFieldKey, value: unknown): unknown {
  if (key === "classification") return isEmpty(value as Classification | null) ? null : serializeClassification(value as Classification);
  if (key === "identifierOther") return value === null ? null : JSON.stringify(value);
  if (key === "quoteBaseQuantity") return normalizeQuoteBase(value as string | null);
  return value;
}

function fromColumn(key: AssetFieldKey, column: unknown): unknown {
  if (key === "classification") return parseClassification(column as string | null);
  if (key === "identifierOther") return parseIdentifierOther(column as string | null);
  return column;
}

const fold = (name: string) => name.toLowerCase();

/**
 * Creating, editing and deleting assets. Assets are global (docs/assets.md): any signed-in user
 * reads them; writes are checked against the keeper first (AssetKeeperService). Names are any string, stored as sent, and unique among assets ignoring case.
 * Every bulk call is one write; an item that breaks a rule is reported in its outcome and the
 * others go ahead.
 */
@injectable()
export class AssetService {
  constructor(
    @inject(Database) private readonly db: Database,
  ) {}

  /** Creates the assets with `keeperUserId` (the creator) as their keeper. */
  create(items: NewAsset[], keeperUserId: number | null = null): Promise<CreateOutcome[]> {
    return this.db.write(async (tx) => {
      const outcomes = await this.createIn(tx, items, keeperUserId);
      const created = outcomes.flatMap((o) => o.success ? [o.assetId] : []);
      if (created.length > 0) declareChange(tx, { kind: "assets", ids: created });
      return outcomes;
    });
  }

  /**
   * {@link create} inside a write the caller holds (a broker import creates its assets and rows in
   * one transaction); the caller commits or rolls back, and clears the portfolio caches after a commit.
   * `between` runs before each item after the first: an import's 200 new assets give other requests
   * a turn between their inserts (each a few ms of TypeORM on the request thread).
   */
  async createIn(tx: EntityManager, items: NewAsset[], keeperUserId: number | null, between?: () => Promise<void>): Promise<CreateOutcome[]> {
    const taken = await this.takenNames(tx);
    const outcomes: CreateOutcome[] = [];
    for (const [k, item] of items.entries()) {
      if (k > 0) await between?.();
      if (taken.has(fold(item.name))) {
        outcomes.push({ name: item.name, success: false, code: "ASSET_NAME_TAKEN", message: `An asset named '${item.name}' already exists` });
        continue;
      }
      const asset = new Asset();
      asset.active = true;
      asset.quoteBaseQuantity = "1";
      asset.keeperUserId = keeperUserId;
      for (const key of Object.keys(item) as AssetFieldKey[]) {
        if (item[key] !== undefined) Object.assign(asset, { [COLUMN_OF[key]]: toColumn(key, item[key]) });
      }
      const saved = await tx.save(Asset, asset);
      taken.set(fold(item.name), saved.id);
      outcomes.push({ name: item.name, success: true, assetId: saved.id });
    }
    return outcomes;
  }

  /**
   * Applies each patch in order. A currency change is refused while the asset has prices or
   * events (they are in the old currency); the caller decides whether an all-refused batch is a 409.
   */
  patch(items: AssetPatch[]): Promise<PatchOutcome[]> {
    return this.db.write(async (tx) => {
      const taken = await this.takenNames(tx);
      const outcomes: PatchOutcome[] = [];
      for (const item of items) outcomes.push(await this.patchOne(tx, item, taken));
      const changed = outcomes.flatMap((o) => o.success && o.changes.length > 0 ? [o.assetId] : []);
      if (changed.length > 0) declareChange(tx, { kind: "assets", ids: changed });
      return outcomes;
    });
  }

  private async patchOne(tx: EntityManager, item: AssetPatch, taken: Map<string, number>): Promise<PatchOutcome> {
    const { assetId } = item;
    const asset = await tx.findOneBy(Asset, { id: assetId });
    if (!asset) return { assetId, success: false, code: "ASSET_NOT_FOUND", message: `Asset ${assetId} not found` };
    if (item.name !== undefined && (taken.get(fold(item.name)) ?? assetId) !== assetId) {
      return { assetId, success: false, code: "ASSET_NAME_TAKEN", message: `An asset named '${item.name}' already exists` };
    }
    if (item.currency !== undefined && item.currency !== asset.currency && await hasMarketData(tx, assetId)) {
      return {
        assetId, success: false, code: "CURRENCY_CHANGE_BLOCKED_BY_MARKET_DATA",
        message: `"${asset.name}" has prices or events in ${asset.currency}; wipe its market data before changing the currency`,
      };
    }
    const changes: FieldChange[] = [];
    for (const key of Object.keys(COLUMN_OF) as AssetFieldKey[]) {
      if (item[key] === undefined) continue;
      const column = COLUMN_OF[key];
      const next = toColumn(key, item[key]);
      if (asset[column] === next) continue;
      changes.push({ field: key, old: fromColumn(key, asset[column]), new: fromColumn(key, next) });
      Object.assign(asset, { [column]: next });
    }
    const renamed = changes.find((c) => c.field === "name");
    if (renamed) {
      taken.delete(fold(renamed.old as string));
      taken.set(fold(asset.name), assetId);
    }
    if (changes.length) await tx.save(Asset, asset);
    return { assetId, success: true, changes };
  }

  /** Deletes each asset with its prices, events and assignment; one referenced by a transaction is kept. */
  delete(assetIds: number[]): Promise<DeleteOutcome[]> {
    return this.db.write(async (tx) => {
      const outcomes: DeleteOutcome[] = [];
      for (const assetId of assetIds) {
        const asset = await tx.findOne(Asset, { select: { id: true, name: true }, where: { id: assetId } });
        if (!asset) {
          outcomes.push({ assetId, success: false, code: "ASSET_NOT_FOUND", message: `Asset ${assetId} not found` });
          continue;
        }
        if (await tx.existsBy(Transaction, { assetId })) {
          // No count: the transactions may be in brokers the caller cannot see.
          outcomes.push({ assetId, success: false, code: "HAS_TRANSACTIONS", message: `"${asset.name}" is used by transactions` });
          continue;
        }
        await tx.delete(Asset, { id: assetId });
        outcomes.push({ assetId, success: true });
      }
      const deleted = outcomes.flatMap((o) => o.success ? [o.assetId] : []);
      if (deleted.length > 0) declareChange(tx, { kind: "assets", ids: deleted });
      return outcomes;
    });
  }

  /** Folded name → asset id, for the case-insensitive uniqueness rule. */
  private async takenNames(tx: EntityManager): Promise<Map<string, number>> {
    const rows = await tx.find(Asset, { select: { id: true, name: true } });
    return new Map(rows.map((r) => [fold(r.name), r.id]));
  }
}

export async function hasMarketData(tx: EntityManager, assetId: number): Promise<boolean> {
  return (await tx.existsBy(PriceHistory, { assetId })) || (await tx.existsBy(AssetEvent, { assetId }));
}
