import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { Database } from "../db/database.ts";
import { declareChange } from "../db/data-changes.ts";
import { fromSqliteDatetime } from "../db/sqlite-date.ts";
import { ConflictError, NotAllowedError, NotFoundError } from "../errors/domain-error.ts";
import type { Decimal } from "../money/decimal.ts";
import { User } from "../users/user.entity.ts";
import { BrokerAccess, type BrokerRole } from "./broker-access.entity.ts";
import { BrokerAccessService, ROLE_RANK } from "./broker-access.service.ts";
import { deleteBroker } from "./broker.service.ts";
import { checkShares, defaultShare, formatShare, parseShare } from "./share.ts";

export interface AccessListItem {
  createdAt: Date;
  role: BrokerRole;
  sharePercentage: string;
  userId: number;
  username: string;
}

const lastOwner = (brokerId: number) =>
  new ConflictError("LAST_OWNER", "The last OWNER of a broker cannot be removed or downgraded; make another user OWNER first", { broker_id: brokerId });

/** Every change of broker access (add, update, self-demotion, leave, removal), each in one write with the share rules checked. */
@injectable()
export class AccessChangeService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(BrokerAccessService) private readonly access: BrokerAccessService,
  ) {}

  /** VIEWER or better: who has access, with roles and shares. */
  async list(callerId: number, brokerId: number): Promise<AccessListItem[]> {
    await this.access.require(callerId, brokerId, "VIEWER");
    const rows = await this.db.reads.createQueryBuilder(BrokerAccess, "a")
      .innerJoin(User, "u", "u.id = a.user_id")
      .select("a.user_id", "userId").addSelect("u.username", "username").addSelect("a.role", "role")
      .addSelect("a.share_percentage", "share").addSelect("a.created_at", "createdAt")
      .where("a.broker_id = :brokerId", { brokerId })
      .orderBy("a.created_at", "ASC").addOrderBy("a.user_id", "ASC")
      .getRawMany<{ userId: number; username: string; role: BrokerRole; share: string; createdAt: string }>();
    return rows.map((r) => ({ userId: r.userId, username: r.username, role: r.role, sharePercentage: r.share, createdAt: fromSqliteDatetime(r.createdAt) }));
  }

  /** OWNER adds a user; OWNER defaults to share 1.00, others to 0.00. */
  add(callerId: number, brokerId: number, input: { role: BrokerRole; share?: string | number; userId: number }): Promise<BrokerAccess> {
    return this.db.write(async (tx) => {
      declareChange(tx, { kind: "access", ids: [brokerId] });
      await this.access.require(callerId, brokerId, "OWNER", tx);
      if (!(await tx.findOneBy(User, { id: input.userId }))) {
        throw new NotFoundError("USER_NOT_FOUND", `User ${input.userId} not found`, { user_id: input.userId });
      }
      if (await tx.findOneBy(BrokerAccess, { userId: input.userId, brokerId })) {
        throw new ConflictError("ACCESS_EXISTS", `User ${input.userId} already has access to broker ${brokerId}; update the row instead`);
      }
      const share = input.share === undefined ? defaultShare(input.role) : parseShare(input.share);
      await this.checkAfter(tx, brokerId, { userId: input.userId, role: input.role, share });
      await tx.insert(BrokerAccess, { userId: input.userId, brokerId, role: input.role, sharePercentage: formatShare(share) });
      return tx.findOneByOrFail(BrokerAccess, { userId: input.userId, brokerId });
    });
  }

  /**
   * OWNER changes a row's role or share: the only path for promotions. A demotion to EDITOR or
   * VIEWER sets the share to 0 unless one is sent; the last OWNER cannot be downgraded.
   */
  update(callerId: number, brokerId: number, targetId: number, input: { role?: BrokerRole; share?: string | number }): Promise<BrokerAccess> {
    return this.db.write(async (tx) => {
      declareChange(tx, { kind: "access", ids: [brokerId] });
      await this.access.require(callerId, brokerId, "OWNER", tx);
      const row = await this.targetRow(tx, brokerId, targetId);
      const role = input.role ?? row.role;
      if (row.role === "OWNER" && role !== "OWNER" && (await this.ownerCount(tx, brokerId)) <= 1) throw lastOwner(brokerId);
      const share = input.share !== undefined ? parseShare(input.share) : role === "OWNER" ? parseShare(row.sharePercentage) : defaultShare(role);
      await this.checkAfter(tx, brokerId, { userId: targetId, role, share });
      await tx.update(BrokerAccess, { userId: targetId, brokerId }, { role, sharePercentage: formatShare(share) });
      return tx.findOneByOrFail(BrokerAccess, { userId: targetId, brokerId });
    });
  }

  /** Self-demotion only (EDITOR → VIEWER; OWNER → EDITOR or VIEWER while another OWNER remains, share set to 0). */
  demoteSelf(callerId: number, brokerId: number, role: BrokerRole): Promise<BrokerAccess> {
    return this.db.write(async (tx) => {
      declareChange(tx, { kind: "access", ids: [brokerId] });
      const row = await this.access.require(callerId, brokerId, "VIEWER", tx);
      if (ROLE_RANK[role] > ROLE_RANK[row.role]) {
        throw new NotAllowedError("PROMOTION_NOT_ALLOWED", "Roles can only be raised by an OWNER through the access update");
      }
      if (row.role === "OWNER" && role !== "OWNER" && (await this.ownerCount(tx, brokerId)) <= 1) throw lastOwner(brokerId);
      const share = role === "OWNER" ? row.sharePercentage : formatShare(0);
      await tx.update(BrokerAccess, { userId: callerId, brokerId }, { role, sharePercentage: share });
      return tx.findOneByOrFail(BrokerAccess, { userId: callerId, brokerId });
    });
  }

  /** Leave: the row goes; the last OWNER leaving deletes the broker and its transactions. */
  leave(callerId: number, brokerId: number): Promise<{ brokerDeleted: boolean }> {
    return this.db.write(async (tx) => {
      declareChange(tx, { kind: "access", ids: [brokerId] });
      const row = await this.access.require(callerId, brokerId, "VIEWER", tx);
      if (row.role === "OWNER" && (await this.ownerCount(tx, brokerId)) <= 1) {
        await deleteBroker(tx, brokerId);
        return { brokerDeleted: true };
      }
      await tx.delete(BrokerAccess, { userId: callerId, brokerId });
      return { brokerDeleted: false };
    });
  }

  /** An OWNER removes anyone, anyone removes themself; the last OWNER cannot be removed. */
  remove(callerId: number, brokerId: number, targetId: number): Promise<void> {
    return this.db.write(async (tx) => {
      declareChange(tx, { kind: "access", ids: [brokerId] });
      await this.access.require(callerId, brokerId, callerId === targetId ? "VIEWER" : "OWNER", tx);
      const row = await this.targetRow(tx, brokerId, targetId);
      if (row.role === "OWNER" && (await this.ownerCount(tx, brokerId)) <= 1) throw lastOwner(brokerId);
      await tx.delete(BrokerAccess, { userId: targetId, brokerId });
    });
  }

  private async targetRow(tx: EntityManager, brokerId: number, userId: number): Promise<BrokerAccess> {
    const row = await tx.findOneBy(BrokerAccess, { userId, brokerId });
    if (!row) throw new NotFoundError("ACCESS_NOT_FOUND", `User ${userId} has no access to broker ${brokerId}`, { user_id: userId });
    return row;
  }

  private ownerCount(tx: EntityManager, brokerId: number): Promise<number> {
    return tx.countBy(BrokerAccess, { brokerId, role: "OWNER" });
  }

  /** The share rules over the broker's rows as they would be after this change. */
  private async checkAfter(tx: EntityManager, brokerId: number, changed: { role: BrokerRole; share: Decimal; userId: number }) {
    const rows = (await tx.findBy(BrokerAccess, { brokerId })).filter((r) => r.userId !== changed.userId);
    checkShares([...rows.map((r) => ({ userId: r.userId, role: r.role, share: parseShare(r.sharePercentage) })), changed]);
  }
}

/** Inside an account deletion: brokers whose only OWNER is this user go with them (as if they left). */
export async function deleteSolelyOwnedBrokers(tx: EntityManager, userId: number): Promise<number[]> {
  const owned = await tx.findBy(BrokerAccess, { userId, role: "OWNER" });
  const deleted: number[] = [];
  for (const { brokerId } of owned) {
    if ((await tx.countBy(BrokerAccess, { brokerId, role: "OWNER" })) <= 1) {
      await deleteBroker(tx, brokerId);
      deleted.push(brokerId);
    }
  }
  return deleted;
}
