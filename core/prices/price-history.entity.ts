import { Column, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";

/** One day of an asset's prices; decimals as strings in the asset's currency. */
@Entity({ name: "price_history" })
export class PriceHistory {
  @PrimaryColumn({ name: "asset_id", type: "integer" })
  assetId: number;

  /** Calendar day `YYYY-MM-DD`. */
  @PrimaryColumn({ type: "varchar" })
  date: string;

  @Column({ type: "varchar", nullable: true })
  open: string | null;

  @Column({ type: "varchar", nullable: true })
  high: string | null;

  @Column({ type: "varchar", nullable: true })
  low: string | null;

  @Column({ type: "varchar" })
  close: string;

  @Column({ type: "varchar", nullable: true })
  volume: string | null;

  @Column({ type: "varchar" })
  currency: string;

  /** `manual`, or the provider code that wrote the row. */
  @Column({ name: "source_plugin_key", type: "varchar" })
  sourcePluginKey: string;

  /** The assignment whose sync wrote the row; null for manual prices. */
  @Column({ name: "provider_assignment_id", type: "integer", nullable: true })
  providerAssignmentId: number | null;

  @UpdateDateColumn({ name: "updated_at", type: "datetime" })
  updatedAt: Date;
}
