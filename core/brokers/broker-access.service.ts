import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { Database } from "../db/database.ts";
import { NotAllowedError, NotFoundError } from "../errors/domain-error.ts";
import { BrokerAccess, type BrokerRole } from "./broker-access.entity.ts";
import { Broker } from "./broker.entity.ts";

/** VIEWER reads; EDITOR also writes transactions, imports and edits settings; OWNER also manages access and deletes. */
export const ROLE_RANK: Record<BrokerRole, number> = { VIEWER: 1, EDITOR: 2, OWNER: 3 };

export function roleAtLeast(role: BrokerRole, min: BrokerRole): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[min];
}

export function brokerNotFound(brokerId: number): NotFoundError {
  return new NotFoundError("BROKER_NOT_FOUND", `Broker ${brokerId} not found`, { broker_id: brokerId });
}

/**
 * Broker permissions from access rows only. `is_superuser` grants nothing here (no bypass), and a
 * broker without a row for the caller does not exist for them (404, its existence not revealed).
 */
@injectable()
export class BrokerAccessService {
  constructor(@inject(Database) private readonly db: Database) {}

  find(userId: number, brokerId: number, tx: EntityManager = this.db.reads): Promise<BrokerAccess | null> {
    return tx.findOneBy(BrokerAccess, { userId, brokerId });
  }

  /** The caller's row when their role is at least `min`; 404 without a row, 403 when the role is too low. */
  async require(userId: number, brokerId: number, min: BrokerRole, tx?: EntityManager): Promise<BrokerAccess> {
    const row = await this.find(userId, brokerId, tx);
    if (!row) throw brokerNotFound(brokerId);
    if (!roleAtLeast(row.role, min)) {
      // The caller can see the broker, so its name may be shown (the web words the message from `params`).
      const name = (await (tx ?? this.db.reads).findOne(Broker, { select: { id: true, name: true }, where: { id: brokerId } }))?.name;
      throw new NotAllowedError("BROKER_ROLE_REQUIRED", `${min} or better access to ${name === undefined ? `broker ${brokerId}` : `broker "${name}"`} is required`, {
        broker_id: brokerId, ...(name === undefined ? {} : { broker_name: name }), required_role: min, role: row.role,
      });
    }
    return row;
  }

  /** broker id → the caller's role, for every broker they can see (at least `min`). */
  async roles(userId: number, min: BrokerRole = "VIEWER", tx: EntityManager = this.db.reads): Promise<Map<number, BrokerRole>> {
    const rows = await tx.findBy(BrokerAccess, { userId });
    return new Map(rows.filter((r) => roleAtLeast(r.role, min)).map((r) => [r.brokerId, r.role]));
  }
}
