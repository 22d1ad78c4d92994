import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from "typeorm";

export const PROVIDER_IDENTIFIER_TYPES = ["TICKER", "ISIN", "URL", "AUTO_GENERATED"] as const;
export type ProviderIdentifierType = (typeof PROVIDER_IDENTIFIER_TYPES)[number];

/** Which quote provider prices an asset (at most one per asset). An asset without one is manual. */
@Entity({ name: "asset_provider_assignments" })
export class ProviderAssignment {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: "asset_id", type: "integer" })
  assetId: number;

  /** The plugin id of the quote or scheduled-investment provider; kept even if the plugin is gone. */
  @Column({ name: "provider_code", type: "varchar" })
  providerCode: string;

  @Column({ type: "varchar" })
  identifier: string;

  @Column({ name: "identifier_type", type: "varchar" })
  identifierType: ProviderIdentifierType;

  /** JSON object, validated by the provider's params schema. */
  @Column({ name: "provider_params", type: "varchar", nullable: true })
  providerParams: string | null;

  @Column({ name: "last_fetch_at", type: "datetime", nullable: true })
  lastFetchAt: Date | null;

  @CreateDateColumn({ name: "created_at", type: "datetime" })
  createdAt: Date;

  @UpdateDateColumn({ name: "updated_at", type: "datetime" })
  updatedAt: Date;
}
