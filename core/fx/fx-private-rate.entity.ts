import { Column, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";

/**
 * One day's private manual rate of a pair, kept by one user for their own conversions and reports
 * only (docs/fx.md "Who changes FX data"): 1 `base` = `rate` `quote`, pair in alphabetical order.
 */
@Entity({ name: "fx_private_rates" })
export class FxPrivateRateRow {
  @PrimaryColumn({ name: "user_id", type: "integer" })
  userId: number;

  @PrimaryColumn({ type: "varchar" })
  base: string;

  @PrimaryColumn({ type: "varchar" })
  quote: string;

  /** Calendar day `YYYY-MM-DD`. */
  @PrimaryColumn({ type: "varchar" })
  date: string;

  /** Decimal string > 0. */
  @Column({ type: "varchar" })
  rate: string;

  @Column({ type: "varchar" })
  source: string;

  @UpdateDateColumn({ name: "updated_at", type: "datetime" })
  updatedAt: Date;
}
