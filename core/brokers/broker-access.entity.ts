import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";

export const BROKER_ROLES = ["OWNER", "EDITOR", "VIEWER"] as const;
export type BrokerRole = (typeof BROKER_ROLES)[number];

/** One user's access to one broker: a role, and a share that weighs figures but grants nothing. */
@Entity({ name: "broker_access" })
export class BrokerAccess {
  @PrimaryColumn({ name: "user_id", type: "integer" })
  userId: number;

  @PrimaryColumn({ name: "broker_id", type: "integer" })
  brokerId: number;

  @Column({ type: "varchar" })
  role: BrokerRole;

  /** Decimal string 0.000000–1.000000; used only for aggregation, never for permissions. */
  @Column({ name: "share_percentage", type: "varchar" })
  sharePercentage: string;

  @CreateDateColumn({ name: "created_at", type: "datetime" })
  createdAt: Date;
}
