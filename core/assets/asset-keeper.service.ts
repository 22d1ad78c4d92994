import { inject, injectable } from "tsyringe";
import { In } from "typeorm";
import { Database } from "../db/database.ts";
import { NotAllowedError, NotFoundError } from "../errors/domain-error.ts";
import { AssetEvent } from "../events/asset-event.entity.ts";
import { User } from "../users/user.entity.ts";
import { Asset } from "./asset.entity.ts";

/** Who is asking: the account id and its administrator flag. */
export interface AssetActor {
  readonly id: number;
  readonly isSuperuser: boolean;
}

/** The refusal's code says who may change the asset: its keeper or an administrator. */
export const KEEPER_REQUIRED = "ASSET_KEEPER_OR_ADMIN_REQUIRED";

/**
 * Asset keepers (docs/assets.md). Assets and their market data are shared reference
 * data: everyone reads them, uses them in transactions and triggers provider syncs; writes to an
 * asset and its prices, events and provider are for its keeper (the user who created it) and
 * administrators. Checked before the write, for every existing asset the request names; unknown
 * ids are left to the write, which reports them per item.
 */
@injectable()
export class AssetKeeperService {
  constructor(@inject(Database) private readonly db: Database) {}

  /** Throws 403 {@link KEEPER_REQUIRED} when `actor` may not change one of the assets; nothing is written then. */
  async assertMayChange(actor: AssetActor, assetIds: readonly number[]): Promise<void> {
    if (actor.isSuperuser || assetIds.length === 0) return;
    const rows = await this.db.reads.find(Asset, { select: { id: true, keeperUserId: true }, where: { id: In([...new Set(assetIds)]) } });
    const refused = rows.filter((a) => a.keeperUserId !== actor.id).map((a) => a.id).sort((a, b) => a - b);
    if (refused.length) {
      throw new NotAllowedError(KEEPER_REQUIRED,
        `Only the keeper of asset ${refused.join(", ")} (the user who created it) or an administrator can change it and its market data; everyone can use it in transactions`, { asset_ids: refused });
    }
  }

  /** As {@link assertMayChange}, for the assets of the given events. */
  async assertMayChangeEvents(actor: AssetActor, eventIds: readonly number[]): Promise<void> {
    if (actor.isSuperuser || eventIds.length === 0) return;
    const rows = await this.db.reads.find(AssetEvent, { select: { id: true, assetId: true }, where: { id: In([...new Set(eventIds)]) } });
    await this.assertMayChange(actor, rows.map((e) => e.assetId));
  }

  /** Hands the asset to another keeper (administrators only, checked by the route). */
  reassign(assetId: number, keeperUserId: number): Promise<Asset> {
    return this.db.write(async (tx) => {
      const asset = await tx.findOneBy(Asset, { id: assetId });
      if (!asset) throw new NotFoundError("ASSET_NOT_FOUND", `Asset ${assetId} not found`);
      if (!(await tx.existsBy(User, { id: keeperUserId }))) throw new NotFoundError("USER_NOT_FOUND", `User ${keeperUserId} not found`);
      asset.keeperUserId = keeperUserId;
      return tx.save(Asset, asset);
    });
  }
}
