import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from "typeorm";

@Entity({ name: "brokers" })
export class Broker {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: "varchar" })
  name: string;

  @Column({ type: "varchar", nullable: true })
  description: string | null;

  @Column({ name: "portal_url", type: "varchar", nullable: true })
  portalUrl: string | null;

  @Column({ name: "icon_url", type: "varchar", nullable: true })
  iconUrl: string | null;

  @Column({ name: "default_import_plugin", type: "varchar", nullable: true })
  defaultImportPlugin: string | null;

  @Column({ name: "allow_cash_overdraft", type: "boolean", default: false })
  allowCashOverdraft: boolean;

  @Column({ name: "allow_asset_shorting", type: "boolean", default: false })
  allowAssetShorting: boolean;

  @Column({ name: "is_active", type: "boolean", default: true })
  isActive: boolean;

  /** Calendar day `YYYY-MM-DD`. */
  @Column({ name: "opened_at", type: "varchar", nullable: true })
  openedAt: string | null;

  @CreateDateColumn({ name: "created_at", type: "datetime" })
  createdAt: Date;

  @UpdateDateColumn({ name: "updated_at", type: "datetime" })
  updatedAt: Date;
}
