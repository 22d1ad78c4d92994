import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from "typeorm";

export const TRANSACTION_TYPES = [
  "BUY", "SELL", "DIVIDEND", "INTEREST", "DEPOSIT", "WITHDRAWAL",
  "FEE", "TAX", "ADJUSTMENT", "TRANSFER", "FX_CONVERSION", "CASH_TRANSFER",
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const COST_BASIS_MODES = ["auto", "auto-detail", "manual"] as const;
export type CostBasisMode = (typeof COST_BASIS_MODES)[number];

/**
 * One ledger row. Quantity and cash are signed decimal strings; `amount` and
 * `currency` are null when the row moves no cash. `costBasisOverride` is per unit.
 */
@Entity({ name: "transactions" })
export class Transaction {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: "broker_id", type: "integer" })
  brokerId: number;

  @Column({ name: "asset_id", type: "integer", nullable: true })
  assetId: number | null;

  @Column({ type: "varchar" })
  type: TransactionType;

  /** Calendar day `YYYY-MM-DD`. */
  @Column({ type: "varchar" })
  date: string;

  @Column({ type: "varchar", default: "0" })
  quantity: string;

  @Column({ type: "varchar", nullable: true })
  amount: string | null;

  @Column({ type: "varchar", nullable: true })
  currency: string | null;

  @Column({ name: "related_transaction_id", type: "integer", nullable: true })
  relatedTransactionId: number | null;

  /** JSON array of strings. */
  @Column({ type: "varchar", nullable: true })
  tags: string | null;

  @Column({ type: "varchar", nullable: true })
  description: string | null;

  @Column({ name: "cost_basis_override", type: "varchar", nullable: true })
  costBasisOverride: string | null;

  @Column({ name: "cost_basis_currency", type: "varchar", nullable: true })
  costBasisCurrency: string | null;

  @Column({ name: "cost_basis_mode", type: "varchar", nullable: true })
  costBasisMode: CostBasisMode | null;

  @Column({ name: "asset_event_id", type: "integer", nullable: true })
  assetEventId: number | null;

  @CreateDateColumn({ name: "created_at", type: "datetime" })
  createdAt: Date;

  @UpdateDateColumn({ name: "updated_at", type: "datetime" })
  updatedAt: Date;
}
