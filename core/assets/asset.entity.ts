import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from "typeorm";

export const ASSET_TYPES = ["STOCK", "ETF", "BOND", "CRYPTO", "FUND", "CROWDFUND", "HOLD", "INDEX", "OTHER"] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** An asset. Assets are global: shared by all users, with no per-asset access control (docs/assets.md). */
@Entity({ name: "assets" })
export class Asset {
  @PrimaryGeneratedColumn()
  id: number;

  /** Any string, stored as sent (clients escape it before rendering it as markup). */
  @Column({ type: "varchar" })
  name: string;

  @Column({ type: "varchar" })
  currency: string;

  /** False means archived. */
  @Column({ type: "boolean", default: true })
  active: boolean;

  @Column({ name: "asset_type", type: "varchar", nullable: true })
  assetType: AssetType | null;

  @Column({ name: "icon_url", type: "varchar", nullable: true })
  iconUrl: string | null;

  @Column({ name: "user_url", type: "varchar", nullable: true })
  userUrl: string | null;

  /** Decimal string: units a quote refers to (100 for bonds quoted per 100). */
  @Column({ name: "quote_base_quantity", type: "varchar", default: "1" })
  quoteBaseQuantity: string;

  @Column({ name: "identifier_isin", type: "varchar", nullable: true })
  identifierIsin: string | null;

  @Column({ name: "identifier_ticker", type: "varchar", nullable: true })
  identifierTicker: string | null;

  @Column({ name: "identifier_cusip", type: "varchar", nullable: true })
  identifierCusip: string | null;

  @Column({ name: "identifier_sedol", type: "varchar", nullable: true })
  identifierSedol: string | null;

  @Column({ name: "identifier_figi", type: "varchar", nullable: true })
  identifierFigi: string | null;

  @Column({ name: "identifier_uuid", type: "varchar", nullable: true })
  identifierUuid: string | null;

  /** JSON array of strings. */
  @Column({ name: "identifier_other", type: "varchar", nullable: true })
  identifierOther: string | null;

  /** JSON: `{short_description?, geographic_area?: {distribution}, sector_area?: {distribution}}`. */
  @Column({ name: "classification_params", type: "varchar", nullable: true })
  classificationParams: string | null;

  /** Who may change the asset and its market data besides administrators (docs/assets.md); null: administrators only. */
  @Column({ name: "keeper_user_id", type: "integer", nullable: true })
  keeperUserId: number | null;

  @CreateDateColumn({ name: "created_at", type: "datetime" })
  createdAt: Date;

  @UpdateDateColumn({ name: "updated_at", type: "datetime" })
  updatedAt: Date;
}
