import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from "typeorm";

export const ASSET_EVENT_TYPES = ["DIVIDEND", "INTEREST", "PRICE_ADJUSTMENT", "SPLIT", "MATURITY_SETTLEMENT"] as const;
export type AssetEventType = (typeof ASSET_EVENT_TYPES)[number];

/** A dated event of an asset (docs/events.md). No uniqueness on (asset, date, type): provider and manual events may share a key. */
@Entity({ name: "asset_events" })
export class AssetEvent {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: "asset_id", type: "integer" })
  assetId: number;

  @Column({ type: "varchar" })
  date: string;

  @Column({ type: "varchar" })
  type: AssetEventType;

  /** Decimal string: a monetary value, or the ratio for SPLIT. */
  @Column({ type: "varchar" })
  value: string;

  @Column({ type: "varchar" })
  currency: string;

  /** Null means a manual event. */
  @Column({ name: "provider_assignment_id", type: "integer", nullable: true })
  providerAssignmentId: number | null;

  @Column({ type: "varchar", nullable: true })
  notes: string | null;

  @CreateDateColumn({ name: "created_at", type: "datetime" })
  createdAt: Date;

  @UpdateDateColumn({ name: "updated_at", type: "datetime" })
  updatedAt: Date;
}
