import { Column, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";

/**
 * One day's rate of a pair from one provider: 1 `base` = `rate` `quote`. Pairs are stored in
 * alphabetical order (`base < quote`); a rate posted the other way round is inverted on write.
 */
@Entity({ name: "fx_rates" })
export class FxRateRow {
  @PrimaryColumn({ type: "varchar" })
  base: string;

  @PrimaryColumn({ type: "varchar" })
  quote: string;

  /** Provider code (`ECB`, ..., or `MANUAL`). */
  @PrimaryColumn({ type: "varchar" })
  provider: string;

  /** Calendar day `YYYY-MM-DD`. */
  @PrimaryColumn({ type: "varchar" })
  date: string;

  /** Decimal string > 0. */
  @Column({ type: "varchar" })
  rate: string;

  /** Where the value came from (`sync`, `manual`, ...). */
  @Column({ type: "varchar" })
  source: string;

  @UpdateDateColumn({ name: "updated_at", type: "datetime" })
  updatedAt: Date;
}
